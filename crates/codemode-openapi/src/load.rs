//! Loading a spec: JSON or YAML bytes → [`Document`], with the size, depth and YAML budgets of
//! `limits.rs`, duplicate keys refused, and the OpenAPI version checked (3.0, 3.1, 3.2; Swagger
//! 2.0 refused with a message saying to convert it).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::limits::{
    MAX_DOCUMENT_DEPTH, MAX_SPEC_BYTES, MAX_YAML_ALIASES, MAX_YAML_EVENTS, MAX_YAML_NODES,
};

/// The syntax of a spec's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON (RFC 8259).
    Json,
    /// YAML 1.2 (`yes`/`on` are strings; only `true`/`false` are booleans).
    Yaml,
    /// JSON when the first non-blank byte is `{`, else YAML.
    Auto,
}

impl Format {
    /// The format a file name suggests: `.json` → JSON, `.yaml`/`.yml` → YAML, else [`Format::Auto`].
    pub fn from_path(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("json") => Format::Json,
            Some(e) if e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml") => {
                Format::Yaml
            }
            _ => Format::Auto,
        }
    }
}

/// The OpenAPI version of a [`Document`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// `openapi: 3.0.x`: schemas are the 3.0 dialect (`nullable`, boolean `exclusiveMaximum`).
    V3_0,
    /// `openapi: 3.1.x`: schemas are JSON Schema 2020-12.
    V3_1,
    /// `openapi: 3.2.x`: as 3.1, plus the `query` method and `additionalOperations`.
    V3_2,
}

/// A loaded OpenAPI 3 document: the JSON tree and its version.
#[derive(Clone, Debug)]
pub struct Document {
    root: Value,
    version: Version,
}

/// Why a document could not be loaded. The message says what is wrong and what to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct LoadError(pub String);

/// Load a spec from bytes. Errors: larger than [`MAX_SPEC_BYTES`], not UTF-8, a syntax error
/// (with line and column), nesting deeper than [`MAX_DOCUMENT_DEPTH`], a YAML budget breached
/// (billion laughs), a duplicate key, or not an OpenAPI 3.0/3.1/3.2 document.
pub fn load(bytes: &[u8], format: Format) -> Result<Document, LoadError> {
    if bytes.len() > MAX_SPEC_BYTES {
        return Err(LoadError(format!(
            "the spec is {} bytes, more than the {} MiB accepted",
            bytes.len(),
            MAX_SPEC_BYTES / (1024 * 1024)
        )));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| LoadError(format!("the spec is not UTF-8 text: {e}")))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let format = match format {
        Format::Auto if text.trim_start().starts_with('{') => Format::Json,
        Format::Auto => Format::Yaml,
        f => f,
    };
    let value = match format {
        Format::Json => {
            let mut de = serde_json::Deserializer::from_str(text);
            let v = Strict::deserialize(&mut de)
                .and_then(|v| de.end().map(|()| v))
                .map_err(|e| LoadError(format!("the spec is not valid JSON: {e}")))?;
            v.0
        }
        _ => {
            let mut budget = serde_saphyr::Budget::default();
            budget.max_depth = MAX_DOCUMENT_DEPTH;
            budget.max_nodes = MAX_YAML_NODES;
            budget.max_events = MAX_YAML_EVENTS;
            budget.max_aliases = MAX_YAML_ALIASES;
            let mut options = serde_saphyr::Options::default();
            options.budget = Some(budget);
            options.strict_booleans = true;
            let v: Strict = serde_saphyr::from_str_with_options(text, options)
                .map_err(|e| LoadError(format!("the spec is not valid YAML: {e}")))?;
            v.0
        }
    };
    Document::from_value(value)
}

impl Document {
    /// A document from an already-parsed JSON tree. Errors: deeper than [`MAX_DOCUMENT_DEPTH`],
    /// not an object, a Swagger 2.0 document, no `openapi` version 3.0/3.1/3.2, or `paths`
    /// (when present) not an object.
    pub fn from_value(root: Value) -> Result<Document, LoadError> {
        if depth_exceeds(&root, MAX_DOCUMENT_DEPTH) {
            return Err(LoadError(format!(
                "the spec nests deeper than {MAX_DOCUMENT_DEPTH} levels"
            )));
        }
        let Some(obj) = root.as_object() else {
            return Err(LoadError(
                "the spec is not an object; an OpenAPI document is an object with an `openapi` version and `paths`".into(),
            ));
        };
        if obj.contains_key("swagger") {
            return Err(LoadError(
                "this is a Swagger 2.0 document; convert it to OpenAPI 3 first (for example with `npx swagger2openapi spec.json -o spec3.json`) and load that".into(),
            ));
        }
        let version = match obj.get("openapi") {
            Some(Value::String(s)) if s.starts_with("3.0") => Version::V3_0,
            Some(Value::String(s)) if s.starts_with("3.1") => Version::V3_1,
            Some(Value::String(s)) if s.starts_with("3.2") => Version::V3_2,
            Some(Value::String(s)) => {
                return Err(LoadError(format!(
                    "unsupported OpenAPI version '{s}'; versions 3.0, 3.1 and 3.2 are supported"
                )));
            }
            Some(_) => {
                return Err(LoadError(
                    "the `openapi` field is not a string; write it as \"3.1.0\"".into(),
                ));
            }
            None => {
                return Err(LoadError(
                    "the spec has no `openapi` field; is it an OpenAPI 3 document?".into(),
                ));
            }
        };
        if let Some(p) = obj.get("paths")
            && !p.is_object()
        {
            return Err(LoadError(
                "`paths` is not an object; it maps each path (\"/users/{id}\") to its operations"
                    .into(),
            ));
        }
        Ok(Document { root, version })
    }

    /// The JSON tree.
    pub fn root(&self) -> &Value {
        &self.root
    }

    /// The OpenAPI version.
    pub fn version(&self) -> Version {
        self.version
    }
}

/// `true` when `v` nests deeper than `limit` (iterative).
pub(crate) fn depth_exceeds(v: &Value, limit: usize) -> bool {
    let mut stack = vec![(v, 1usize)];
    while let Some((v, d)) = stack.pop() {
        if d > limit {
            return true;
        }
        match v {
            Value::Object(m) => stack.extend(m.values().map(|c| (c, d + 1))),
            Value::Array(a) => stack.extend(a.iter().map(|c| (c, d + 1))),
            _ => {}
        }
    }
    false
}

/// A JSON value deserialized with duplicate keys refused (serde_json keeps the last silently).
/// The nesting is bounded by the deserializer's own recursion limit or budget.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number that is not finite (NaN or infinity)"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Strict::deserialize(d).map(|s| s.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            let Strict(v) = map.next_value()?;
            if out.contains_key(&k) {
                return Err(de::Error::custom(format!("duplicate key '{k}'")));
            }
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str, f: Format) -> String {
        load(text.as_bytes(), f).unwrap_err().0
    }

    #[test]
    fn json_and_yaml_give_the_same_tree() {
        let j = r#"{"openapi":"3.1.0","paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}},"x":"yes"}"#;
        let y = "openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses:\n        200:\n          description: ok\nx: yes\n";
        let a = load(j.as_bytes(), Format::Auto).unwrap();
        let b = load(y.as_bytes(), Format::Auto).unwrap();
        assert_eq!(a.root(), b.root());
        assert_eq!(b.version(), Version::V3_1);
        // YAML 1.2: `yes` stays a string, `200` is a string key.
        assert_eq!(b.root()["x"], "yes");
    }

    #[test]
    fn versions() {
        for (v, want) in [
            ("3.0.3", Version::V3_0),
            ("3.1.1", Version::V3_1),
            ("3.2.0", Version::V3_2),
        ] {
            let d = load(format!(r#"{{"openapi":"{v}"}}"#).as_bytes(), Format::Json).unwrap();
            assert_eq!(d.version(), want);
        }
        assert_eq!(
            err(r#"{"swagger":"2.0","paths":{}}"#, Format::Json),
            "this is a Swagger 2.0 document; convert it to OpenAPI 3 first (for example with `npx swagger2openapi spec.json -o spec3.json`) and load that"
        );
        assert_eq!(
            err(r#"{"openapi":"4.0"}"#, Format::Json),
            "unsupported OpenAPI version '4.0'; versions 3.0, 3.1 and 3.2 are supported"
        );
        assert!(err("[1]", Format::Json).starts_with("the spec is not an object"));
        assert!(
            err(r#"{"openapi":"3.0.0","paths":[]}"#, Format::Json)
                .starts_with("`paths` is not an object")
        );
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let e = err(r#"{"openapi":"3.0.0","openapi":"3.1.0"}"#, Format::Json);
        assert!(e.contains("duplicate key 'openapi'"), "{e}");
        let e = err("openapi: 3.0.0\nopenapi: 3.1.0\n", Format::Yaml);
        assert!(e.starts_with("the spec is not valid YAML"), "{e}");
    }

    #[test]
    fn non_string_keys() {
        // A scalar key is its text (`200:` is the response key "200"); a sequence or mapping
        // used as a key is a document error, not a panic.
        let d = load(b"openapi: 3.1.0\nx:\n  1: a\n  true: b\n", Format::Yaml).unwrap();
        assert_eq!(d.root()["x"], serde_json::json!({"1": "a", "true": "b"}));
        for y in [
            "openapi: 3.1.0\nx:\n  ? [a, b]\n  : c\n",
            "openapi: 3.1.0\nx: {{a: 1}: 2}\n",
        ] {
            let e = err(y, Format::Yaml);
            assert!(e.starts_with("the spec is not valid YAML"), "{e}");
        }
    }

    #[test]
    fn depth_is_capped() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let doc = |n: usize| format!(r#"{{"openapi":"3.0.0","x":{}}}"#, deep(n));
        // serde_json stops at its 128th nested container (the document's object is one).
        assert!(load(doc(MAX_DOCUMENT_DEPTH - 2).as_bytes(), Format::Json).is_ok());
        let e = err(&doc(MAX_DOCUMENT_DEPTH - 1), Format::Json);
        assert!(e.contains("recursion limit"), "{e}");
        let e = err(&doc(20_000), Format::Json);
        assert!(e.contains("recursion limit"), "{e}");
        let e = err(
            &format!("openapi: 3.0.0\nx: {}\n", deep(20_000)),
            Format::Yaml,
        );
        assert!(e.starts_with("the spec is not valid YAML"), "{e}");
        let v: Value = serde_json::from_str(&deep(100)).unwrap();
        let mut nested = v;
        for _ in 0..40 {
            nested = Value::Array(vec![nested]);
        }
        let e = Document::from_value(nested).unwrap_err().0;
        assert_eq!(e, "the spec nests deeper than 128 levels");
    }

    #[test]
    fn billion_laughs_is_stopped() {
        let mut y = String::from("openapi: 3.0.0\na0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..10 {
            let prev = format!("*a{}", i - 1);
            y.push_str(&format!(
                "a{i}: &a{i} [{}]\n",
                [prev.as_str(); 9].join(", ")
            ));
        }
        let e = err(&y, Format::Yaml);
        assert!(e.contains("budget"), "{e}");
    }

    #[test]
    fn size_is_capped() {
        let big = vec![b' '; MAX_SPEC_BYTES + 1];
        assert!(
            err(std::str::from_utf8(&big).unwrap(), Format::Json).contains("more than the 64 MiB")
        );
        assert!(
            load(&[0xff, 0xfe], Format::Json)
                .unwrap_err()
                .0
                .starts_with("the spec is not UTF-8")
        );
    }
}
