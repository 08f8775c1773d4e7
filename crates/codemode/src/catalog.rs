//! The tool catalog and the model-facing instructions of the execute tool (issue 4 "Catalog").
//! Work in progress: filled in by the next commits.
