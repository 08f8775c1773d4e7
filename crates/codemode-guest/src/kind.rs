//! Error and diagnostic kinds (declared once), source locations, guest errors.

use serde::{Deserialize, Serialize};

/// Declares [`ErrorKind`] and [`DiagnosticKind`] from one list: every error kind is a
/// diagnostic kind; the warning-only kinds are diagnostic kinds only.
macro_rules! kinds {
    (
        errors { $($(#[$em:meta])* $e:ident,)* }
        warnings { $($(#[$wm:meta])* $w:ident,)* }
    ) => {
        /// The kind of a [`GuestError`]: why a program failed, or why a host call failed.
        /// Every one is also a [`DiagnosticKind`] of the same name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorKind {
            $($(#[$em])* $e,)*
        }

        /// The kind of a diagnostic in a result: every [`ErrorKind`], plus the warning-only
        /// kinds. Serialized as its name (`"ToolFailure"`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum DiagnosticKind {
            $($(#[$em])* $e,)*
            $($(#[$wm])* $w,)*
        }

        impl From<ErrorKind> for DiagnosticKind {
            fn from(kind: ErrorKind) -> Self {
                match kind {
                    $(ErrorKind::$e => DiagnosticKind::$e,)*
                }
            }
        }

        impl DiagnosticKind {
            /// The name, as serialized (`"ToolFailure"`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $(DiagnosticKind::$e => stringify!($e),)*
                    $(DiagnosticKind::$w => stringify!($w),)*
                }
            }

            /// The error kind of the same name (`None` for the warning-only kinds).
            pub fn to_error(self) -> Option<ErrorKind> {
                match self {
                    $(DiagnosticKind::$e => Some(ErrorKind::$e),)*
                    $(DiagnosticKind::$w => None,)*
                }
            }
        }
    };
}

kinds! {
    errors {
        /// The source cannot be parsed (also: an empty program, source or nesting too large).
        ParseError,
        /// A syntax construct outside the language's supported subset.
        UnsupportedSyntax,
        /// A call named a tool path that does not exist.
        UnknownTool,
        /// Tool input rejected (schema, argument count).
        InvalidToolInput,
        /// Tool output rejected (schema, data rules).
        InvalidToolOutput,
        /// A value that cannot cross the data boundary (cyclic, mixed keys, sparse, a function,
        /// invalid UTF-8, too large).
        InvalidDataValue,
        /// `max_tool_calls` exhausted. Never catchable.
        ToolCallLimitExceeded,
        /// The deadline passed. Never catchable.
        TimeoutExceeded,
        /// A tool failed, was denied, or is unavailable.
        ToolFailure,
        /// A runtime error in the program (a thrown error, a type error, an exhausted bound).
        ExecutionFailure,
    }
    warnings {
        /// The result was cut to `max_output_bytes`.
        Truncated,
        /// The program ended without `return`, so the value is null.
        NoReturn,
        /// A construct that ran but likely not as meant (`t.length`, which Lua reads as nil).
        LikelyMistake,
        /// A tool source the host could not start (an MCP server): its tools were unavailable.
        ServerUnavailable,
    }
}

impl std::fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(DiagnosticKind::from(*self).as_str())
    }
}

/// A 1-based position in the submitted source (`column` counts bytes within the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    /// Line, from 1.
    pub line: u32,
    /// Column in bytes within the line, from 1.
    pub column: u32,
}

/// An error that ends a run (or, before a guest's `pcall`/`catch` takes it, travels through it).
#[derive(Clone, Debug, PartialEq)]
pub struct GuestError {
    /// What kind of failure (the host reports it as the diagnostic's kind).
    pub kind: ErrorKind,
    /// Model-facing text: what went wrong and what to do instead. Does not repeat the location.
    pub message: String,
    /// Where in the source, when known.
    pub location: Option<Location>,
    /// "Did you mean" candidates or next steps (for UnknownTool: `tools.orders.lookup`).
    pub suggestions: Vec<String>,
}

impl GuestError {
    /// An error without location or suggestions.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        GuestError {
            kind,
            message: message.into(),
            location: None,
            suggestions: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_kind_is_the_diagnostic_kind_of_the_same_name() {
        let all = [
            ErrorKind::ParseError,
            ErrorKind::UnsupportedSyntax,
            ErrorKind::UnknownTool,
            ErrorKind::InvalidToolInput,
            ErrorKind::InvalidToolOutput,
            ErrorKind::InvalidDataValue,
            ErrorKind::ToolCallLimitExceeded,
            ErrorKind::TimeoutExceeded,
            ErrorKind::ToolFailure,
            ErrorKind::ExecutionFailure,
        ];
        for k in all {
            let d = DiagnosticKind::from(k);
            assert_eq!(d.to_error(), Some(k));
            assert_eq!(format!("{k:?}"), d.as_str());
            assert_eq!(
                serde_json::to_value(k).unwrap(),
                serde_json::to_value(d).unwrap()
            );
        }
        assert_eq!(DiagnosticKind::NoReturn.to_error(), None);
        assert_eq!(DiagnosticKind::Truncated.as_str(), "Truncated");
    }
}
