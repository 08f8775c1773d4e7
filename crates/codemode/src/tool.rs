//! Host tools: [`Tool`] (description, input/output JSON Schemas, async handler), [`ToolError`]
//! (the one channel for a message the program may see), and the typed constructor
//! [`Tool::typed`] (serde types, schemars-derived schemas).

use std::error::Error as StdError;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::schema::CompiledSchema;

/// The future a tool handler returns.
pub type ToolFuture = BoxFuture<'static, Result<Value, ToolError>>;

/// A type-erased tool handler: takes the (schema-checked) input, returns the output.
pub type ToolHandler = Arc<dyn Fn(Value) -> ToolFuture + Send + Sync>;

/// What kind of failure a [`ToolError`] reports; decides the diagnostic kind the program sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolErrorKind {
    /// The tool failed; its message is shown to the program (`ToolFailure`).
    Failure,
    /// The tool rejected its input; message shown (`InvalidToolInput`).
    InvalidInput,
    /// The tool could not produce a valid output; message shown (`InvalidToolOutput`).
    InvalidOutput,
    /// An internal error whose text must not reach the program; the program sees only
    /// `"Tool '<path>' failed."` (`ToolFailure`). The error stays available as [`StdError::source`].
    Internal,
}

/// An error returned by a tool handler.
///
/// [`ToolError::new`] is the one channel for a message the program may see. Any other error
/// (see [`Tool::fallible`], [`ToolError::internal`]) reaches the program only as the short, safe
/// message `"Tool '<path>' failed."`.
#[derive(Clone)]
pub struct ToolError {
    kind: ToolErrorKind,
    message: String,
    source: Option<Arc<dyn StdError + Send + Sync>>,
}

impl ToolError {
    /// A tool failure whose `message` the program sees (a program that catches the error gets it; uncaught it becomes
    /// a `ToolFailure` diagnostic with exactly this message). Say what went wrong and what to do.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            kind: ToolErrorKind::Failure,
            message: message.into(),
            source: None,
        }
    }

    /// The tool rejects its input (diagnostic kind `InvalidToolInput`); `message` is shown.
    pub fn invalid_input(message: impl Into<String>) -> Self {
        ToolError {
            kind: ToolErrorKind::InvalidInput,
            message: message.into(),
            source: None,
        }
    }

    /// The tool's output is invalid (diagnostic kind `InvalidToolOutput`); `message` is shown.
    pub fn invalid_output(message: impl Into<String>) -> Self {
        ToolError {
            kind: ToolErrorKind::InvalidOutput,
            message: message.into(),
            source: None,
        }
    }

    /// An internal error: its text is never shown to the program.
    pub fn internal(error: impl Into<Box<dyn StdError + Send + Sync>>) -> Self {
        let boxed: Box<dyn StdError + Send + Sync> = error.into();
        ToolError {
            kind: ToolErrorKind::Internal,
            message: String::new(),
            source: Some(Arc::from(boxed)),
        }
    }

    /// Convert any handler error: a [`ToolError`] stays as it is; anything else becomes
    /// [`ToolError::internal`].
    pub fn from_boxed(error: Box<dyn StdError + Send + Sync>) -> Self {
        match error.downcast::<ToolError>() {
            Ok(e) => *e,
            Err(other) => ToolError {
                kind: ToolErrorKind::Internal,
                message: String::new(),
                source: Some(Arc::from(other)),
            },
        }
    }

    /// The kind of failure.
    pub fn kind(&self) -> ToolErrorKind {
        self.kind
    }

    /// The program-visible message (empty for [`ToolErrorKind::Internal`]).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Debug for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolError")
            .field("kind", &self.kind)
            .field("message", &self.message)
            .field("source", &self.source.as_ref().map(|s| s.to_string()))
            .finish()
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ToolErrorKind::Internal => match &self.source {
                Some(s) => write!(f, "internal tool error: {s}"),
                None => f.write_str("internal tool error"),
            },
            _ => f.write_str(&self.message),
        }
    }
}

impl StdError for ToolError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_ref()
            .map(|s| s.as_ref() as &(dyn StdError + 'static))
    }
}

/// A host tool the program calls as `tools.<path>(input)`.
///
/// Cheap to clone (the handler is shared).
#[derive(Clone)]
pub struct Tool {
    description: String,
    input_schema: Value,
    output_schema: Option<Value>,
    /// `input_schema` compiled already ([`Tool::with_compiled_input_schema`]).
    compiled_input: Option<Box<CompiledSchema>>,
    /// `output_schema` compiled already ([`Tool::with_compiled_output_schema`]).
    compiled_output: Option<Box<CompiledSchema>>,
    handler: ToolHandler,
}

impl fmt::Debug for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tool")
            .field("description", &self.description)
            .field("input_schema", &self.input_schema)
            .field("output_schema", &self.output_schema)
            .finish_non_exhaustive()
    }
}

impl Tool {
    /// A tool from a description, an input JSON Schema and an async handler.
    ///
    /// The input is validated against `input_schema` before the handler runs (a failure is an
    /// `InvalidToolInput` diagnostic naming the path and rule). Before that, integral floats at
    /// places the schema types `"integer"` become JSON integers (Lua's `20 / 10` is `2.0`; the
    /// handler gets `2`; see [`crate::schema::CompiledSchema::coerce_integers`]). A call without
    /// arguments sends `{}`.
    ///
    /// ```
    /// use codemode::{Tool, ToolError};
    /// use serde_json::json;
    /// let tool = Tool::new(
    ///     "Look up an order by id.",
    ///     json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
    ///     |input| async move {
    ///         let id = input["id"].as_str().unwrap_or_default().to_string();
    ///         if id.is_empty() { return Err(ToolError::new("id must not be empty")); }
    ///         Ok(json!({"id": id, "total": 42}))
    ///     },
    /// );
    /// ```
    pub fn new<F, Fut>(description: impl Into<String>, input_schema: Value, handler: F) -> Tool
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        Tool {
            description: description.into(),
            input_schema,
            output_schema: None,
            compiled_input: None,
            compiled_output: None,
            handler: Arc::new(move |v| handler(v).boxed()),
        }
    }

    /// Like [`Tool::new`], but the handler may fail with any error convertible to
    /// `Box<dyn Error + Send + Sync>` (e.g. `anyhow::Error`, `std::io::Error`), so `?` works.
    /// A [`ToolError`] keeps its message; any other error reaches the program only as
    /// `"Tool '<path>' failed."` (its text is never shown).
    pub fn fallible<F, Fut, E>(
        description: impl Into<String>,
        input_schema: Value,
        handler: F,
    ) -> Tool
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, E>> + Send + 'static,
        E: Into<Box<dyn StdError + Send + Sync>> + 'static,
    {
        let handler = Arc::new(handler);
        Tool::new(description, input_schema, move |v| {
            let fut = handler(v);
            async move { fut.await.map_err(|e| ToolError::from_boxed(e.into())) }
        })
    }

    /// A tool over serde types. The input schema is derived from `I` and the output schema from
    /// `O` (schemars, draft 2020-12). The input is deserialized into `I` before the handler runs
    /// (failure: `InvalidToolInput`), so integer fields (`i64`, `u32`, ...) get integers: a
    /// program's `2.0` arrives as `2`, and `2.5` fails validation first; the output is serialized (failure: `InvalidToolOutput`) and
    /// checked against `O`'s schema by the runtime (failure: `InvalidToolOutput`).
    ///
    /// ```
    /// use codemode::{Tool, ToolError};
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Lookup { id: String }
    /// #[derive(serde::Serialize, schemars::JsonSchema)]
    /// struct Order { id: String, total: u32 }
    /// let tool = Tool::typed("Look up an order.", |input: Lookup| async move {
    ///     Ok::<_, ToolError>(Order { id: input.id, total: 42 })
    /// });
    /// ```
    pub fn typed<I, O, F, Fut>(description: impl Into<String>, handler: F) -> Tool
    where
        I: DeserializeOwned + JsonSchema + Send + 'static,
        O: Serialize + JsonSchema + Send + 'static,
        F: Fn(I) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, ToolError>> + Send + 'static,
    {
        let input_schema: Value = schemars::schema_for!(I).into();
        let output_schema: Value = schemars::schema_for!(O).into();
        let handler = Arc::new(handler);
        Tool::new(description, input_schema, move |v: Value| -> ToolFuture {
            let input: I = match serde_json::from_value(v) {
                Ok(i) => i,
                Err(e) => {
                    return futures::future::ready(Err(ToolError::invalid_input(e.to_string())))
                        .boxed();
                }
            };
            let fut = handler(input);
            async move {
                let out = fut.await?;
                serde_json::to_value(out).map_err(|e| {
                    ToolError::invalid_output(format!("the output cannot be serialized: {e}"))
                })
            }
            .boxed()
        })
        .with_output_schema(output_schema)
    }

    /// Declare an output JSON Schema: every output is checked against it (failure:
    /// `InvalidToolOutput`). Search shows it in the tool's signature.
    pub fn with_output_schema(mut self, schema: Value) -> Tool {
        self.output_schema = Some(schema);
        self.compiled_output = None;
        self
    }

    /// Replace the input schema by one compiled already ([`CompiledSchema::compile`]): the
    /// runtime uses it as it is instead of compiling the schema again when it is built. For
    /// generators that check each schema while they make tools (codemode-openapi compiles each
    /// operation's schemas once this way: GitHub's 1,221 large schemas took as long to compile
    /// again as to generate).
    pub fn with_compiled_input_schema(mut self, schema: CompiledSchema) -> Tool {
        self.input_schema = schema.schema().clone();
        self.compiled_input = Some(Box::new(schema));
        self
    }

    /// Like [`Tool::with_output_schema`] with a schema compiled already (see
    /// [`Tool::with_compiled_input_schema`]).
    pub fn with_compiled_output_schema(mut self, schema: CompiledSchema) -> Tool {
        self.output_schema = Some(schema.schema().clone());
        self.compiled_output = Some(Box::new(schema));
        self
    }

    /// The tool without its compiled schemas, and those schemas (for the runtime's build).
    pub(crate) fn take_compiled(
        mut self,
    ) -> (Tool, Option<CompiledSchema>, Option<CompiledSchema>) {
        let input = self.compiled_input.take().map(|b| *b);
        let output = self.compiled_output.take().map(|b| *b);
        (self, input, output)
    }

    /// The description shown by `search`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The input JSON Schema.
    pub fn input_schema(&self) -> &Value {
        &self.input_schema
    }

    /// The output JSON Schema, when declared.
    pub fn output_schema(&self) -> Option<&Value> {
        self.output_schema.as_ref()
    }

    /// Run the handler directly (no schema checks; the runtime does those).
    pub fn call(&self, input: Value) -> ToolFuture {
        (self.handler)(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn from_boxed_keeps_tool_errors_and_hides_others() {
        let e = ToolError::from_boxed(Box::new(ToolError::new("visible")));
        assert_eq!(e.kind(), ToolErrorKind::Failure);
        assert_eq!(e.message(), "visible");
        let io = std::io::Error::other("secret path /etc/x");
        let e = ToolError::from_boxed(Box::new(io));
        assert_eq!(e.kind(), ToolErrorKind::Internal);
        assert_eq!(e.message(), "");
        assert!(e.source().unwrap().to_string().contains("secret"));
    }

    #[tokio::test]
    async fn fallible_tool_maps_errors() {
        let t = Tool::fallible("d", json!({}), |v: Value| async move {
            if v["fail"] == json!(true) {
                Err(std::io::Error::other("disk on fire"))
            } else {
                Ok(json!(1))
            }
        });
        assert_eq!(t.call(json!({})).await.unwrap(), json!(1));
        let e = t.call(json!({"fail": true})).await.unwrap_err();
        assert_eq!(e.kind(), ToolErrorKind::Internal);
        assert_eq!(e.message(), "");
    }
}
