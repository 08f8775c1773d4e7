//! OpenAPI schemas → JSON Schema 2020-12 for tool inputs and outputs: the 3.0 dialect converted
//! (`nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`, annotations dropped), `$ref`s
//! rewritten to `#/$defs/<key>` with each tool carrying only the closure of the definitions it
//! references, and the readOnly/writeOnly projection (requests drop readOnly properties,
//! responses drop writeOnly ones; through `$ref` hops and across `allOf` branches).

use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

use serde_json::{Map, Value, json};

use crate::limits::MAX_TOOL_DEFS_BYTES;
use crate::pointer::{deref, ref_of, resolve};

/// Which side of the exchange a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// What the program sends (readOnly properties are dropped).
    Request,
    /// What the server returns (writeOnly properties are dropped).
    Response,
}

impl Direction {
    fn hiding_keyword(self) -> &'static str {
        match self {
            Direction::Request => "readOnly",
            Direction::Response => "writeOnly",
        }
    }
}

/// A converted definition, the references it makes, and its size as compact JSON text.
struct Def {
    schema: Value,
    refs: Vec<String>,
    bytes: usize,
}

/// The schema converter of one document: definition keys and converted definitions are shared
/// by all of its tools.
pub struct Schemas<'d> {
    root: &'d Value,
    v30: bool,
    project: bool,
    keys: HashMap<String, String>,
    used: HashSet<String>,
    cache: HashMap<(String, Direction), Result<Rc<Def>, String>>,
    hidden_names: HashMap<(String, Direction), Rc<HashSet<String>>>,
}

/// Keywords dropped in conversion: 3.0-only or annotations that no validator reads.
const DROPPED: &[&str] = &[
    "nullable",
    "discriminator",
    "xml",
    "externalDocs",
    "example",
];

/// Keywords whose value is one subschema.
const ONE: &[&str] = &[
    "additionalProperties",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
];
/// Keywords whose value is an array of subschemas.
const MANY: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value maps names to subschemas (`properties` is handled apart).
const MAPS: &[&str] = &["patternProperties", "dependentSchemas"];

impl<'d> Schemas<'d> {
    /// A converter for the document `root`; `v30` for the 3.0 dialect.
    pub fn new(root: &'d Value, v30: bool) -> Self {
        Schemas {
            root,
            v30,
            project: has_visibility(root),
            keys: HashMap::new(),
            used: HashSet::new(),
            cache: HashMap::new(),
            hidden_names: HashMap::new(),
        }
    }

    /// `true` when the property schema `v` is hidden in `dir`: it, or an object along its
    /// `$ref` chain, says `readOnly: true` (requests) or `writeOnly: true` (responses).
    pub fn hidden(&self, v: &Value, dir: Direction) -> bool {
        if !self.project {
            return false;
        }
        let kw = dir.hiding_keyword();
        let mut cur = v;
        let mut seen = HashSet::new();
        loop {
            if cur.get(kw) == Some(&Value::Bool(true)) {
                return true;
            }
            match ref_of(cur) {
                Some(r) if seen.insert(r.to_string()) => match resolve(self.root, r) {
                    Some(t) => cur = t,
                    None => return false,
                },
                _ => return false,
            }
        }
    }

    /// Property names hidden by any `allOf` branch of `v` (branches reached through `$ref`
    /// included; memoised per definition, cycle-safe).
    fn allof_hidden(
        &mut self,
        v: &Value,
        dir: Direction,
        active: &mut HashSet<String>,
    ) -> HashSet<String> {
        let mut out = HashSet::new();
        let Some(branches) = v.get("allOf").and_then(Value::as_array) else {
            return out;
        };
        for b in branches {
            out.extend(self.branch_hidden(b, dir, active).iter().cloned());
        }
        out
    }

    fn branch_hidden(
        &mut self,
        b: &Value,
        dir: Direction,
        active: &mut HashSet<String>,
    ) -> Rc<HashSet<String>> {
        if let Some(r) = ref_of(b) {
            let key = (r.to_string(), dir);
            if let Some(h) = self.hidden_names.get(&key) {
                return Rc::clone(h);
            }
            if !active.insert(r.to_string()) {
                return Rc::new(HashSet::new());
            }
            let target = resolve(self.root, r);
            let h = match target {
                Some(t) => self.branch_hidden(t, dir, active),
                None => Rc::new(HashSet::new()),
            };
            active.remove(r);
            self.hidden_names.insert(key, Rc::clone(&h));
            return h;
        }
        let mut out: HashSet<String> = HashSet::new();
        if let Some(props) = b.get("properties").and_then(Value::as_object) {
            for (k, p) in props {
                if self.hidden(p, dir) {
                    out.insert(k.clone());
                }
            }
        }
        out.extend(self.allof_hidden(b, dir, active));
        Rc::new(out)
    }

    /// Convert the schema `v` (at a use site) for `dir`; the references it makes are pushed to
    /// `refs`. Errors: an external or unresolvable `$ref` (the message names it).
    pub fn convert(
        &mut self,
        v: &Value,
        dir: Direction,
        refs: &mut Vec<String>,
    ) -> Result<Value, String> {
        self.convert_hiding(v, dir, refs, &HashSet::new())
    }

    fn convert_hiding(
        &mut self,
        v: &Value,
        dir: Direction,
        refs: &mut Vec<String>,
        hide: &HashSet<String>,
    ) -> Result<Value, String> {
        let Some(obj) = v.as_object() else {
            return Ok(v.clone());
        };
        let mut out = Map::new();
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            if !r.starts_with('#') {
                return Err(format!(
                    "schema reference '{r}' is external; only local references (#/...) are followed"
                ));
            }
            if deref(self.root, v).is_none() {
                return Err(format!(
                    "schema reference '{r}' is cyclic or does not resolve"
                ));
            }
            refs.push(r.to_string());
            out.insert(
                "$ref".into(),
                Value::String(format!("#/$defs/{}", self.key(r))),
            );
            if self.v30 {
                return Ok(Value::Object(out));
            }
        }
        let mut hide_here: HashSet<String> = hide.clone();
        if self.project && obj.contains_key("allOf") {
            hide_here.extend(self.allof_hidden(v, dir, &mut HashSet::new()));
        }
        for (k, val) in obj {
            if k == "$ref" || DROPPED.contains(&k.as_str()) || k.starts_with("x-") {
                continue;
            }
            let converted = match k.as_str() {
                "properties" => match val.as_object() {
                    Some(props) => {
                        let mut p = Map::new();
                        for (name, s) in props {
                            if hide_here.contains(name) || self.hidden(s, dir) {
                                continue;
                            }
                            p.insert(
                                name.clone(),
                                self.convert_hiding(s, dir, refs, &HashSet::new())?,
                            );
                        }
                        Value::Object(p)
                    }
                    None => val.clone(),
                },
                "required" => match val.as_array() {
                    Some(names) => {
                        let props = obj.get("properties").and_then(Value::as_object);
                        Value::Array(
                            names
                                .iter()
                                .filter(|n| {
                                    let Some(n) = n.as_str() else { return true };
                                    !hide_here.contains(n)
                                        && !props
                                            .and_then(|p| p.get(n))
                                            .is_some_and(|s| self.hidden(s, dir))
                                })
                                .cloned()
                                .collect(),
                        )
                    }
                    None => val.clone(),
                },
                "allOf" => match val.as_array() {
                    Some(items) => Value::Array(
                        items
                            .iter()
                            .map(|s| self.convert_hiding(s, dir, refs, &hide_here))
                            .collect::<Result<_, _>>()?,
                    ),
                    None => val.clone(),
                },
                k if MANY.contains(&k) => match val.as_array() {
                    Some(items) => Value::Array(
                        items
                            .iter()
                            .map(|s| self.convert(s, dir, refs))
                            .collect::<Result<_, _>>()?,
                    ),
                    None => val.clone(),
                },
                k if ONE.contains(&k) => {
                    if k == "items" && val.is_array() {
                        // Draft-4 tuple form: keep as prefixItems.
                        let items: Vec<Value> = val
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|s| self.convert(s, dir, refs))
                            .collect::<Result<_, _>>()?;
                        out.insert("prefixItems".into(), Value::Array(items));
                        continue;
                    }
                    self.convert(val, dir, refs)?
                }
                k if MAPS.contains(&k) => match val.as_object() {
                    Some(m) => {
                        let mut p = Map::new();
                        for (name, s) in m {
                            p.insert(name.clone(), self.convert(s, dir, refs)?);
                        }
                        Value::Object(p)
                    }
                    None => val.clone(),
                },
                // The 3.0 (draft 4) boolean form, also found in 3.1 documents converted by
                // hand, where 2020-12 has no meaning for it: `true` takes the bound's number.
                "exclusiveMaximum" | "exclusiveMinimum" if val.is_boolean() => {
                    if let Value::Bool(b) = val {
                        let bound = if k == "exclusiveMaximum" {
                            "maximum"
                        } else {
                            "minimum"
                        };
                        if *b && let Some(n) = obj.get(bound) {
                            out.insert(k.clone(), n.clone());
                        }
                        continue;
                    }
                    val.clone()
                }
                _ => val.clone(),
            };
            out.insert(k.clone(), converted);
        }
        for (k, bound) in [
            ("exclusiveMaximum", "maximum"),
            ("exclusiveMinimum", "minimum"),
        ] {
            if obj.get(k) == Some(&Value::Bool(true)) {
                out.remove(bound);
            }
        }
        let mut out = Value::Object(out);
        if self.v30 && obj.get("nullable") == Some(&Value::Bool(true)) {
            out = nullable(out);
        }
        Ok(out)
    }

    /// The `$defs` key of the reference `r`: a component schema's name, else the pointer made
    /// safe; unique per document.
    fn key(&mut self, r: &str) -> String {
        if let Some(k) = self.keys.get(r) {
            return k.clone();
        }
        let decoded = percent_encoding::percent_decode_str(r.trim_start_matches('#'))
            .decode_utf8_lossy()
            .replace("~1", "/")
            .replace("~0", "~");
        let base_src = decoded
            .strip_prefix("/components/schemas/")
            .unwrap_or(decoded.trim_start_matches('/'));
        let mut base: String = base_src
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.is_empty() {
            base = "root".into();
        }
        let mut key = base.clone();
        let mut n = 2;
        while self.used.contains(&key) {
            key = format!("{base}_{n}");
            n += 1;
        }
        self.used.insert(key.clone());
        self.keys.insert(r.to_string(), key.clone());
        key
    }

    fn def(&mut self, r: &str, dir: Direction) -> Result<Rc<Def>, String> {
        let ck = (r.to_string(), dir);
        if let Some(d) = self.cache.get(&ck) {
            return d.clone();
        }
        let result = match resolve(self.root, r) {
            None => Err(format!("schema reference '{r}' does not resolve")),
            Some(target) => {
                let mut refs = Vec::new();
                self.convert(target, dir, &mut refs).map(|schema| {
                    let bytes = serde_json::to_vec(&schema).map_or(0, |v| v.len());
                    Rc::new(Def {
                        schema,
                        refs,
                        bytes,
                    })
                })
            }
        };
        self.cache.insert(ck, result.clone());
        result
    }

    /// The `$defs` object for the references `refs` and everything they reference in turn, at
    /// most [`MAX_TOOL_DEFS_BYTES`] of it: definitions are taken breadth-first (those the tool
    /// names itself first, then what they reference, ...) while they fit; every definition
    /// referenced beyond that becomes an unconstrained schema whose description says it was left
    /// out, so each `$ref` still resolves and validation only ever accepts more, never less.
    pub fn closure(
        &mut self,
        refs: Vec<String>,
        dir: Direction,
    ) -> Result<Map<String, Value>, String> {
        self.closure_within(refs, dir, MAX_TOOL_DEFS_BYTES)
    }

    /// [`Schemas::closure`] with another bound, in bytes of compact JSON.
    pub fn closure_within(
        &mut self,
        refs: Vec<String>,
        dir: Direction,
        budget: usize,
    ) -> Result<Map<String, Value>, String> {
        let mut out = Map::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut work: VecDeque<String> = refs.into();
        let mut used = 0usize;
        let mut full = false;
        while let Some(r) = work.pop_front() {
            if !seen.insert(r.clone()) {
                continue;
            }
            let def = self.def(&r, dir)?;
            let key = self.key(&r);
            if !full && used + def.bytes <= budget {
                used += def.bytes;
                work.extend(def.refs.iter().cloned());
                out.insert(key, def.schema.clone());
            } else {
                // The first definition that does not fit closes the set: breadth-first order
                // keeps the ones nearest the tool.
                full = true;
                out.insert(key.clone(), left_out(&key, budget));
            }
        }
        out.sort_keys();
        Ok(out)
    }

    /// `true` when the schema `v` (through `$ref`s) describes binary data: `format: binary`,
    /// or (3.1) a `contentMediaType` that is neither text nor JSON.
    pub fn is_binary(&self, v: &Value) -> bool {
        let Some((s, _)) = deref(self.root, v) else {
            return false;
        };
        if s.get("format").and_then(Value::as_str) == Some("binary") {
            return true;
        }
        match s.get("contentMediaType").and_then(Value::as_str) {
            Some(m) if !self.v30 => !crate::media::is_json(m) && !crate::media::is_text(m),
            _ => false,
        }
    }
}

/// The stand-in for a definition past the bound of [`Schemas::closure`]: any value, described.
fn left_out(key: &str, budget: usize) -> Value {
    json!({"description": format!(
        "{key} (its schema is left out: the definitions of one tool are limited to {} KiB; the value is not checked)",
        budget / 1024
    )})
}

/// A 3.0 `nullable: true` schema as a 2020-12 union with null.
fn nullable(mut v: Value) -> Value {
    let Some(obj) = v.as_object_mut() else {
        return v;
    };
    let composite = obj.contains_key("$ref")
        || obj.contains_key("allOf")
        || obj.contains_key("anyOf")
        || obj.contains_key("oneOf");
    if !composite {
        match obj.get_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                obj.insert("type".into(), json!([t, "null"]));
            }
            Some(Value::Array(ts)) => {
                if !ts.contains(&json!("null")) {
                    ts.push(json!("null"));
                }
            }
            _ => return v,
        }
        if let Some(Value::Array(e)) = obj.get_mut("enum")
            && !e.contains(&Value::Null)
        {
            e.push(Value::Null);
        }
        return v;
    }
    json!({"anyOf": [v, {"type": "null"}]})
}

/// `true` when the document has any own `readOnly: true` or `writeOnly: true` (iterative).
fn has_visibility(root: &Value) -> bool {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if m.get("readOnly") == Some(&Value::Bool(true))
                    || m.get("writeOnly") == Some(&Value::Bool(true))
                {
                    return true;
                }
                stack.extend(m.values());
            }
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    false
}
