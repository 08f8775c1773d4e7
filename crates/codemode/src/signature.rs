//! Model-facing signatures of tools, rendered from their JSON Schemas (issue 4 "Signatures";
//! behaviour reference: seed-inventory §5).
//!
//! A schema is first read into a small type tree (never panicking, bounded by [`MAX_DEPTH`] and
//! [`MAX_RENDER_NODES`]), then printed in the notation of a language ([`Language`]; each
//! guest crate gives its own as a [`codemode_guest::Notation`]; JavaScript's is
//! [`codemode_guest::TypeScript`]) and one of two [`Style`]s. What the notation decides: the signature's shape
//! (`tools.orders.lookup(input: { id: string }): Promise<T>`), the names of primitive types and
//! of JSON null, how arrays, tuples, unions, map keys and keys that are not identifiers are
//! written, field documentation comments (pretty style), and whether a JSON null in a result's
//! object field arrives absent (then such a field is shown optional, without the null member).
//! A language whose guest crate is not compiled in renders in the TypeScript notation.
//!
//! Schema rules: `required` decides `?`; `enum`/`const` → literal unions; `anyOf`/`oneOf` →
//! unions (a branch that is not representable makes the whole union `unknown`, which is then
//! dropped if the node has other type information); `allOf` → objects merged into one object
//! when every part is an object, else an intersection; `type` lists and OpenAPI 3.0
//! `nullable: true` → unions with null; local `$ref` (any JSON pointer into the document, e.g.
//! `#/$defs/X`, `#/definitions/X`, `#/components/schemas/X`; a `#/$defs/X` missing at the root
//! is also looked up in the `$defs`/`definitions` of enclosing schemas) with a cycle guard
//! (a reference already being expanded renders `unknown`); a schema nested deeper than
//! [`MAX_DEPTH`] renders `unknown`; anything without type information (`{}`, `true`,
//! `{"type": 5}`, remote refs) renders `unknown`; `not` is ignored, except Effect's empty-struct
//! marker `{"not": {"type": "null"}}` (with only annotations beside it), which is `{}`. Rendering
//! never panics and never invents a type; [`unknown_causes`] says why a part is `unknown`.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use codemode_guest::{Notation, Primitive};

use crate::guests::notation;
use crate::namespace::ToolEntry;
use crate::runtime::Language;

/// Deepest nesting rendered: objects, arrays, tuples and unions each add a level (following a
/// `$ref` does not; reference chains are bounded by the cycle guard). Parts nested deeper render
/// `unknown`.
pub const MAX_DEPTH: usize = 8;

/// Longest chain of `$ref`s followed inside one another (`A` → `B` → `C` ...); a reference
/// past it renders `unknown` ([`UnknownCause::Depth`]).
pub const MAX_REF_CHAIN: usize = 32;

/// Most schema nodes read for one rendering (guards against reference fan-out such as a
/// definition used 100 times by a definition used 100 times ...). Nodes past it render `unknown`.
pub const MAX_RENDER_NODES: usize = 5_000;

/// In [`Style::Pretty`], an object without field docs stays on one line when its one-line form
/// has at most this many characters.
pub const INLINE_OBJECT_CHARS: usize = 60;

/// How a signature is laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// One line, no comments: `tools.a.b({ id: string, limit?: integer }) -> unknown`.
    Compact,
    /// Multi-line objects with field documentation (descriptions and constraint tags) as
    /// comments; small undocumented objects stay on one line.
    #[default]
    Pretty,
}

// ---------------------------------------------------------------------------------------------
// Tool expressions

/// `true` when `s` can be written after a `.` in `language` (an identifier of the language
/// that is not a reserved word).
pub fn is_identifier(s: &str, language: Language) -> bool {
    notation(language).is_identifier(s)
}

/// A string literal for `s` in `language`.
pub fn quote(s: &str, language: Language) -> String {
    notation(language).quote(s)
}

/// The call expression of a canonical tool path in `language`: `tools.orders.lookup`,
/// `tools.context7["resolve-library-id"]`; a segment that is not an identifier of the language
/// (see [`is_identifier`]; reserved words such as `end` in Lua) is written as an index with a
/// quoted key, `["seg"]`.
pub fn tool_expression(path: &str, language: Language) -> String {
    notation(language).tool_expression(path)
}

// ---------------------------------------------------------------------------------------------
// Public rendering API

/// The full signature of a tool: expression, input and output types.
///
/// - Lua: `tools.orders.lookup({ id: string, limit?: integer }) -> { id: string }`
/// - TypeScript: `tools.orders.lookup(input: { id: string; limit?: number }): Promise<{ id: string }>`
///
/// The input renders `()` when it is empty ([`is_empty_input`]); a missing output schema renders
/// `unknown`. Never panics; unrepresentable parts render `unknown`.
pub fn signature(
    path: &str,
    input: &Value,
    output: Option<&Value>,
    language: Language,
    style: Style,
) -> String {
    signature_in(notation(language), path, input, output, style)
}

/// [`signature`] in the notation `n`.
pub(crate) fn signature_in(
    n: &dyn Notation,
    path: &str,
    input: &Value,
    output: Option<&Value>,
    style: Style,
) -> String {
    let printer = Printer::new(n, style);
    let input = (!is_empty_input(input)).then(|| {
        let mut out = String::new();
        printer.print(&read_type(input, n), 0, &mut out);
        out
    });
    let out_ty = match output {
        Some(s) => received(read_type(s, n), n),
        None => Ty::Unknown,
    };
    let mut output = String::new();
    printer.print(&out_ty, 0, &mut output);
    n.signature(&n.tool_expression(path), input.as_deref(), &output)
}

/// [`signature`] of a registered tool (its canonical path and schemas).
pub fn tool_signature(entry: &ToolEntry, language: Language, style: Style) -> String {
    tool_signature_in(entry, notation(language), style)
}

/// [`tool_signature`] in the notation `n`.
pub(crate) fn tool_signature_in(entry: &ToolEntry, n: &dyn Notation, style: Style) -> String {
    signature_in(
        n,
        &entry.path,
        entry.tool.input_schema(),
        entry.tool.output_schema(),
        style,
    )
}

/// The type a JSON Schema describes, in `language` notation (no tool expression).
///
/// ```
/// use codemode::Language;
/// use codemode::signature::{Style, render_type};
/// use serde_json::json;
/// let s = json!({"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer"}},
///                "required": ["id"]});
/// assert_eq!(render_type(&s, Language::Lua, Style::Compact), "{ id: string, n?: integer }");
/// assert_eq!(render_type(&s, Language::JavaScript, Style::Compact), "{ id: string; n?: number }");
/// ```
pub fn render_type(schema: &Value, language: Language, style: Style) -> String {
    let n = notation(language);
    let ty = read_type(schema, n);
    let mut out = String::new();
    Printer::new(n, style).print(&ty, 0, &mut out);
    out
}

/// The type of a value a tool returns, as the program receives it (used for the output part of
/// [`signature`]). Where the notation says a JSON null in an object field arrives as an absent
/// field ([`Notation::null_field_arrives_absent`]; Lua: nil), a field that may be null is
/// written optional without the null member (`{"type": ["integer", "null"]}` → `next?: integer`;
/// also for `anyOf`/`oneOf` with a null branch and `nullable: true`; a field that is only null
/// renders `x?: nil`), map values drop null the same way, a null result arrives absent
/// (`{ a: string }|nil`), and nulls inside arrays and tuples still arrive as the null value
/// (`(integer|json.null)[]`). Otherwise (TypeScript) the same as [`render_type`].
///
/// ```
/// use codemode::Language;
/// use codemode::signature::{Style, render_output_type};
/// use serde_json::json;
/// let s = json!({"type": "object", "properties": {"next": {"type": ["integer", "null"]}},
///                "required": ["next"]});
/// assert_eq!(render_output_type(&s, Language::Lua, Style::Compact), "{ next?: integer }");
/// ```
pub fn render_output_type(schema: &Value, language: Language, style: Style) -> String {
    let n = notation(language);
    let ty = received(read_type(schema, n), n);
    let mut out = String::new();
    Printer::new(n, style).print(&ty, 0, &mut out);
    out
}

/// `true` when a tool takes no input worth showing: no schema content (`{}`, `true`), or an
/// object with no properties and no map values (`{"type": "object"}`,
/// `{"type": "object", "properties": {}}`). Such tools render `()` and may be called with no
/// argument.
pub fn is_empty_input(schema: &Value) -> bool {
    match schema {
        Value::Bool(true) => true,
        Value::Object(o) if o.is_empty() => true,
        Value::Object(_) => matches!(
            Reader::new(schema, false).read(schema, 0),
            Ty::Object(o) if o.fields.is_empty() && o.rest.is_none()
        ),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Type tree

#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Unknown,
    Prim(Primitive),
    Lit(Value),
    Array(Box<Ty>),
    Tuple(Vec<Ty>, Option<Box<Ty>>),
    Object(Obj),
    Union(Vec<Ty>),
    Inter(Vec<Ty>),
}

#[derive(Clone, Debug, PartialEq, Default)]
struct Obj {
    fields: Vec<Field>,
    /// Type of additional values (`additionalProperties` schema or `true`), if shown.
    rest: Option<Box<Ty>>,
}

#[derive(Clone, Debug, PartialEq)]
struct Field {
    key: String,
    optional: bool,
    ty: Ty,
    /// Documentation lines (description + constraint tags); empty when none.
    doc: Vec<String>,
}

impl Obj {
    fn has_docs(&self) -> bool {
        self.fields
            .iter()
            .any(|f| !f.doc.is_empty() || f.ty.has_docs())
            || self.rest.as_ref().is_some_and(|r| r.has_docs())
    }
}

impl Ty {
    fn has_docs(&self) -> bool {
        match self {
            Ty::Object(o) => o.has_docs(),
            Ty::Array(t) => t.has_docs(),
            Ty::Tuple(ts, rest) => {
                ts.iter().any(Ty::has_docs) || rest.as_ref().is_some_and(|r| r.has_docs())
            }
            Ty::Union(ts) | Ty::Inter(ts) => ts.iter().any(Ty::has_docs),
            _ => false,
        }
    }
}

/// Union of members: `Unknown` if any member is unknown; nested unions flattened; duplicates
/// removed; a single member is returned as is.
fn union(members: Vec<Ty>) -> Ty {
    let mut out: Vec<Ty> = Vec::new();
    for m in members {
        match m {
            Ty::Unknown => return Ty::Unknown,
            Ty::Union(inner) => {
                for i in inner {
                    if !out.contains(&i) {
                        out.push(i);
                    }
                }
            }
            m => {
                if !out.contains(&m) {
                    out.push(m);
                }
            }
        }
    }
    match out.len() {
        0 => Ty::Unknown,
        1 => out.pop().unwrap_or(Ty::Unknown),
        _ => Ty::Union(out),
    }
}

/// Intersection of parts: unknown parts dropped; all-object parts merged into one object; an
/// empty object is dropped when other parts exist.
fn intersect(parts: Vec<Ty>) -> Ty {
    let mut parts: Vec<Ty> = parts.into_iter().filter(|p| *p != Ty::Unknown).collect();
    if parts.len() > 1 {
        parts.retain(|p| !matches!(p, Ty::Object(o) if o.fields.is_empty() && o.rest.is_none()));
        if parts.is_empty() {
            return Ty::Object(Obj::default());
        }
    }
    if parts.len() > 1 && parts.iter().all(|p| matches!(p, Ty::Object(_))) {
        let mut merged = Obj::default();
        for p in parts {
            let Ty::Object(o) = p else { continue };
            for f in o.fields {
                if let Some(existing) = merged.fields.iter_mut().find(|e| e.key == f.key) {
                    existing.optional &= f.optional;
                    if existing.doc.is_empty() {
                        existing.doc = f.doc;
                    }
                } else {
                    merged.fields.push(f);
                }
            }
            if merged.rest.is_none() {
                merged.rest = o.rest;
            }
        }
        return Ty::Object(merged);
    }
    let mut flat = Vec::new();
    for p in parts {
        match p {
            Ty::Inter(inner) => flat.extend(inner),
            p => {
                if !flat.contains(&p) {
                    flat.push(p)
                }
            }
        }
    }
    match flat.len() {
        0 => Ty::Unknown,
        1 => flat.pop().unwrap_or(Ty::Unknown),
        _ => Ty::Inter(flat),
    }
}

/// Why part of a schema rendered `unknown` (see [`unknown_causes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownCause {
    /// Nested deeper than [`MAX_DEPTH`], or a reference chain longer than [`MAX_REF_CHAIN`].
    Depth,
    /// More than [`MAX_RENDER_NODES`] schema nodes.
    Budget,
    /// A reference to a schema that is already being expanded (recursive type).
    Cycle(String),
    /// A `$ref` that is not a local JSON pointer or points nowhere.
    UnresolvedRef(String),
    /// The schema allows any value: `true`, `{}`, only annotations, an array without `items`,
    /// `additionalProperties: true` without properties. `unknown` is the exact type here.
    Any,
    /// The schema is malformed (e.g. `{"type": 5}`, a schema that is a number).
    Invalid(String),
    /// A valid construct the notation does not express (e.g. an `enum` of objects, `false`).
    Unsupported(String),
}

/// The most causes [`unknown_causes`] reports.
pub const MAX_UNKNOWN_CAUSES: usize = 100;

/// Why parts of `schema` render `unknown`: one entry per place (at most
/// [`MAX_UNKNOWN_CAUSES`]; [`UnknownCause::Depth`] and [`UnknownCause::Budget`] at most once). Empty when nothing in the schema is unknown. A place can be listed
/// although it does not show in the final text (an unknown union branch next to a `type` is
/// dropped). Meant for tests and host diagnostics.
pub fn unknown_causes(schema: &Value) -> Vec<UnknownCause> {
    let mut r = Reader::new(schema, false);
    r.read(schema, 0);
    r.causes
}

/// The output type as a program receives it (see [`render_output_type`]); unchanged unless a
/// null field arrives absent in the notation.
fn received(ty: Ty, n: &dyn Notation) -> Ty {
    if !n.null_field_arrives_absent() {
        return ty;
    }
    let ty = received_inner(ty);
    match strip_null(ty) {
        (ty, false) => ty,
        (Ty::Unknown, true) => Ty::Prim(Primitive::Absent),
        (ty, true) => union(vec![ty, Ty::Prim(Primitive::Absent)]),
    }
}

/// Applies the object-field rule of [`received`] to every object in `ty` (the tree is bounded
/// by [`MAX_DEPTH`], so the recursion is too).
fn received_inner(ty: Ty) -> Ty {
    match ty {
        Ty::Object(o) => {
            let fields = o
                .fields
                .into_iter()
                .map(|f| {
                    let (ty, had_null) = strip_null(received_inner(f.ty));
                    let ty = if had_null && ty == Ty::Unknown {
                        Ty::Prim(Primitive::Absent)
                    } else {
                        ty
                    };
                    Field {
                        optional: f.optional || had_null,
                        ty,
                        ..f
                    }
                })
                .collect();
            let rest = o.rest.map(|r| {
                let (ty, had_null) = strip_null(received_inner(*r));
                Box::new(if had_null && ty == Ty::Unknown {
                    Ty::Prim(Primitive::Absent)
                } else {
                    ty
                })
            });
            Ty::Object(Obj { fields, rest })
        }
        Ty::Array(item) => Ty::Array(Box::new(received_inner(*item))),
        Ty::Tuple(items, rest) => Ty::Tuple(
            items.into_iter().map(received_inner).collect(),
            rest.map(|r| Box::new(received_inner(*r))),
        ),
        Ty::Union(ms) => Ty::Union(ms.into_iter().map(received_inner).collect()),
        Ty::Inter(ms) => Ty::Inter(ms.into_iter().map(received_inner).collect()),
        t => t,
    }
}

/// `ty` without its JSON null member, and whether it had one (`Unknown` when `ty` was only null).
fn strip_null(ty: Ty) -> (Ty, bool) {
    match ty {
        Ty::Prim(Primitive::Null) => (Ty::Unknown, true),
        Ty::Union(ms) if ms.contains(&Ty::Prim(Primitive::Null)) => {
            let rest: Vec<Ty> = ms
                .into_iter()
                .filter(|m| *m != Ty::Prim(Primitive::Null))
                .collect();
            (union(rest), true)
        }
        t => (t, false),
    }
}

fn read_type(schema: &Value, n: &dyn Notation) -> Ty {
    Reader::new(schema, n.integer_doc_tag()).read(schema, 0)
}

struct Reader<'a> {
    root: &'a Value,
    /// Enclosing schemas that carry `$defs`/`definitions` (innermost last).
    scopes: Vec<&'a Value>,
    /// References being expanded (cycle guard).
    refs: Vec<&'a str>,
    nodes: usize,
    /// Field docs get an `@integer` tag for integers ([`Notation::integer_doc_tag`]).
    integer_tag: bool,
    causes: Vec<UnknownCause>,
}

impl<'a> Reader<'a> {
    fn new(root: &'a Value, integer_tag: bool) -> Self {
        Reader {
            root,
            scopes: Vec::new(),
            refs: Vec::new(),
            nodes: 0,
            integer_tag,
            causes: Vec::new(),
        }
    }

    fn unknown(&mut self, cause: UnknownCause) -> Ty {
        let repeated = matches!(cause, UnknownCause::Depth | UnknownCause::Budget)
            && self.causes.contains(&cause);
        if !repeated && self.causes.len() < MAX_UNKNOWN_CAUSES {
            self.causes.push(cause);
        }
        Ty::Unknown
    }

    fn read(&mut self, schema: &'a Value, depth: usize) -> Ty {
        if depth > MAX_DEPTH {
            return self.unknown(UnknownCause::Depth);
        }
        if self.nodes >= MAX_RENDER_NODES {
            return self.unknown(UnknownCause::Budget);
        }
        self.nodes += 1;
        let Some(o) = schema.as_object() else {
            return self.unknown(match schema {
                Value::Bool(true) => UnknownCause::Any,
                Value::Bool(false) => UnknownCause::Unsupported("the schema `false`".into()),
                v => UnknownCause::Invalid(format!("a schema must be an object, not {v}")),
            });
        };
        let scoped = o.contains_key("$defs") || o.contains_key("definitions");
        if scoped {
            self.scopes.push(schema);
        }
        let ty = self.read_object(o, depth);
        if scoped {
            self.scopes.pop();
        }
        ty
    }

    fn read_object(&mut self, o: &'a Map<String, Value>, depth: usize) -> Ty {
        // Effect's empty-struct marker: `{ not: { type: "null" } }` with only annotations.
        const ANNOTATIONS: [&str; 8] = [
            "not",
            "title",
            "description",
            "default",
            "examples",
            "readOnly",
            "writeOnly",
            "$schema",
        ];
        if o.get("not") == Some(&serde_json::json!({"type": "null"}))
            && o.keys().all(|k| ANNOTATIONS.contains(&k.as_str()))
        {
            return Ty::Object(Obj::default());
        }
        let mut parts = vec![self.base(o, depth)];
        if let Some(r) = o.get("$ref") {
            parts.push(self.reference(r, depth));
        }
        if let Some(Value::Array(all)) = o.get("allOf") {
            let members: Vec<Ty> = all.iter().map(|s| self.read(s, depth + 1)).collect();
            parts.push(intersect(members));
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(alts)) = o.get(key) {
                let members: Vec<Ty> = alts.iter().map(|s| self.read(s, depth + 1)).collect();
                parts.push(non_finite_number(members, alts));
            }
        }
        let ty = intersect(parts);
        if ty == Ty::Unknown
            && !["$ref", "allOf", "anyOf", "oneOf", "const", "enum", "type"]
                .iter()
                .any(|k| o.contains_key(*k))
        {
            self.unknown(UnknownCause::Any);
        }
        if o.get("nullable") == Some(&Value::Bool(true)) && ty != Ty::Unknown {
            union(vec![ty, Ty::Prim(Primitive::Null)])
        } else {
            ty
        }
    }

    fn reference(&mut self, r: &'a Value, depth: usize) -> Ty {
        let Some(r) = r.as_str() else {
            return self.unknown(UnknownCause::Invalid(format!(
                "$ref must be a string, not {r}"
            )));
        };
        if self.refs.contains(&r) {
            return self.unknown(UnknownCause::Cycle(r.to_string()));
        }
        if self.refs.len() >= MAX_REF_CHAIN {
            return self.unknown(UnknownCause::Depth);
        }
        let Some(target) = self.resolve(r) else {
            return self.unknown(UnknownCause::UnresolvedRef(r.to_string()));
        };
        self.refs.push(r);
        let ty = self.read(target, depth);
        self.refs.pop();
        ty
    }

    fn resolve(&self, r: &str) -> Option<&'a Value> {
        let pointer = r.strip_prefix('#')?;
        if pointer.is_empty() {
            return Some(self.root);
        }
        let decoded = percent_decode(pointer);
        if let Some(v) = self.root.pointer(&decoded) {
            return Some(v);
        }
        // `#/$defs/X` or `#/definitions/X` defined on an enclosing subschema.
        let mut segs = decoded.splitn(3, '/').skip(1);
        let (kind, name) = (segs.next()?, segs.next()?);
        if kind != "$defs" && kind != "definitions" || name.contains('/') {
            return None;
        }
        let name = name.replace("~1", "/").replace("~0", "~");
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(kind).and_then(|d| d.get(&name)))
    }

    /// Type information of the node itself (`const`, `enum`, `type`, implied object/array).
    fn base(&mut self, o: &'a Map<String, Value>, depth: usize) -> Ty {
        if let Some(c) = o.get("const") {
            return self.literal(c);
        }
        if let Some(e) = o.get("enum") {
            let Value::Array(vals) = e else {
                return self.unknown(UnknownCause::Invalid(format!(
                    "enum must be an array, not {e}"
                )));
            };
            if vals.is_empty() {
                return self.unknown(UnknownCause::Unsupported("an empty enum".into()));
            }
            let members = vals.iter().map(|v| self.literal(v)).collect();
            return union(members);
        }
        match o.get("type") {
            Some(Value::String(t)) => self.typed(t, o, depth),
            Some(Value::Array(ts)) => {
                let mut members = Vec::new();
                for t in ts {
                    match t.as_str() {
                        Some(t) => members.push(self.typed(t, o, depth)),
                        None => {
                            return self.unknown(UnknownCause::Invalid(format!(
                                "type names must be strings, not {t}"
                            )));
                        }
                    }
                }
                union(members)
            }
            Some(t) => self.unknown(UnknownCause::Invalid(format!(
                "type must be a string or an array of strings, not {t}"
            ))),
            None => {
                if ["properties", "additionalProperties", "patternProperties"]
                    .iter()
                    .any(|k| o.contains_key(*k))
                {
                    self.object(o, depth)
                } else if o.contains_key("items") || o.contains_key("prefixItems") {
                    self.array(o, depth)
                } else {
                    Ty::Unknown
                }
            }
        }
    }

    fn literal(&mut self, v: &Value) -> Ty {
        match v {
            Value::Null => Ty::Prim(Primitive::Null),
            Value::Bool(_) | Value::Number(_) | Value::String(_) => Ty::Lit(v.clone()),
            _ => self.unknown(UnknownCause::Unsupported(
                "an enum or const value that is an object or array".into(),
            )),
        }
    }

    fn typed(&mut self, t: &str, o: &'a Map<String, Value>, depth: usize) -> Ty {
        match t {
            "string" => Ty::Prim(Primitive::String),
            "number" => Ty::Prim(Primitive::Number),
            "integer" => Ty::Prim(Primitive::Integer),
            "boolean" => Ty::Prim(Primitive::Boolean),
            "null" => Ty::Prim(Primitive::Null),
            "object" => self.object(o, depth),
            "array" => self.array(o, depth),
            other => self.unknown(UnknownCause::Invalid(format!(
                "unknown type name {other:?}"
            ))),
        }
    }

    fn object(&mut self, o: &'a Map<String, Value>, depth: usize) -> Ty {
        let required: Vec<&str> = match o.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let mut obj = Obj::default();
        if let Some(Value::Object(props)) = o.get("properties") {
            for (key, prop) in props {
                let ty = self.read(prop, depth + 1);
                let doc = self.doc(prop, depth);
                obj.fields.push(Field {
                    key: key.clone(),
                    optional: !required.contains(&key.as_str()),
                    ty,
                    doc,
                });
            }
        }
        // Required keys without a property schema still exist: list them with an unknown type
        // (a schema `{"required": ["id"]}` must not render as an empty object).
        for key in &required {
            if !obj.fields.iter().any(|f| f.key == *key) {
                obj.fields.push(Field {
                    key: (*key).to_string(),
                    optional: false,
                    ty: self.unknown(UnknownCause::Any),
                    doc: Vec::new(),
                });
            }
        }
        match o.get("additionalProperties") {
            Some(Value::Bool(true)) if obj.fields.is_empty() => {
                obj.rest = Some(Box::new(self.unknown(UnknownCause::Any)));
            }
            Some(s @ Value::Object(_)) => {
                obj.rest = Some(Box::new(self.read(s, depth + 1)));
            }
            _ => {}
        }
        if obj.rest.is_none()
            && obj.fields.is_empty()
            && let Some(Value::Object(pats)) = o.get("patternProperties")
            && !pats.is_empty()
        {
            let members: Vec<Ty> = pats.values().map(|s| self.read(s, depth + 1)).collect();
            obj.rest = Some(Box::new(union(members)));
        }
        Ty::Object(obj)
    }

    fn array(&mut self, o: &'a Map<String, Value>, depth: usize) -> Ty {
        let (prefix, rest) = match (o.get("prefixItems"), o.get("items")) {
            (Some(Value::Array(p)), items) => (Some(p), items),
            (_, Some(Value::Array(p))) => (Some(p), o.get("additionalItems")),
            (_, items) => (None, items),
        };
        match prefix {
            Some(p) => {
                let members: Vec<Ty> = p.iter().map(|s| self.read(s, depth + 1)).collect();
                let rest = match rest {
                    None | Some(Value::Bool(false)) => None,
                    Some(s) => Some(Box::new(self.read(s, depth + 1))),
                };
                Ty::Tuple(members, rest)
            }
            None => match rest {
                Some(s) => Ty::Array(Box::new(self.read(s, depth + 1))),
                None => Ty::Array(Box::new(self.unknown(UnknownCause::Any))),
            },
        }
    }

    /// Documentation lines of a property schema: description (or that of the referenced schema)
    /// and constraint tags; for arrays also the items' documentation as `Each item: ...`, for maps
    /// the values' as `Each value: ...`.
    fn doc(&mut self, prop: &'a Value, depth: usize) -> Vec<String> {
        let mut lines = self.own_doc(prop, depth);
        let Some(o) = prop.as_object() else {
            return lines;
        };
        let nested = [
            ("items", "Each item"),
            ("additionalProperties", "Each value"),
        ];
        for (key, label) in nested {
            if let Some(sub @ Value::Object(_)) = o.get(key) {
                let sub_doc = self.own_doc(sub, depth + 1);
                if let Some((first, more)) = sub_doc.split_first() {
                    lines.push(format!("{label}: {first}"));
                    lines.extend(more.iter().map(|l| format!("  {l}")));
                }
            }
        }
        lines
    }

    fn own_doc(&mut self, prop: &'a Value, depth: usize) -> Vec<String> {
        let Some(o) = prop.as_object() else {
            return Vec::new();
        };
        let mut desc = o.get("description").and_then(Value::as_str);
        if desc.is_none()
            && depth < MAX_DEPTH
            && let Some(r) = o.get("$ref").and_then(Value::as_str)
            && !self.refs.contains(&r)
            && let Some(target) = self.resolve(r)
        {
            desc = target.get("description").and_then(Value::as_str);
        }
        let desc_lines = description_lines(desc.unwrap_or(""));
        let tags = self.tags(o);
        combine(desc_lines, tags)
    }

    fn tags(&self, o: &Map<String, Value>) -> String {
        let mut tags: Vec<String> = Vec::new();
        if o.get("deprecated") == Some(&Value::Bool(true)) {
            tags.push("@deprecated".into());
        }
        if let Some(d) = o.get("default") {
            tags.push(format!("@default {}", clip_chars(&d.to_string(), 80)));
        }
        if let Some(Value::String(f)) = o.get("format") {
            tags.push(format!("@format {f}"));
        }
        if self.integer_tag {
            let is_int = match o.get("type") {
                Some(Value::String(t)) => t == "integer",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
                _ => false,
            };
            if is_int {
                tags.push("@integer".into());
            }
        }
        for key in [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
        ] {
            if let Some(v @ Value::Number(_)) = o.get(key) {
                tags.push(format!("@{key} {v}"));
            }
        }
        if let Some(Value::String(p)) = o.get("pattern") {
            tags.push(format!("@pattern {}", clip_chars(p, 80)));
        }
        for key in ["minItems", "maxItems"] {
            if let Some(v @ Value::Number(_)) = o.get(key) {
                tags.push(format!("@{key} {v}"));
            }
        }
        if o.get("uniqueItems") == Some(&Value::Bool(true)) {
            tags.push("@uniqueItems true".into());
        }
        tags.join(" ")
    }
}

/// Effect encodes non-finite numbers as a union of `number` and the strings "NaN", "Infinity",
/// "-Infinity"; such a union is shown as `number`.
fn non_finite_number(members: Vec<Ty>, alts: &[Value]) -> Ty {
    let special = |v: &Value| {
        matches!(v.get("enum"), Some(Value::Array(e)) if !e.is_empty()
            && e.iter().all(|x| matches!(x.as_str(), Some("NaN" | "Infinity" | "-Infinity"))))
    };
    let is_number = |v: &Value| v.get("type") == Some(&Value::String("number".into()));
    if alts.iter().any(is_number) && alts.iter().all(|a| is_number(a) || special(a)) {
        return Ty::Prim(Primitive::Number);
    }
    union(members)
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(s.get(i + 1..i + 3).unwrap_or(""), 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn description_lines(desc: &str) -> Vec<String> {
    let mut lines: Vec<String> = desc.lines().map(|l| l.trim_end().to_string()).collect();
    while lines.first().is_some_and(|l| l.trim().is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    if let Some(first) = lines.first_mut() {
        *first = first.trim_start().to_string();
    }
    lines
}

fn combine(mut desc: Vec<String>, tags: String) -> Vec<String> {
    if tags.is_empty() {
        return desc;
    }
    if desc.len() == 1 {
        let d = &mut desc[0];
        if !d.ends_with('.') {
            d.push('.');
        }
        d.push(' ');
        d.push_str(&tags);
        return desc;
    }
    desc.push(tags);
    desc
}

fn clip_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}

// ---------------------------------------------------------------------------------------------
// Printing

struct Printer<'n> {
    n: &'n dyn Notation,
    style: Style,
}

impl<'n> Printer<'n> {
    fn new(n: &'n dyn Notation, style: Style) -> Self {
        Printer { n, style }
    }

    fn print(&self, ty: &Ty, indent: usize, out: &mut String) {
        match ty {
            Ty::Unknown => out.push_str("unknown"),
            Ty::Prim(p) => out.push_str(self.n.primitive(*p)),
            Ty::Lit(v) => match v {
                Value::String(s) => out.push_str(&self.n.quote(s)),
                v => out.push_str(&v.to_string()),
            },
            Ty::Array(item) => {
                let simple = matches!(
                    **item,
                    Ty::Unknown | Ty::Prim(_) | Ty::Lit(_) | Ty::Array(_) | Ty::Object(_)
                );
                let mut inner = String::new();
                self.print(item, indent, &mut inner);
                out.push_str(&self.n.array(&inner, simple));
            }
            Ty::Tuple(items, rest) => {
                let (open, close) = self.n.tuple_brackets();
                out.push_str(open);
                for (i, t) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.print(t, indent, out);
                }
                if let Some(r) = rest {
                    if !items.is_empty() {
                        out.push_str(", ");
                    }
                    out.push_str("...");
                    if self.n.tuple_rest_is_array() {
                        self.print(&Ty::Array(r.clone()), indent, out);
                    } else {
                        self.print(r, indent, out);
                    }
                }
                out.push_str(close);
            }
            Ty::Union(members) => {
                let sep = self.n.union_separator();
                // When one object member needs several lines, all object members get them.
                let block = self.style == Style::Pretty
                    && members
                        .iter()
                        .any(|m| matches!(m, Ty::Object(o) if self.needs_block(o)));
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(sep);
                    }
                    if block
                        && let Ty::Object(o) = m
                        && !(o.fields.is_empty() && o.rest.is_none())
                    {
                        self.object_pretty(o, indent, out);
                    } else if matches!(m, Ty::Inter(_)) {
                        out.push('(');
                        self.print(m, indent, out);
                        out.push(')');
                    } else {
                        self.print(m, indent, out);
                    }
                }
            }
            Ty::Inter(members) => {
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" & ");
                    }
                    if matches!(m, Ty::Union(_)) {
                        out.push('(');
                        self.print(m, indent, out);
                        out.push(')');
                    } else {
                        self.print(m, indent, out);
                    }
                }
            }
            Ty::Object(o) => self.object(o, indent, out),
        }
    }

    fn key(&self, f: &Field) -> String {
        let mut k = self.n.field_key(&f.key);
        if f.optional {
            k.push('?');
        }
        k
    }

    fn object(&self, o: &Obj, indent: usize, out: &mut String) {
        if o.fields.is_empty() && o.rest.is_none() {
            out.push_str("{}");
            return;
        }
        if self.style == Style::Pretty && self.needs_block(o) {
            self.object_pretty(o, indent, out);
            return;
        }
        let sep = self.n.field_separator();
        let inline = Printer::new(self.n, Style::Compact);
        out.push_str("{ ");
        for (i, f) in o.fields.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            out.push_str(&self.key(f));
            out.push_str(": ");
            inline.print(&f.ty, indent, out);
        }
        if let Some(r) = &o.rest {
            if !o.fields.is_empty() {
                out.push_str(sep);
            }
            out.push_str(self.n.map_key());
            out.push_str(": ");
            inline.print(r, indent, out);
        }
        out.push_str(" }");
    }

    /// In pretty mode, an object is written over several lines when it has documentation or
    /// its one-line form is longer than [`INLINE_OBJECT_CHARS`].
    fn needs_block(&self, o: &Obj) -> bool {
        o.has_docs() || self.compact_len(o) > INLINE_OBJECT_CHARS
    }

    fn compact_len(&self, o: &Obj) -> usize {
        let mut s = String::new();
        Printer::new(self.n, Style::Compact).object(o, 0, &mut s);
        s.chars().count()
    }

    fn object_pretty(&self, o: &Obj, indent: usize, out: &mut String) {
        let pad = "  ".repeat(indent + 1);
        let term = self.n.field_separator().trim_end();
        out.push_str("{\n");
        for f in &o.fields {
            let mut line = String::new();
            line.push_str(&self.key(f));
            line.push_str(": ");
            self.print(&f.ty, indent + 1, &mut line);
            line.push_str(term);
            if f.doc.is_empty() {
                let _ = writeln!(out, "{pad}{line}");
            } else {
                self.n.documented_field(&pad, &line, &f.doc, out);
            }
        }
        if let Some(r) = &o.rest {
            out.push_str(&pad);
            out.push_str(self.n.map_key());
            out.push_str(": ");
            self.print(r, indent + 1, out);
            out.push_str(term);
            out.push('\n');
        }
        out.push_str(&"  ".repeat(indent));
        out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding_of_pointers() {
        assert_eq!(percent_decode("/$defs/a%20b"), "/$defs/a b");
        assert_eq!(percent_decode("/x%2"), "/x%2");
    }
}
