//! Code Mode over MCP (issue 5).
#![forbid(unsafe_code)]
