//! Code Mode host runtime (placeholder).
