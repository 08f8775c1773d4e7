//! Compiled JSON Schema validators ([`CompiledSchema`]) and model-facing validation messages.
//!
//! Schemas are compiled once when a [`crate::CodeMode`] is built (a bad schema is a build error
//! naming the tool). Validation failures render as `at /items/0: "x" is not of type "integer"`:
//! the JSON Pointer of the failing place in the input (or `at the top level`) and the rule that
//! failed, as `jsonschema` words it. At most [`MAX_REPORTED_ERRORS`] errors are reported, each cut
//! to [`MAX_ERROR_CHARS`] characters, so a huge input cannot make a huge message.
//!
//! Input errors may end with a hint of the guest language ([`InputHints`]): what to write
//! instead when an empty object arrived where an array was expected, or a fraction where an
//! integer was.
//!
//! Integer positions: in a language whose division always gives a float (`4/2` is `2.0`), a
//! program often sends `2.0` where a tool wants an integer. [`CompiledSchema::coerce_integers`] turns such integral
//! floats into JSON integers wherever the schema says `"type": "integer"`, before validation and
//! before the handler (and the `toolCalls` record) sees the input. Where the integers are is
//! worked out once, when the schema is compiled (see [`CompiledSchema::has_integer_positions`]).

use std::collections::HashMap;

use serde_json::{Number, Value};

/// How many validation errors one message lists at most.
pub const MAX_REPORTED_ERRORS: usize = 3;
/// The longest rendering of one validation error, in characters (longer ones end with `…`).
pub const MAX_ERROR_CHARS: usize = 300;

/// A JSON Schema compiled for repeated validation. Cheap to share (`Send + Sync`).
#[derive(Clone, Debug)]
pub struct CompiledSchema {
    schema: Value,
    validator: jsonschema::Validator,
    /// Where the schema says "integer"; `None` when nowhere (then coercion costs nothing).
    integers: Option<IntegerPlan>,
    /// Validation may cost more than a walk of the input: see [`CompiledSchema::is_costly`].
    costly: bool,
}

/// A schema whose JSON text is longer than this (bytes) is validated off the async thread.
pub const COSTLY_SCHEMA_BYTES: usize = 16 * 1024;

/// An input larger than this (bytes, counted as [`INPUT_NODE_BYTES`] per JSON value plus the
/// bytes of its strings and keys) is validated off the async thread: 4096 small values, or one
/// 64 KiB string. Rendering an error about a large value costs as much as the value.
pub const COSTLY_INPUT_BYTES: usize = 64 * 1024;

/// Bytes counted per JSON value by [`larger_than`].
pub const INPUT_NODE_BYTES: usize = 16;

/// Keywords whose check is not linear in the input (regular expressions, formats): a schema
/// using any of them is validated off the async thread.
const COSTLY_KEYWORDS: &[&str] = &["pattern", "patternProperties", "format", "propertyNames"];

/// `true` when `schema` uses a [`COSTLY_KEYWORDS`] keyword anywhere or is longer than
/// [`COSTLY_SCHEMA_BYTES`] (iterative walk).
fn schema_is_costly(schema: &Value) -> bool {
    if serde_json::to_vec(schema).map_or(true, |v| v.len() > COSTLY_SCHEMA_BYTES) {
        return true;
    }
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if m.keys().any(|k| COSTLY_KEYWORDS.contains(&k.as_str())) {
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

/// `true` when `v` is larger than `limit` bytes, counting [`INPUT_NODE_BYTES`] per JSON value
/// plus the bytes of every string and object key (stops counting there; iterative, so the walk
/// costs at most about `limit / INPUT_NODE_BYTES` steps).
pub fn larger_than(v: &Value, limit: usize) -> bool {
    let mut n = 0usize;
    // The root is taken first; the stack allocates only for nested containers.
    let mut stack = Vec::new();
    let mut next = Some(v);
    while let Some(v) = next.take().or_else(|| stack.pop()) {
        n += INPUT_NODE_BYTES;
        match v {
            Value::Object(m) => {
                for (k, item) in m {
                    n += k.len();
                    if n > limit {
                        return true;
                    }
                    stack.push(item);
                }
            }
            Value::Array(a) => stack.extend(a.iter()),
            Value::String(s) => n += s.len(),
            _ => {}
        }
        if n > limit {
            return true;
        }
    }
    false
}

impl CompiledSchema {
    /// Compile `schema` (the draft is read from `$schema`, default 2020-12). Errors: a message
    /// saying what is wrong with the schema (not valid against its meta-schema, unresolvable
    /// `$ref`; remote references are never fetched).
    pub fn compile(schema: &Value) -> Result<Self, String> {
        match jsonschema::validator_for(schema) {
            Ok(validator) => Ok(CompiledSchema {
                schema: schema.clone(),
                validator,
                integers: IntegerPlan::compile(schema),
                costly: schema_is_costly(schema),
            }),
            Err(e) => {
                let path = e.instance_path().as_str().to_string();
                let msg = clip(&e.to_string());
                Err(if path.is_empty() {
                    msg
                } else {
                    format!("at {path}: {msg}")
                })
            }
        }
    }

    /// `true` when validating `instance` against this schema may take long enough to matter
    /// on an async thread: the schema uses regular expressions or formats, or is larger than
    /// [`COSTLY_SCHEMA_BYTES`], or the instance is larger than [`COSTLY_INPUT_BYTES`].
    /// The driver then validates on the blocking pool under the execution's deadline.
    pub fn is_costly(&self, instance: &Value) -> bool {
        self.costly || larger_than(instance, COSTLY_INPUT_BYTES)
    }

    /// The schema as given.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// `true` when `instance` is valid.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// `true` when some place in the schema says `"type": "integer"` (so
    /// [`CompiledSchema::coerce_integers`] may change an input). Without one, coercion returns
    /// its input untouched without looking at it.
    pub fn has_integer_positions(&self) -> bool {
        self.integers.is_some()
    }

    /// Turn integral floats into JSON integers where the schema wants an integer: `2.0` → `2`,
    /// `-0.0` → `0`. A float is converted when it is finite, has no fractional part and fits an
    /// `i64` (or a `u64` above `i64::MAX`); anything else is left as it is for
    /// [`CompiledSchema::validate`] to report (`2.5`, `1e300`).
    ///
    /// A place wants an integer when the schemas that apply there (following `properties`,
    /// `additionalProperties`, `items`/`prefixItems`/`additionalItems`, local `$ref`s such as
    /// `#/$defs/X`, and every branch of `allOf`/`anyOf`/`oneOf`) include one whose `type` is
    /// `"integer"` (or a list with `"integer"` and without `"number"`), or whose `const`/`enum`
    /// holds only integers, and none whose `type` allows `"number"`. Not followed:
    /// `patternProperties` (an object schema that has them gives no hint for unnamed keys),
    /// `if`/`then`/`else`, `not`, `$dynamicRef`, anchors and remote references. Values with no
    /// hint (`{"type": "object"}`) are left alone.
    ///
    /// The walk is iterative (any nesting depth) and costs nothing for schemas without integer
    /// positions.
    pub fn coerce_integers(&self, mut instance: Value) -> Value {
        if let Some(plan) = &self.integers {
            plan.apply(&mut instance);
        }
        instance
    }

    /// Replace each empty object in `instance` that the schema rejects because it wants an
    /// array there by `[]`: a Lua program cannot tell an empty array from an empty object
    /// (`{}`), so the schema decides, as it does for integral floats. At most
    /// [`MAX_EMPTY_ARRAY_FIXES`] places; an input the schema accepts is returned as it is
    /// (only a rejected input costs a second pass).
    pub fn coerce_empty_arrays(&self, mut instance: Value) -> Value {
        if !has_empty_object(&instance) || self.validator.is_valid(&instance) {
            return instance;
        }
        let places: Vec<String> = self
            .validator
            .iter_errors(&instance)
            .take(1000)
            .filter(|e| {
                // Only errors about an empty object are rendered (rendering one about a large
                // value costs as much as the value).
                e.instance().as_object().is_some_and(|o| o.is_empty())
                    && is_empty_object_for_array(e.instance(), &e.to_string())
            })
            .map(|e| e.instance_path().as_str().to_string())
            .take(MAX_EMPTY_ARRAY_FIXES)
            .collect();
        for p in places {
            if let Some(v) = instance.pointer_mut(&p)
                && v.as_object().is_some_and(|o| o.is_empty())
            {
                *v = Value::Array(Vec::new());
            }
        }
        instance
    }

    /// Validate `instance`, a tool input written by the program, with the hints of the default
    /// [`crate::Language`] ([`InputHints::of`]; see [`CompiledSchema::validate_with`]).
    pub fn validate(&self, instance: &Value) -> Result<(), String> {
        self.validate_with(instance, &InputHints::of(crate::Language::default()))
    }

    /// Validate `instance`, a tool input written by the program. Errors: `at <pointer>: <rule>`
    /// for up to [`MAX_REPORTED_ERRORS`] failures joined with `"; "`, plus `" (and N more)"` when
    /// there were more. An empty object where an array was expected gets
    /// [`InputHints::empty_array`] appended after `"; "`; a fractional number where an integer was
    /// expected gets [`InputHints::fraction`]. An integral float at an integer position that is
    /// too large for an integer (`1e300`, which JSON Schema itself accepts) is an error too: no
    /// handler could read it as an integer.
    pub fn validate_with(&self, instance: &Value, hints: &InputHints) -> Result<(), String> {
        self.check(instance, hints)?;
        match &self.integers {
            Some(plan) => plan.check_range(instance),
            None => Ok(()),
        }
    }

    /// Like [`CompiledSchema::validate`] without the hints meant for the program's own values
    /// (for tool outputs, which the program did not build).
    pub fn validate_output(&self, instance: &Value) -> Result<(), String> {
        self.check(instance, &InputHints::NONE)
    }

    fn check(&self, instance: &Value, hints: &InputHints) -> Result<(), String> {
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let mut parts = Vec::new();
        let mut more = 0usize;
        for e in self.validator.iter_errors(instance) {
            if parts.len() == MAX_REPORTED_ERRORS {
                more += 1;
                if more > 1000 {
                    break;
                }
                continue;
            }
            let path = e.instance_path().as_str();
            let place = if path.is_empty() {
                "at the top level".to_string()
            } else {
                format!("at {path}")
            };
            let mut text = clip(&e.to_string());
            if let Some(hint) = hints.empty_array
                && is_empty_object_for_array(e.instance(), &text)
            {
                text.push_str("; ");
                text.push_str(hint);
            }
            if let Some(hint) = hints.fraction
                && is_fraction_for_integer(e.instance(), &text)
            {
                text.push_str("; ");
                text.push_str(hint);
            }
            parts.push(format!("{place}: {text}"));
        }
        if parts.is_empty() {
            parts.push("at the top level: the value does not match the schema".to_string());
        }
        let mut msg = parts.join("; ");
        if more > 0 {
            msg.push_str(&format!(" (and {more} more)"));
        }
        Err(msg)
    }
}

/// What a guest language says after an input error about its own values
/// ([`codemode_guest::Language::empty_array_hint`], [`codemode_guest::Language::fraction_hint`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputHints {
    /// Appended to a type error where an array was expected and `{}` was given (in a language
    /// where an empty literal crosses the boundary as a JSON object).
    pub empty_array: Option<&'static str>,
    /// Appended to a type error where an integer was expected and a number with a fractional
    /// part was given.
    pub fraction: Option<&'static str>,
}

impl InputHints {
    /// No hints (tool outputs, which the program did not build).
    pub const NONE: InputHints = InputHints {
        empty_array: None,
        fraction: None,
    };

    /// The hints of `language`'s guest; [`InputHints::NONE`] when it is not compiled in.
    pub fn of(language: crate::Language) -> InputHints {
        crate::guests::frontend(language).map_or(InputHints::NONE, InputHints::from_language)
    }

    /// The hints of a guest language.
    pub(crate) fn from_language(lang: &dyn codemode_guest::Language) -> InputHints {
        InputHints {
            empty_array: lang.empty_array_hint(),
            fraction: lang.fraction_hint(),
        }
    }
}

/// `true` for a type error (`message`) about an empty object where the expected types include
/// `"array"`.
/// Whether `v` holds an empty object anywhere (an iterative walk).
fn has_empty_object(v: &Value) -> bool {
    // Only containers go on the stack (a flat record allocates nothing).
    let container = |v: &&Value| matches!(v, Value::Object(_) | Value::Array(_));
    let mut stack = Vec::new();
    let mut next = Some(v);
    while let Some(v) = next.take().or_else(|| stack.pop()) {
        match v {
            Value::Object(o) if o.is_empty() => return true,
            Value::Object(o) => stack.extend(o.values().filter(container)),
            Value::Array(a) => stack.extend(a.iter().filter(container)),
            _ => {}
        }
    }
    false
}

/// Most places of one input [`CompiledSchema::coerce_empty_arrays`] turns from `{}` into `[]`.
pub const MAX_EMPTY_ARRAY_FIXES: usize = 64;

fn is_empty_object_for_array(instance: &Value, message: &str) -> bool {
    instance.as_object().is_some_and(|o| o.is_empty())
        && message.starts_with("{} is not of type")
        && message.contains("\"array\"")
}

/// `true` for a type error (`message`) about a number with a fractional part where the expected
/// types include `"integer"` but not `"number"`.
fn is_fraction_for_integer(instance: &Value, message: &str) -> bool {
    instance
        .as_f64()
        .is_some_and(|f| f.is_finite() && f.fract() != 0.0)
        && message.contains(" is not of type")
        && message.contains("\"integer\"")
        && !message.contains("\"number\"")
}

/// Cut `s` to [`MAX_ERROR_CHARS`] characters.
fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_ERROR_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_ERROR_CHARS).collect();
    out.push('…');
    out
}

/// Most plan nodes one schema compiles to (distinct sets of schemas that apply at a place;
/// all plain integer places share one, which may come on top). Past it, further places get no
/// plan (their floats are left alone).
const MAX_PLAN_NODES: usize = 4096;
/// Most schemas that apply at one place (after following `$ref` and `allOf`/`anyOf`/`oneOf`).
const MAX_APPLYING: usize = 64;
/// Most tuple positions (`prefixItems`) planned for one array.
const MAX_PREFIX_ITEMS: usize = 64;

/// The integer positions of a schema, as a graph of places (root first). Edges lead only to
/// places that are integers or lead to one; recursive schemas give cycles, and the value being
/// walked bounds the walk.
#[derive(Clone, Debug)]
struct IntegerPlan {
    nodes: Vec<PlanNode>,
}

#[derive(Clone, Debug, Default)]
struct PlanNode {
    /// Integral floats here become integers.
    integer: bool,
    /// Named object keys, sorted: `None` = nothing to do under that key (and
    /// `other_properties` does not apply to it).
    properties: Vec<(String, Option<u32>)>,
    /// Keys not in `properties`.
    other_properties: Option<u32>,
    /// Array positions `0..prefix_items.len()`.
    prefix_items: Vec<Option<u32>>,
    /// Array positions past `prefix_items`.
    items: Option<u32>,
}

impl PlanNode {
    fn for_key(&self, key: &str) -> Option<u32> {
        match self
            .properties
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
        {
            Ok(i) => self.properties[i].1,
            Err(_) => self.other_properties,
        }
    }

    fn for_index(&self, index: usize) -> Option<u32> {
        match self.prefix_items.get(index) {
            Some(n) => *n,
            None => self.items,
        }
    }

    fn has_children(&self) -> bool {
        !self.properties.is_empty()
            || self.other_properties.is_some()
            || !self.prefix_items.is_empty()
            || self.items.is_some()
    }
}

/// The integer a float stands for, when it is finite, integral and fits `i64` (or `u64`).
fn integral(f: f64) -> Option<Number> {
    // 2^63 and 2^64 are exact as f64.
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if (-TWO_63..TWO_63).contains(&f) {
        Some(Number::from(f as i64))
    } else if (TWO_63..TWO_64).contains(&f) {
        Some(Number::from(f as u64))
    } else {
        None
    }
}

/// Make an integral float an integer when one can stand for it.
fn convert(n: &mut Number) {
    if n.is_f64()
        && let Some(i) = n.as_f64().and_then(integral)
    {
        *n = i;
    }
}

/// `true` for an integral float no integer can stand for (`1e300`).
fn too_large(v: &Value) -> bool {
    v.as_number()
        .filter(|n| n.is_f64())
        .and_then(Number::as_f64)
        .is_some_and(|f| f.is_finite() && f.fract() == 0.0 && integral(f).is_none())
}

/// The error for a [`too_large`] value at `path` + `last`.
fn too_large_message(path: &[Step<'_>], last: Option<Step<'_>>, v: &Value) -> String {
    let mut place = pointer(path);
    if let Some(step) = last {
        place.push_str(&pointer(&[step]));
    }
    let place = if place.is_empty() {
        "at the top level".to_string()
    } else {
        format!("at {place}")
    };
    format!(
        "{place}: {v} is too large for an integer (integers go from -9223372036854775808 to \
         18446744073709551615)"
    )
}

/// A container [`IntegerPlan::check_range`] has still to visit.
struct Pending<'a> {
    value: &'a Value,
    /// Its plan node.
    node: u32,
    /// How many steps from the top level.
    depth: usize,
    /// The step from its parent (`None` at the top level).
    step: Option<Step<'a>>,
}

/// One step of a path inside the input, for error messages.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

impl IntegerPlan {
    /// Convert the integral floats of `value` at integer places. Iterative; numbers are
    /// converted as their container is visited, so the stack holds only containers with
    /// something to do below them (nothing, and no allocation, for a flat input).
    fn apply(&self, value: &mut Value) {
        let mut stack: Vec<(&mut Value, u32)> = Vec::new();
        self.visit(value, 0, &mut stack);
        while let Some((v, id)) = stack.pop() {
            self.visit(v, id, &mut stack);
        }
    }

    /// Convert `value` if it is a number at an integer place; else queue its members that have
    /// a plan.
    fn visit<'v>(&self, value: &'v mut Value, id: u32, stack: &mut Vec<(&'v mut Value, u32)>) {
        let node = &self.nodes[id as usize];
        let mut queue = |child: &'v mut Value, c: u32| match child {
            Value::Number(n) if self.nodes[c as usize].integer => convert(n),
            Value::Object(_) | Value::Array(_) => stack.push((child, c)),
            _ => {}
        };
        match value {
            Value::Number(n) if node.integer => convert(n),
            Value::Object(map) if node.has_children() => {
                for (k, child) in map.iter_mut() {
                    if let Some(c) = node.for_key(k) {
                        queue(child, c);
                    }
                }
            }
            Value::Array(items) if node.has_children() => {
                for (i, child) in items.iter_mut().enumerate() {
                    if let Some(c) = node.for_index(i) {
                        queue(child, c);
                    }
                }
            }
            _ => {}
        }
    }

    /// The first float at an integer place that no integer can stand for although it is
    /// integral (`1e300`): JSON Schema calls it an integer, no handler can read it as one.
    /// Iterative, and like [`IntegerPlan::apply`] allocation-free for a flat input.
    fn check_range<'a>(&self, value: &'a Value) -> Result<(), String> {
        let mut stack: Vec<Pending<'a>> = Vec::new();
        // The steps to the container being visited: in depth-first order its parent's steps
        // are the first `depth - 1` entries when it is popped.
        let mut path: Vec<Step<'a>> = Vec::new();
        if self.nodes[0].integer && too_large(value) {
            return Err(too_large_message(&path, None, value));
        }
        let root = Pending {
            value,
            node: 0,
            depth: 0,
            step: None,
        };
        let mut next = Some(root);
        while let Some(p) = next.take().or_else(|| stack.pop()) {
            path.truncate(p.depth.saturating_sub(1));
            path.extend(p.step);
            let node = &self.nodes[p.node as usize];
            let mut member = |child: &'a Value, c: u32, step: Step<'a>| match child {
                Value::Number(_) if self.nodes[c as usize].integer && too_large(child) => {
                    Err(too_large_message(&path, Some(step), child))
                }
                Value::Object(_) | Value::Array(_) => {
                    stack.push(Pending {
                        value: child,
                        node: c,
                        depth: p.depth + 1,
                        step: Some(step),
                    });
                    Ok(())
                }
                _ => Ok(()),
            };
            match p.value {
                Value::Object(map) if node.has_children() => {
                    for (k, child) in map {
                        if let Some(c) = node.for_key(k) {
                            member(child, c, Step::Key(k))?;
                        }
                    }
                }
                Value::Array(items) if node.has_children() => {
                    for (i, child) in items.iter().enumerate() {
                        if let Some(c) = node.for_index(i) {
                            member(child, c, Step::Index(i))?;
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The plan of `schema`, or `None` when no place in it wants an integer.
    fn compile(schema: &Value) -> Option<IntegerPlan> {
        let mut builder = PlanBuilder {
            root: schema,
            sets: Vec::new(),
            memo: HashMap::new(),
            integer_leaf: None,
        };
        let root = builder.node_for(&[schema])?;
        debug_assert_eq!(root, 0);
        let mut nodes: Vec<PlanNode> = Vec::with_capacity(builder.sets.len());
        // Expand in creation order; expanding may create more (bounded by MAX_PLAN_NODES).
        let mut next = 0;
        while next < builder.sets.len() {
            let node = builder.expand(next);
            nodes.push(node);
            next += 1;
        }
        // Keep only edges that lead to an integer place: `useful` grows to a fixed point.
        let mut useful: Vec<bool> = nodes.iter().map(|n| n.integer).collect();
        loop {
            let mut changed = false;
            for (i, n) in nodes.iter().enumerate() {
                if useful[i] {
                    continue;
                }
                let children = n
                    .properties
                    .iter()
                    .filter_map(|(_, c)| *c)
                    .chain(n.other_properties)
                    .chain(n.prefix_items.iter().filter_map(|c| *c))
                    .chain(n.items);
                if children.into_iter().any(|c| useful[c as usize]) {
                    useful[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if !useful[0] {
            return None;
        }
        let keep = |c: Option<u32>| c.filter(|&c| useful[c as usize]);
        for n in &mut nodes {
            for (_, c) in &mut n.properties {
                *c = keep(*c);
            }
            n.other_properties = keep(n.other_properties);
            // A named key with nothing to do needs its entry only to shadow other_properties.
            if n.other_properties.is_none() {
                n.properties.retain(|(_, c)| c.is_some());
            }
            for c in &mut n.prefix_items {
                *c = keep(*c);
            }
            n.items = keep(n.items);
            if n.items.is_none() {
                while n.prefix_items.last() == Some(&None) {
                    n.prefix_items.pop();
                }
            }
        }
        Some(IntegerPlan { nodes })
    }
}

/// Builds an [`IntegerPlan`]: each node is a distinct set of schemas applying at one place.
struct PlanBuilder<'s> {
    root: &'s Value,
    /// The schemas of each node (index = node id).
    sets: Vec<Vec<&'s Value>>,
    /// Node ids by the addresses of their schemas (sorted).
    memo: HashMap<Vec<usize>, u32>,
    /// The node shared by every integer place without children (`{"type": "integer"}`).
    integer_leaf: Option<u32>,
}

impl<'s> PlanBuilder<'s> {
    /// The node for the place where `seeds` apply (following `$ref` and the `*Of` branches),
    /// made if new. `None` when nothing applies or the node bound is reached.
    fn node_for(&mut self, seeds: &[&'s Value]) -> Option<u32> {
        let set = self.applying(seeds);
        if set.is_empty() {
            return None;
        }
        // A place without children: only whether it is an integer matters. Not at the root
        // (node 0), whose children the walk always looks up.
        if !self.sets.is_empty() && !set.iter().any(|s| has_children(s)) {
            let (integer, number) = set
                .iter()
                .map(|s| type_hint(s))
                .fold((false, false), |(a, b), (i, n)| (a || i, b || n));
            if !integer || number {
                return None;
            }
            if let Some(id) = self.integer_leaf {
                return Some(id);
            }
            // Made even past the bound (once), so places already planned keep their integers.
            let id = self.sets.len() as u32;
            self.sets.push(set);
            self.integer_leaf = Some(id);
            return Some(id);
        }
        let mut key: Vec<usize> = set.iter().map(|s| addr(s)).collect();
        key.sort_unstable();
        if let Some(&id) = self.memo.get(&key) {
            return Some(id);
        }
        if self.sets.len() >= MAX_PLAN_NODES {
            return None;
        }
        let id = self.sets.len() as u32;
        self.sets.push(set);
        self.memo.insert(key, id);
        Some(id)
    }

    /// The object schemas applying where `seeds` apply, each once, at most [`MAX_APPLYING`].
    fn applying(&self, seeds: &[&'s Value]) -> Vec<&'s Value> {
        let mut out: Vec<&'s Value> = Vec::new();
        let mut todo: Vec<&'s Value> = seeds.iter().rev().copied().collect();
        while let Some(s) = todo.pop() {
            let Value::Object(m) = s else { continue };
            if out.iter().any(|o| std::ptr::eq(*o, s)) {
                continue;
            }
            if out.len() == MAX_APPLYING {
                break;
            }
            out.push(s);
            if let Some(target) = m
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| resolve(self.root, r))
            {
                todo.push(target);
            }
            for kw in ["allOf", "anyOf", "oneOf"] {
                if let Some(Value::Array(branches)) = m.get(kw) {
                    todo.extend(branches.iter().rev());
                }
            }
        }
        out
    }

    /// The node of the set with id `id`: whether it is an integer place, and its children.
    fn expand(&mut self, id: usize) -> PlanNode {
        let set = self.sets[id].clone();
        let mut integer = false;
        let mut number = false;
        for s in &set {
            let (i, n) = type_hint(s);
            integer |= i;
            number |= n;
        }
        let mut node = PlanNode {
            integer: integer && !number,
            ..PlanNode::default()
        };
        // Objects: every key some schema names, then the rest.
        let mut keys: Vec<&'s str> = Vec::new();
        for s in &set {
            if let Some(Value::Object(props)) = s.get("properties") {
                keys.extend(props.keys().map(String::as_str));
            }
        }
        keys.sort_unstable();
        keys.dedup();
        for key in keys {
            let seeds: Vec<&'s Value> = set.iter().filter_map(|s| property(s, key)).collect();
            node.properties
                .push((key.to_string(), self.node_for(&seeds)));
        }
        let others: Vec<&'s Value> = set.iter().filter_map(|s| other_properties(s)).collect();
        node.other_properties = self.node_for(&others);
        // Arrays: tuple positions, then the rest.
        let longest = set.iter().map(|s| prefix_items(s).len()).max().unwrap_or(0);
        for i in 0..longest.min(MAX_PREFIX_ITEMS) {
            let seeds: Vec<&'s Value> = set
                .iter()
                .filter_map(|s| prefix_items(s).get(i).or_else(|| rest_items(s)))
                .collect();
            node.prefix_items.push(self.node_for(&seeds));
        }
        if longest <= MAX_PREFIX_ITEMS {
            let rest: Vec<&'s Value> = set.iter().filter_map(|s| rest_items(s)).collect();
            node.items = self.node_for(&rest);
        }
        node
    }
}

/// The address of a schema inside the document being compiled (its identity there).
fn addr(v: &Value) -> usize {
    v as *const Value as usize
}

/// `true` when `s` says something about the members of an object or array.
fn has_children(s: &Value) -> bool {
    [
        "properties",
        "additionalProperties",
        "items",
        "prefixItems",
        "additionalItems",
    ]
    .iter()
    .any(|k| s.get(k).is_some())
}

/// (says integer, allows number) for one schema's `type`, `const` and `enum`.
fn type_hint(s: &Value) -> (bool, bool) {
    let is_int = |v: &Value| v.is_i64() || v.is_u64();
    let mut integer = false;
    let mut number = false;
    match s.get("type") {
        Some(Value::String(t)) => {
            integer |= t == "integer";
            number |= t == "number";
        }
        Some(Value::Array(ts)) => {
            integer |= ts.iter().any(|t| t == "integer");
            number |= ts.iter().any(|t| t == "number");
        }
        _ => {}
    }
    if let Some(c) = s.get("const") {
        integer |= is_int(c);
        number |= c.is_f64();
    }
    if let Some(Value::Array(values)) = s.get("enum") {
        let numbers = values.iter().filter(|v| v.is_number());
        if numbers.clone().any(is_int) && numbers.clone().all(is_int) {
            integer = true;
        }
        number |= values.iter().any(Value::is_f64);
    }
    (integer, number)
}

/// What one object schema says about key `key`: its `properties` entry, else its
/// `additionalProperties` schema.
fn property<'s>(s: &'s Value, key: &str) -> Option<&'s Value> {
    match s.get("properties").and_then(|p| p.get(key)) {
        Some(v) => Some(v),
        None => other_properties(s),
    }
}

/// The `additionalProperties` schema of `s`, unless `s` has `patternProperties` (not followed,
/// so the keys it would not cover are unknown).
fn other_properties(s: &Value) -> Option<&Value> {
    let patterns = s
        .get("patternProperties")
        .and_then(Value::as_object)
        .is_some_and(|p| !p.is_empty());
    if patterns {
        return None;
    }
    s.get("additionalProperties").filter(|v| v.is_object())
}

/// Tuple schemas: `prefixItems` (2020-12) or an `items` array (older drafts).
fn prefix_items(s: &Value) -> &[Value] {
    if let Some(Value::Array(p)) = s.get("prefixItems") {
        return p;
    }
    match s.get("items") {
        Some(Value::Array(p)) => p,
        _ => &[],
    }
}

/// The schema for array positions past the tuple: `additionalItems` after an `items` array,
/// else an `items` schema.
fn rest_items(s: &Value) -> Option<&Value> {
    match s.get("items") {
        Some(Value::Array(_)) => s.get("additionalItems").filter(|v| v.is_object()),
        Some(v) if v.is_object() => Some(v),
        _ => None,
    }
}

/// Resolve a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any JSON Pointer fragment,
/// percent-encoded or not). Other references give `None`.
fn resolve<'s>(root: &'s Value, reference: &str) -> Option<&'s Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    if !fragment.starts_with('/') {
        return None;
    }
    root.pointer(&percent_decode(fragment)?)
}

fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A JSON Pointer (`/items/0/id`) for a path inside the input.
fn pointer(path: &[Step<'_>]) -> String {
    let mut out = String::new();
    for step in path {
        out.push('/');
        match step {
            Step::Key(k) => out.push_str(&k.replace('~', "~0").replace('/', "~1")),
            Step::Index(i) => out.push_str(&i.to_string()),
        }
    }
    out
}

#[cfg(test)]
mod tests;
