//! AST → register bytecode (in progress).
use crate::proto::ProgramData;
use crate::{ErrorKind, GuestError, ast};

/// Compile a parsed chunk.
pub fn compile_chunk(_b: &ast::Block) -> Result<ProgramData, GuestError> {
    Err(GuestError {
        kind: ErrorKind::ParseError,
        message: "compiler in progress".into(),
        location: None,
        suggestions: vec![],
    })
}
