//! What `console` prints, as node 20 prints it, one line a call: `util.format` (the
//! `%s %d %i %f %j %o %O %c %%` directives, then the other arguments joined by spaces, strings
//! raw) over `util.inspect` with node's defaults (depth 2, `compact: 3`, 100 array items)
//! except `breakLength: Infinity`, so an entry is one line (node's own algorithm, which breaks
//! lines at a width, is kept for other widths); and `console.table`'s box drawing.
//!
//! The inspector never runs user code: getters print as `[Getter]`, and the properties it reads
//! for names (`constructor`, `name`, `message`, `Symbol.toStringTag`) count only when they are
//! data properties. Recursion is bounded by the depth option (at most `MAX_DATA_DEPTH`).

use super::*;

/// node's `kMinLineWidth`: strings longer than this may be split over lines.
const MIN_LINE_WIDTH: usize = 16;

/// Options of one inspection (node's `inspectDefaultOptions` where not set).
#[derive(Clone, Copy)]
pub(super) struct Options {
    /// Levels of nesting shown (`None`: all, up to `MAX_DATA_DEPTH`).
    pub depth: Option<usize>,
    /// Width before entries go on lines of their own (`usize::MAX`: never).
    pub break_length: usize,
    /// How many inner levels may share a line (node's `compact`).
    pub compact: usize,
    /// Array, Set and Map entries shown.
    pub max_array_length: usize,
    /// Non-enumerable properties too, as `[key]: value` (`%o`).
    pub show_hidden: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth: Some(2),
            break_length: usize::MAX,
            compact: 3,
            max_array_length: 100,
            show_hidden: false,
        }
    }
}

/// Where an entry goes (node's `kObjectType`, `kArrayType`, `kArrayExtrasType`).
#[derive(Clone, Copy, PartialEq)]
enum Entry {
    Object,
    Array,
    ArrayExtras,
}

struct Ctx {
    opts: Options,
    seen: Vec<ObjId>,
    circular: Vec<ObjId>,
    indentation: usize,
    current_depth: usize,
    /// Output bytes so far: past `MAX_STRING_LENGTH` the inspection stops with a RangeError.
    budget: usize,
}

/// `util.format(...args)`.
pub(super) fn format(vm: &mut Vm, args: &[Value]) -> Res<String> {
    let mut out = String::new();
    let mut rest = 0;
    if let Some(Value::Str(s)) = args.first() {
        let f: Vec<u16> = vm.heap.str(*s).units();
        rest = 1;
        if f.contains(&(b'%' as u16)) {
            let mut i = 0;
            let mut last = 0;
            let mut text: Vec<u16> = Vec::new();
            while i + 1 < f.len() {
                if f[i] == b'%' as u16 {
                    let c = f[i + 1];
                    let piece: Option<String> = if c == b'%' as u16 {
                        text.extend_from_slice(&f[last..i]);
                        text.push(b'%' as u16);
                        last = i + 2;
                        i += 2;
                        continue;
                    } else if rest < args.len() && b"sdifjoOc".contains(&(c as u8)) && c < 128 {
                        let a = args[rest];
                        rest += 1;
                        Some(directive(vm, c as u8, a)?)
                    } else {
                        None
                    };
                    if let Some(p) = piece {
                        text.extend_from_slice(&f[last..i]);
                        text.extend(p.encode_utf16());
                        last = i + 2;
                        i += 2;
                        continue;
                    }
                }
                i += 1;
            }
            text.extend_from_slice(&f[last..]);
            out.push_str(&String::from_utf16_lossy(&text));
        } else {
            out.push_str(&String::from_utf16_lossy(&f));
        }
    }
    for (n, a) in args.iter().enumerate().skip(rest) {
        if n > 0 {
            out.push(' ');
        }
        match a {
            Value::Str(s) => out.push_str(&vm.heap.str(*s).to_rust()),
            v => out.push_str(&inspect_with(vm, *v, Options::default())?),
        }
        if out.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    Ok(out)
}

/// One `%x` directive of `util.format` applied to `a`.
fn directive(vm: &mut Vm, c: u8, a: Value) -> Res<String> {
    Ok(match c {
        b's' => match a {
            Value::Num(n) => number_text(n),
            Value::Obj(o) if !has_own_to_string(vm, o) => inspect_with(
                vm,
                a,
                Options {
                    depth: Some(0),
                    ..Options::default()
                },
            )?,
            Value::Sym(_) => inspect_with(vm, a, Options::default())?,
            v => {
                let s = vm.to_string(v)?;
                vm.heap.str(s).to_rust()
            }
        },
        b'd' | b'i' | b'f' => match a {
            Value::Sym(_) => "NaN".to_string(),
            Value::Obj(_) => "NaN".to_string(),
            v => {
                let n = vm.to_number(v)?;
                let n = match c {
                    b'i' => n.trunc(),
                    _ => n,
                };
                number_text(n)
            }
        },
        b'j' => {
            let mut out = String::new();
            let mut stack = Vec::new();
            match super::json::json_into(
                vm,
                a,
                super::json::Seg::Root,
                &mut out,
                &mut stack,
                "",
                &None,
            ) {
                Ok(super::json::Fast::Done) => out,
                Ok(_) => "undefined".to_string(),
                Err(_) => "[Circular]".to_string(),
            }
        }
        b'o' => inspect_with(
            vm,
            a,
            Options {
                depth: Some(4),
                show_hidden: true,
                ..Options::default()
            },
        )?,
        b'O' => inspect_with(vm, a, Options::default())?,
        _ => String::new(), // %c: CSS, consumed and dropped
    })
}

/// `true` when `o` or a prototype below `Object.prototype` (or `Error.prototype`) defines
/// `toString` itself (node's `hasBuiltInToString` negated).
fn has_own_to_string(vm: &mut Vm, o: ObjId) -> bool {
    let key = vm.heap.key("toString");
    let mut cur = Some(o);
    let mut guard = 0;
    while let Some(c) = cur {
        if Some(c) == vm.intr.object_proto || Some(c) == vm.intr.error_proto {
            return false;
        }
        if vm.heap.obj(c).props.get(key).is_some() {
            return !matches!(vm.heap.obj(c).kind, Kind::Array(_) | Kind::Function(_))
                && !is_intrinsic_proto(vm, c);
        }
        cur = vm.heap.obj(c).proto;
        guard += 1;
        if guard > crate::limits::MAX_PROTO_CHAIN {
            return false;
        }
    }
    false
}

fn is_intrinsic_proto(vm: &Vm, o: ObjId) -> bool {
    let i = &vm.intr;
    [
        i.array_proto,
        i.function_proto,
        i.string_proto,
        i.number_proto,
        i.boolean_proto,
        i.symbol_proto,
        i.map_proto,
        i.set_proto,
    ]
    .contains(&Some(o))
}

/// `util.inspect(v, opts)`.
pub(super) fn inspect_with(vm: &mut Vm, v: Value, opts: Options) -> Res<String> {
    let mut ctx = Ctx {
        opts,
        seen: Vec::new(),
        circular: Vec::new(),
        indentation: 0,
        current_depth: 0,
        budget: 0,
    };
    let mut opts = opts;
    if let Some(d) = opts.depth {
        opts.depth = Some(d.min(MAX_DATA_DEPTH));
    } else {
        opts.depth = Some(MAX_DATA_DEPTH);
    }
    ctx.opts = opts;
    value(vm, &mut ctx, v, 0)
}

fn number_text(n: f64) -> String {
    if n == 0.0 && n.is_sign_negative() {
        "-0".to_string()
    } else {
        crate::number::to_string(n)
    }
}

/// node's `strEscape`: the string quoted with `'` (or `"` or a backtick when that avoids
/// escapes), control characters and lone surrogates escaped.
fn quote(units: &[u16]) -> String {
    let has = |c: u8| units.contains(&(c as u16));
    let mut q = b'\'';
    if has(b'\'') {
        if !has(b'"') {
            q = b'"';
        } else if !has(b'`') && !units.windows(2).any(|w| w == [b'$' as u16, b'{' as u16]) {
            q = b'`';
        }
    }
    let mut out = String::with_capacity(units.len() + 2);
    out.push(q as char);
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        match u {
            0x27 if q == b'\'' => out.push_str("\\'"),
            0x5c => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            0x09 => out.push_str("\\t"),
            0x0a => out.push_str("\\n"),
            0x0c => out.push_str("\\f"),
            0x0d => out.push_str("\\r"),
            u if u < 0x20 || (0x7f..0xa0).contains(&u) => {
                out.push_str(&format!("\\x{u:02X}"));
            }
            0xd800..=0xdbff if i + 1 < units.len() && (0xdc00..=0xdfff).contains(&units[i + 1]) => {
                out.push_str(&String::from_utf16_lossy(&units[i..i + 2]));
                i += 1;
            }
            0xd800..=0xdfff => out.push_str(&format!("\\u{u:x}")),
            u => out.push(char::from_u32(u as u32).unwrap_or('\u{fffd}')),
        }
        i += 1;
    }
    out.push(q as char);
    out
}

fn primitive(vm: &mut Vm, ctx: &Ctx, v: Value) -> String {
    match v {
        Value::Str(s) => {
            let units = vm.heap.str(s).units();
            let n = units.len();
            if n > MIN_LINE_WIDTH
                && n > ctx
                    .opts
                    .break_length
                    .saturating_sub(ctx.indentation)
                    .saturating_sub(4)
            {
                // Split after each newline, one quoted piece per line.
                let mut pieces = Vec::new();
                let mut start = 0;
                for (i, u) in units.iter().enumerate() {
                    if *u == 0x0a {
                        pieces.push(quote(&units[start..=i]));
                        start = i + 1;
                    }
                }
                if start < n {
                    pieces.push(quote(&units[start..]));
                }
                let sep = format!(" +\n{}", " ".repeat(ctx.indentation + 2));
                return pieces.join(&sep);
            }
            quote(&units)
        }
        Value::Num(n) => number_text(n),
        Value::Bool(b) => b.to_string(),
        Value::Undefined | Value::Empty => "undefined".to_string(),
        Value::Null => "null".to_string(),
        Value::Sym(s) => symbol_text(vm, s),
        Value::Obj(_) => String::new(),
    }
}

fn symbol_text(vm: &Vm, s: crate::value::SymId) -> String {
    let d = vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
    format!("Symbol({d})")
}

/// A data property of `o` or its prototypes (`None` for accessors and absent ones).
fn data_get(vm: &mut Vm, o: ObjId, key: Key) -> Option<Value> {
    match data_lookup(vm, o, key) {
        Lookup::Data(v) => Some(v),
        _ => None,
    }
}

fn own_data_string(vm: &mut Vm, o: ObjId, name: &str) -> Option<String> {
    let k = vm.heap.key(name);
    match vm.own(o, k) {
        Some(crate::heap::Prop {
            slot: Slot::Data(Value::Str(s)),
            ..
        }) => Some(vm.heap.str(s).to_rust()),
        _ => None,
    }
}

fn data_string(vm: &mut Vm, o: ObjId, name: &str) -> Option<String> {
    let k = vm.heap.key(name);
    match data_get(vm, o, k) {
        Some(Value::Str(s)) => Some(vm.heap.str(s).to_rust()),
        _ => None,
    }
}

/// node's `getConstructorName`: the `name` of the first `constructor` along the chain
/// (`None` for a null-prototype chain).
fn constructor_name(vm: &mut Vm, o: ObjId) -> Option<String> {
    let key = vm.heap.key("constructor");
    let mut cur = Some(o);
    let mut guard = 0;
    while let Some(c) = cur {
        if let Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(f)),
            ..
        }) = vm.own(c, key)
            && matches!(vm.heap.obj(f).kind, Kind::Function(_))
            && let Some(name) = own_data_string(vm, f, "name")
            && !name.is_empty()
        {
            return Some(name);
        }
        if Some(c) == vm.intr.function_proto {
            return Some("Function".to_string());
        }
        cur = vm.heap.obj(c).proto;
        guard += 1;
        if guard > crate::limits::MAX_PROTO_CHAIN {
            break;
        }
    }
    if vm.heap.obj(o).proto.is_none() {
        None
    } else {
        Some("Object".to_string())
    }
}

/// node's `getPrefix`.
fn prefix(constructor: &Option<String>, tag: &str, fallback: &str, size: &str) -> String {
    match constructor {
        None if !tag.is_empty() && fallback != tag => {
            format!("[{fallback}{size}: null prototype] [{tag}] ")
        }
        None => format!("[{fallback}{size}: null prototype] "),
        Some(c) if !tag.is_empty() && c != tag => format!("{c}{size} [{tag}] "),
        Some(c) => format!("{c}{size} "),
    }
}

fn value(vm: &mut Vm, ctx: &mut Ctx, v: Value, recurse: usize) -> Res<String> {
    vm.work(1);
    let Value::Obj(o) = v else {
        return Ok(primitive(vm, ctx, v));
    };
    if ctx.seen.contains(&o) {
        let index = match ctx.circular.iter().position(|c| *c == o) {
            Some(i) => i + 1,
            None => {
                ctx.circular.push(o);
                ctx.circular.len()
            }
        };
        return Ok(format!("[Circular *{index}]"));
    }
    raw(vm, ctx, o, recurse)
}

/// The properties to list: own enumerable keys (strings, then symbols), without array
/// indices for arrays and strings.
fn keys_of(vm: &mut Vm, ctx: &Ctx, o: ObjId, skip_indices: bool) -> Vec<Key> {
    let mut keys: Vec<Key> = own_keys(vm, o, !ctx.opts.show_hidden)
        .into_iter()
        .filter(|k| !(skip_indices && matches!(k, Key::Index(_))))
        .collect();
    if ctx.opts.show_hidden && matches!(vm.heap.obj(o).kind, Kind::Array(_)) {
        let k = vm.heap.key("length");
        if !keys.contains(&k) {
            keys.insert(0, k);
        }
    }
    keys
}

fn raw(vm: &mut Vm, ctx: &mut Ctx, o: ObjId, mut recurse: usize) -> Res<String> {
    let constructor = constructor_name(vm, o);
    let tag = match vm.intr.sym_to_string_tag {
        Some(t) => {
            let k = Key::Sym(t);
            let own_enumerable = vm.own(o, k).is_some_and(|p| p.attrs & ENUMERABLE != 0);
            match data_get(vm, o, k) {
                Some(Value::Str(s)) if !own_enumerable => vm.heap.str(s).to_rust(),
                _ => String::new(),
            }
        }
        None => String::new(),
    };
    let kind = match vm.heap.obj(o).kind {
        // A Uint8Array prints as an array of its numbers (the first ones, as node shows).
        Kind::Bytes { len, .. } => {
            let shown = super::bytes::bytes_of(vm, o)
                .iter()
                .take(ctx.opts.max_array_length.saturating_add(1))
                .map(|b| Value::Num(f64::from(*b)))
                .collect();
            let mut e = Elems::from_vec(shown);
            e.set_len(len as usize);
            Kind::Array(e)
        }
        ref k => k.clone(),
    };
    let mut base = String::new();
    let mut braces = ("{".to_string(), "}".to_string());
    let mut extras = Entry::Object;
    let keys: Vec<Key>;
    enum Body {
        Props,
        Array(Elems),
        Set(Vec<Value>),
        Map(Vec<(Value, Value)>),
        /// A Map or Set iterator's entries still to come (node's `previewEntries`), and how
        /// many there are.
        Iter(Vec<Value>, usize),
        /// An entries iterator's pairs still to come, and how many there are.
        IterPairs(Vec<(Value, Value)>, usize),
        /// A WeakMap's or WeakSet's entries, shown only with `show_hidden` (node's
        /// `formatWeakCollection`, else `formatWeakSet`/`formatWeakMap`: sorted).
        Weak(Vec<(Value, Option<Value>)>, usize),
        /// A promise's state and value (node's `formatPromise`).
        Promise(crate::vm::coro::PState, Value),
    }
    let mut body = Body::Props;
    match &kind {
        Kind::Array(items) => {
            keys = keys_of(vm, ctx, o, true);
            let p = if constructor.as_deref() != Some("Array") || !tag.is_empty() {
                prefix(&constructor, &tag, "Array", &format!("({})", items.len()))
            } else {
                String::new()
            };
            braces = (format!("{p}["), "]".to_string());
            if items.is_empty() && keys.is_empty() {
                return Ok(format!("{}]", braces.0));
            }
            extras = Entry::ArrayExtras;
            body = Body::Array(items.clone());
        }
        Kind::Set(items) => {
            let items: Vec<Value> = items.iter().map(|(k, _)| k).collect();
            keys = keys_of(vm, ctx, o, false);
            let p = prefix(&constructor, &tag, "Set", &format!("({})", items.len()));
            if items.is_empty() && keys.is_empty() {
                return Ok(format!("{p}{{}}"));
            }
            braces = (format!("{p}{{"), "}".to_string());
            body = Body::Set(items);
        }
        Kind::Map(entries) => {
            let entries: Vec<(Value, Value)> = entries.iter().collect();
            keys = keys_of(vm, ctx, o, false);
            let p = prefix(&constructor, &tag, "Map", &format!("({})", entries.len()));
            if entries.is_empty() && keys.is_empty() {
                return Ok(format!("{p}{{}}"));
            }
            braces = (format!("{p}{{"), "}".to_string());
            body = Body::Map(entries);
        }
        Kind::Encoder => return Ok("{ encoding: 'utf-8' }".to_string()),
        Kind::Decoder(d) => {
            return Ok(format!(
                "TextDecoder {{ encoding: 'utf-8', fatal: {}, ignoreBOM: {} }}",
                d.fatal, d.ignore_bom
            ));
        }
        Kind::Url(_) | Kind::Params(_) => {
            // node's own inspection of them (a field list; `'name' => 'value'` pairs).
            let q = |s: &str| quote(&s.encode_utf16().collect::<Vec<u16>>());
            let params = |list: &[(String, String)]| {
                if list.is_empty() {
                    return "URLSearchParams {}".to_string();
                }
                let pairs: Vec<String> = list
                    .iter()
                    .map(|(k, v)| format!("{} => {}", q(k), q(v)))
                    .collect();
                format!("URLSearchParams {{ {} }}", pairs.join(", "))
            };
            return Ok(match &kind {
                Kind::Params(list) => params(list),
                Kind::Url(u) => {
                    let fields = super::url::fields(u);
                    let query = super::url::query_list(u);
                    let mut parts: Vec<String> = fields
                        .iter()
                        .map(|(k, v)| format!("{k}: {}", q(v)))
                        .collect();
                    parts.insert(10, format!("searchParams: {}", params(&query)));
                    format!("URL {{ {} }}", parts.join(", "))
                }
                _ => String::new(),
            });
        }
        Kind::Date(t) => {
            keys = keys_of(vm, ctx, o, false);
            let shown = if t.is_nan() {
                "Invalid Date".to_string()
            } else {
                super::date::iso(*t)
            };
            base = match constructor.as_deref() {
                Some("Date") => shown,
                Some(c) => format!("{c} {shown}"),
                None => format!("[Date: null prototype] {shown}"),
            };
            if keys.is_empty() {
                return Ok(base);
            }
        }
        Kind::Arguments(items) => {
            keys = keys_of(vm, ctx, o, true);
            braces = ("[Arguments] [".to_string(), "]".to_string());
            if items.is_empty() && keys.is_empty() {
                return Ok("[Arguments] []".to_string());
            }
            extras = Entry::ArrayExtras;
            body = Body::Array(items.clone());
        }
        Kind::Function(f) => {
            keys = keys_of(vm, ctx, o, false);
            base = function_base(vm, o, f, &constructor, &tag);
            if keys.is_empty() {
                return Ok(base);
            }
        }
        Kind::RegExp(r) => {
            // `lastIndex` is an own property but not enumerable: node shows none.
            keys = keys_of(vm, ctx, o, false);
            base = super::regexp::inspect_form(r);
            if keys.is_empty() {
                return Ok(base);
            }
        }
        Kind::Number(_) | Kind::String(_) | Kind::Boolean(_) => {
            let is_string = matches!(kind, Kind::String(_));
            keys = keys_of(vm, ctx, o, is_string);
            let (ty, prim) = match kind {
                Kind::Number(n) => ("Number", Value::Num(n)),
                Kind::String(s) => ("String", Value::Str(s)),
                Kind::Boolean(b) => ("Boolean", Value::Bool(b)),
                _ => unreachable!(),
            };
            let mut b = format!("[{ty}");
            match &constructor {
                None => b.push_str(" (null prototype)"),
                Some(c) if c != ty => b.push_str(&format!(" ({c})")),
                _ => {}
            }
            // The boxed value prints as a top-level primitive (never split over lines).
            let shown = match prim {
                Value::Str(st) => quote(&vm.heap.str(st).units()),
                p => primitive(vm, ctx, p),
            };
            b.push_str(&format!(": {shown}]"));
            if !tag.is_empty() && Some(&tag) != constructor.as_ref() {
                b.push_str(&format!(" [{tag}]"));
            }
            base = b;
            if keys.is_empty() {
                return Ok(base);
            }
        }
        Kind::Iterator(Iter::Table { target, pos, kind }) => {
            keys = keys_of(vm, ctx, o, false);
            let (ty, rest) = table_rest(vm, *target, *pos, ctx.opts.max_array_length);
            // node's `getIteratorBraces`, `Entries` for an entries iterator.
            let own = format!("{ty} Iterator");
            let mut t = tag.clone();
            if t != own {
                if !t.is_empty() {
                    t.push_str("] [");
                }
                t.push_str(&own);
            }
            if *kind == 2 {
                t = format!("{} Entries", t.strip_suffix(" Iterator").unwrap_or(&t));
            }
            braces.0 = format!("[{t}] {{");
            body = match (rest, *kind) {
                ((list, n), 2) => Body::IterPairs(list, n),
                ((list, n), 0) => Body::Iter(list.into_iter().map(|(k, _)| k).collect(), n),
                ((list, n), _) => Body::Iter(list.into_iter().map(|(_, v)| v).collect(), n),
            };
        }
        Kind::WeakMap(t) | Kind::WeakSet(t) => {
            keys = keys_of(vm, ctx, o, false);
            let is_map = matches!(kind, Kind::WeakMap(_));
            let fallback = if is_map { "WeakMap" } else { "WeakSet" };
            braces.0 = format!("{}{{", prefix(&constructor, &tag, fallback, ""));
            let max = ctx.opts.max_array_length;
            let list = t
                .iter()
                .take(if ctx.opts.show_hidden { max } else { 0 })
                .map(|(k, v)| (k, is_map.then_some(v)))
                .collect();
            body = Body::Weak(list, t.len());
        }
        Kind::Promise(p) => {
            keys = keys_of(vm, ctx, o, false);
            braces.0 = format!("{}{{", prefix(&constructor, &tag, "Promise", ""));
            body = Body::Promise(p.state, p.result);
        }
        _ if is_error(vm, o) => {
            let mut k = keys_of(vm, ctx, o, false);
            base = error_base(vm, ctx, o, &constructor, &tag, &mut k);
            keys = k;
            if keys.is_empty() {
                return Ok(base);
            }
        }
        _ => {
            keys = keys_of(vm, ctx, o, false);
            if constructor.as_deref() == Some("Object") {
                if !tag.is_empty() {
                    braces.0 = format!("{}{{", prefix(&constructor, &tag, "Object", ""));
                }
                if keys.is_empty() {
                    return Ok(format!("{}}}", braces.0));
                }
            } else {
                let p = prefix(&constructor, &tag, "Object", "");
                if keys.is_empty() {
                    return Ok(format!("{p}{{}}"));
                }
                braces.0 = format!("{p}{{");
            }
        }
    }
    if ctx.opts.depth.is_some_and(|d| recurse > d) {
        let name = prefix(&constructor, &tag, "Object", "");
        let name = &name[..name.len() - 1];
        return Ok(if constructor.is_some() {
            format!("[{name}]")
        } else {
            name.to_string()
        });
    }
    recurse += 1;
    ctx.seen.push(o);
    ctx.current_depth = recurse;
    let mut output: Vec<String> = Vec::new();
    match body {
        Body::Props => {}
        Body::Array(items) => array_entries(vm, ctx, o, &items, recurse, &mut output)?,
        Body::Set(items) => {
            ctx.indentation += 2;
            let shown = items.len().min(ctx.opts.max_array_length);
            for v in &items[..shown] {
                output.push(value(vm, ctx, *v, recurse)?);
            }
            if items.len() > shown {
                output.push(more_items(items.len() - shown));
            }
            ctx.indentation -= 2;
        }
        Body::Map(entries) => {
            ctx.indentation += 2;
            let shown = entries.len().min(ctx.opts.max_array_length);
            for (k, v) in &entries[..shown] {
                let ks = value(vm, ctx, *k, recurse)?;
                let vs = value(vm, ctx, *v, recurse)?;
                output.push(format!("{ks} => {vs}"));
            }
            if entries.len() > shown {
                output.push(more_items(entries.len() - shown));
            }
            ctx.indentation -= 2;
        }
        Body::Iter(items, total) => {
            ctx.indentation += 2;
            for v in &items {
                output.push(value(vm, ctx, *v, recurse)?);
            }
            ctx.indentation -= 2;
            if total > items.len() {
                output.push(more_items(total - items.len()));
            }
        }
        Body::IterPairs(pairs, total) => {
            ctx.indentation += 2;
            for (k, v) in &pairs {
                let pair = vec![value(vm, ctx, *k, recurse)?, value(vm, ctx, *v, recurse)?];
                let brackets = ("[".to_string(), "]".to_string());
                let kind = Kind::Ordinary;
                output.push(reduce(
                    ctx,
                    pair,
                    "",
                    &brackets,
                    Entry::ArrayExtras,
                    recurse,
                    &kind,
                ));
            }
            ctx.indentation -= 2;
            if total > pairs.len() {
                output.push(more_items(total - pairs.len()));
            }
        }
        Body::Weak(_, _) if !ctx.opts.show_hidden => output.push("<items unknown>".to_string()),
        Body::Weak(list, total) => {
            ctx.indentation += 2;
            let mut shown = Vec::new();
            for (k, v) in &list {
                let ks = value(vm, ctx, *k, recurse)?;
                shown.push(match v {
                    Some(v) => format!("{ks} => {}", value(vm, ctx, *v, recurse)?),
                    None => ks,
                });
            }
            ctx.indentation -= 2;
            shown.sort();
            output.extend(shown);
            if total > list.len() {
                output.push(more_items(total - list.len()));
            }
        }
        Body::Promise(state, result) => {
            use crate::vm::coro::PState;
            output.push(match state {
                PState::Pending => "<pending>".to_string(),
                PState::Fulfilled | PState::Rejected => {
                    ctx.indentation += 2;
                    let shown = value(vm, ctx, result, recurse)?;
                    ctx.indentation -= 2;
                    if state == PState::Rejected {
                        format!("<rejected> {shown}")
                    } else {
                        shown
                    }
                }
            });
        }
    }
    for k in keys {
        output.push(property(vm, ctx, o, k, recurse, extras)?);
    }
    if let Some(i) = ctx.circular.iter().position(|c| *c == o) {
        let reference = format!("<ref *{}>", i + 1);
        base = if base.is_empty() {
            reference
        } else {
            format!("{reference} {base}")
        };
    }
    ctx.seen.pop();
    let res = reduce(ctx, output, &base, &braces, extras, recurse, &kind);
    ctx.budget += res.len();
    if ctx.budget > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    Ok(res)
}

/// Some (key, value) entries of a collection, and how many it has in all.
type Preview = (Vec<(Value, Value)>, usize);

/// The entries of Map or Set `target` from slot `pos` on (a Map or Set iterator's preview):
/// the type's name, at most `max` (key, value) pairs, and how many entries remain in all.
fn table_rest(vm: &mut Vm, target: ObjId, pos: u32, max: usize) -> (&'static str, Preview) {
    let (ty, t) = match &vm.heap.obj(target).kind {
        Kind::Map(t) => ("Map", t),
        Kind::Set(t) => ("Set", t),
        _ => return ("Map", (Vec::new(), 0)),
    };
    let mut list = Vec::new();
    let mut total = 0;
    let mut at = pos as usize;
    while pos != u32::MAX
        && let Some((i, k, v)) = t.next_live(at)
    {
        if list.len() < max {
            list.push((k, v));
        }
        total += 1;
        at = i + 1;
    }
    vm.work(total / 8);
    (ty, (list, total))
}

fn more_items(n: usize) -> String {
    format!("... {n} more item{}", if n > 1 { "s" } else { "" })
}

/// The elements of an array (holes as `<n empty items>`), at most `max_array_length`.
fn array_entries(
    vm: &mut Vm,
    ctx: &mut Ctx,
    _o: ObjId,
    items: &Elems,
    recurse: usize,
    output: &mut Vec<String>,
) -> Res<()> {
    let len = items.len();
    let max = ctx.opts.max_array_length.min(len);
    let mut i = 0;
    while i < len && output.len() < max {
        let Some(v) = items.get(i) else {
            let j = items.range(i, len).next().map_or(len, |(j, _)| j);
            let n = j - i;
            output.push(format!("<{n} empty item{}>", if n > 1 { "s" } else { "" }));
            i = j;
            continue;
        };
        ctx.indentation += 2;
        let s = value(vm, ctx, v, recurse);
        ctx.indentation -= 2;
        output.push(s?);
        i += 1;
    }
    if i < len {
        output.push(more_items(len - i));
    }
    Ok(())
}

/// One `key: value` entry (node's `formatProperty`).
fn property(
    vm: &mut Vm,
    ctx: &mut Ctx,
    o: ObjId,
    key: Key,
    recurse: usize,
    ty: Entry,
) -> Res<String> {
    let prop = vm.own(o, key);
    let s = match prop.map(|p| p.slot) {
        Some(Slot::Data(v)) => {
            ctx.indentation += 2;
            let s = value(vm, ctx, v, recurse);
            ctx.indentation -= 2;
            s?
        }
        Some(Slot::Accessor(g, s)) => match (g != Value::Undefined, s != Value::Undefined) {
            (true, true) => "[Getter/Setter]".to_string(),
            (true, false) => "[Getter]".to_string(),
            (false, true) => "[Setter]".to_string(),
            (false, false) => "undefined".to_string(),
        },
        None => "undefined".to_string(),
    };
    if ty == Entry::Array {
        return Ok(s);
    }
    let hidden = prop.is_some_and(|p| p.attrs & ENUMERABLE == 0);
    let name = match key {
        Key::Sym(sym) => format!("[{}]", symbol_text(vm, sym)),
        k if hidden => format!(
            "[{}]",
            vm.heap.key_str(k).map(|s| s.to_rust()).unwrap_or_default()
        ),
        k => {
            let text = vm.heap.key_str(k).unwrap_or_else(|| JsStr::from_str(""));
            let t = text.to_rust();
            if t == "__proto__" {
                "['__proto__']".to_string()
            } else if is_identifier(&t) {
                t
            } else {
                quote(&text.units())
            }
        }
    };
    Ok(format!("{name}: {s}"))
}

/// node's `keyStrRegExp`: `^[a-zA-Z_][a-zA-Z_0-9]*$`.
fn is_identifier(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

fn function_base(
    vm: &mut Vm,
    o: ObjId,
    f: &Func,
    constructor: &Option<String>,
    tag: &str,
) -> String {
    let (is_class, is_async, generator) = match f {
        Func::Closure { prog, func, .. } => {
            let p = &vm.progs[*prog as usize].funcs[*func as usize];
            (p.class_ctor, p.is_async, p.generator)
        }
        _ => (false, false, false),
    };
    let name = own_data_string(vm, o, "name").unwrap_or_default();
    if is_class {
        let mut base = format!(
            "class {}",
            if name.is_empty() {
                "(anonymous)"
            } else {
                &name
            }
        );
        match constructor {
            Some(c) if c != "Function" => base.push_str(&format!(" [{c}]")),
            _ => {}
        }
        if !tag.is_empty() && constructor.as_deref() != Some(tag) {
            base.push_str(&format!(" [{tag}]"));
        }
        if constructor.is_some() {
            if let Some(p) = vm.heap.obj(o).proto
                && let Some(sup) = own_data_string(vm, p, "name")
                && !sup.is_empty()
            {
                base.push_str(&format!(" extends {sup}"));
            }
        } else {
            base.push_str(" extends [null prototype]");
        }
        return format!("[{base}]");
    }
    // node's type: `Function`, `GeneratorFunction`, `AsyncFunction`, `AsyncGeneratorFunction`.
    let ty = format!(
        "{}{}Function",
        if is_async { "Async" } else { "" },
        if generator { "Generator" } else { "" }
    );
    let mut base = format!("[{ty}");
    if constructor.is_none() {
        base.push_str(" (null prototype)");
    }
    if name.is_empty() {
        base.push_str(" (anonymous)");
    } else {
        base.push_str(&format!(": {name}"));
    }
    base.push(']');
    match constructor {
        Some(c) if *c != ty => base.push_str(&format!(" {c}")),
        _ => {}
    }
    if !tag.is_empty() && constructor.as_deref() != Some(tag) {
        base.push_str(&format!(" [{tag}]"));
    }
    base
}

/// node's `formatError` for an error without stack frames: `[Name: message]`, with the
/// constructor's name where it differs, and `cause`/`errors` listed.
fn error_base(
    vm: &mut Vm,
    ctx: &Ctx,
    o: ObjId,
    constructor: &Option<String>,
    tag: &str,
    keys: &mut Vec<Key>,
) -> String {
    let name = data_string(vm, o, "name").unwrap_or_else(|| "Error".to_string());
    let message = data_string(vm, o, "message").unwrap_or_default();
    let mut stack = match (name.is_empty(), message.is_empty()) {
        (_, true) => name.clone(),
        (true, false) => message.clone(),
        _ => format!("{name}: {message}"),
    };
    // Own `name`, `message`, `stack` already in the text are not listed again.
    keys.retain(|k| {
        let Some(t) = vm.heap.key_str(*k).map(|s| s.to_rust()) else {
            return true;
        };
        if !matches!(t.as_str(), "name" | "message" | "stack") {
            return true;
        }
        let own = vm.own(o, *k);
        match own.map(|p| p.slot) {
            Some(Slot::Data(Value::Str(s))) => !stack.contains(&vm.heap.str(s).to_rust()),
            _ => true,
        }
    });
    for extra in ["cause", "errors"] {
        let k = vm.heap.key(extra);
        let present = vm.own(o, k).is_some();
        let listed = keys.contains(&k);
        let is_array = extra != "errors"
            || matches!(vm.own(o, k).map(|p| p.slot), Some(Slot::Data(Value::Obj(a))) if matches!(vm.heap.obj(a).kind, Kind::Array(_)));
        if present && !listed && is_array {
            keys.push(k);
        }
    }
    // improveStack: name the constructor when the error's own name does not.
    let len = name.len();
    if constructor.is_none()
        || (name.ends_with("Error")
            && stack.starts_with(&name)
            && (stack.len() == len || stack.as_bytes()[len] == b':'))
    {
        let fallback = "Error";
        let p = prefix(constructor, tag, fallback, "");
        let p = &p[..p.len() - 1];
        if name != p {
            stack = if p.contains(name.as_str()) {
                if len == 0 {
                    format!("{p}: {stack}")
                } else {
                    format!("{p}{}", &stack[len..])
                }
            } else {
                format!("{p} [{name}]{}", &stack[len..])
            };
        }
    }
    let mut out = format!("[{stack}]");
    if ctx.indentation != 0 {
        out = out.replace('\n', &format!("\n{}", " ".repeat(ctx.indentation)));
    }
    out
}

/// node's `reduceToSingleString`: one line when it fits and nests at most `compact` levels,
/// else one entry a line (numeric arrays first grouped in columns).
fn reduce(
    ctx: &Ctx,
    mut output: Vec<String>,
    base: &str,
    braces: &(String, String),
    extras: Entry,
    recurse: usize,
    kind: &Kind,
) -> String {
    let entries = output.len();
    if extras == Entry::ArrayExtras && entries > 6 {
        output = group(ctx, output, kind);
    }
    if ctx.current_depth - recurse < ctx.opts.compact && entries == output.len() {
        let start = output.len() + ctx.indentation + braces.0.len() + base.len() + 10;
        if below_break_length(ctx, &output, start, base) {
            let joined = output.join(", ");
            if !joined.contains('\n') {
                let b = if base.is_empty() {
                    String::new()
                } else {
                    format!("{base} ")
                };
                return format!("{b}{} {joined} {}", braces.0, braces.1);
            }
        }
    }
    let ind = format!("\n{}", " ".repeat(ctx.indentation));
    let b = if base.is_empty() {
        String::new()
    } else {
        format!("{base} ")
    };
    format!(
        "{b}{}{ind}  {}{ind}{}",
        braces.0,
        output.join(&format!(",{ind}  ")),
        braces.1
    )
}

fn below_break_length(ctx: &Ctx, output: &[String], start: usize, base: &str) -> bool {
    let mut total = output.len() + start;
    if total + output.len() > ctx.opts.break_length {
        return false;
    }
    for o in output {
        total += o.encode_utf16().count();
        if total > ctx.opts.break_length {
            return false;
        }
    }
    base.is_empty() || !base.contains('\n')
}

/// node's `groupArrayElements`: short entries in aligned columns.
fn group(ctx: &Ctx, output: Vec<String>, kind: &Kind) -> Vec<String> {
    let mut total = 0usize;
    let mut max_len = 0usize;
    let mut out_len = output.len();
    if let Kind::Array(items) | Kind::Arguments(items) = kind
        && ctx.opts.max_array_length < items.len()
        && output.last().is_some_and(|l| l.starts_with("... "))
    {
        out_len -= 1;
    }
    let sep = 2usize;
    let data_len: Vec<usize> = output[..out_len]
        .iter()
        .map(|s| s.encode_utf16().count())
        .collect();
    for l in &data_len {
        total += l + sep;
        max_len = max_len.max(*l);
    }
    let actual_max = max_len + sep;
    if actual_max * 3 + ctx.indentation < ctx.opts.break_length
        && (total as f64 / actual_max as f64 > 5.0 || max_len <= 6)
    {
        let average_bias = (actual_max as f64 - total as f64 / output.len() as f64).sqrt();
        let biased_max = (actual_max as f64 - 3.0 - average_bias).max(1.0);
        let columns = [
            ((2.5 * biased_max * out_len as f64).sqrt() / biased_max).round(),
            ((ctx.opts.break_length - ctx.indentation) as f64 / actual_max as f64).floor(),
            (ctx.opts.compact * 4) as f64,
            15.0,
        ]
        .into_iter()
        .fold(f64::INFINITY, f64::min) as usize;
        if columns <= 1 {
            return output;
        }
        let mut max_line = Vec::with_capacity(columns);
        for i in 0..columns {
            let mut line = 0;
            let mut j = i;
            while j < out_len {
                line = line.max(data_len[j]);
                j += columns;
            }
            max_line.push(line + sep);
        }
        let numeric = match kind {
            Kind::Array(items) | Kind::Arguments(items) => (0..output.len().min(items.len()))
                .all(|i| matches!(items.get(i), Some(Value::Num(_)))),
            _ => false,
        };
        let mut tmp = Vec::new();
        let mut i = 0;
        while i < out_len {
            let max = (i + columns).min(out_len);
            let mut line = String::new();
            let mut j = i;
            while j < max - 1 {
                let cell = format!("{}, ", output[j]);
                line.push_str(&pad(&cell, max_line[j - i], numeric));
                j += 1;
            }
            if numeric {
                line.push_str(&pad(&output[j], max_line[j - i] - sep, true));
            } else {
                line.push_str(&output[j]);
            }
            tmp.push(line);
            i += columns;
        }
        if out_len < output.len() {
            tmp.push(output[out_len].clone());
        }
        return tmp;
    }
    output
}

fn pad(s: &str, width: usize, start: bool) -> String {
    let n = s.encode_utf16().count();
    if n >= width {
        return s.to_string();
    }
    let fill = " ".repeat(width - n);
    if start {
        format!("{fill}{s}")
    } else {
        format!("{s}{fill}")
    }
}

/// `console.table(data, columns)` as node draws it; `None` when `data` is not an object
/// (node then logs it as `console.log` would).
pub(super) fn table(vm: &mut Vm, data: Value, columns: Value) -> Res<Option<String>> {
    let Value::Obj(o) = data else {
        return Ok(None);
    };
    // node's `_inspect` of table cells: depth -1 for objects of more than two keys.
    let cell = |vm: &mut Vm, v: Value| -> Res<String> {
        if let Value::Obj(x) = v
            && !matches!(vm.heap.obj(x).kind, Kind::Array(_))
            && own_keys(vm, x, true).len() > 2
        {
            return Ok(shallow(vm, v));
        }
        inspect_with(
            vm,
            v,
            Options {
                depth: Some(0),
                max_array_length: 3,
                ..Options::default()
            },
        )
    };
    let rows: Vec<(String, Value)> = match vm.heap.obj(o).kind.clone() {
        Kind::Array(items) => items.iter().map(|(i, v)| (i.to_string(), v)).collect(),
        _ => {
            let mut rows = Vec::new();
            for k in own_keys(vm, o, true) {
                if let Key::Sym(_) = k {
                    continue;
                }
                let name = vm.heap.key_str(k).map(|s| s.to_rust()).unwrap_or_default();
                let v = match vm.own(o, k).map(|p| p.slot) {
                    Some(Slot::Data(v)) => v,
                    _ => Value::Undefined,
                };
                rows.push((name, v));
            }
            rows
        }
    };
    let filter: Option<Vec<String>> = match columns {
        Value::Obj(c) if matches!(vm.heap.obj(c).kind, Kind::Array(_)) => {
            let Kind::Array(items) = vm.heap.obj(c).kind.clone() else {
                unreachable!()
            };
            let mut names = Vec::new();
            for (_, v) in items.iter() {
                let s = vm.to_string(v)?;
                names.push(vm.heap.str(s).to_rust());
            }
            Some(names)
        }
        _ => None,
    };
    let mut keys: Vec<String> = Vec::new();
    let mut has_values = false;
    // (index, (column, cell) pairs, the cell of a primitive row)
    type Row = (String, Vec<(String, String)>, Option<String>);
    let mut grid: Vec<Row> = Vec::new();
    for (index, v) in rows {
        let mut cells = Vec::new();
        let mut primitive_value = None;
        match v {
            Value::Obj(r) if !matches!(vm.heap.obj(r).kind, Kind::Function(_)) => {
                for k in own_keys(vm, r, true) {
                    if let Key::Sym(_) = k {
                        continue;
                    }
                    let name = vm.heap.key_str(k).map(|s| s.to_rust()).unwrap_or_default();
                    if filter.as_ref().is_some_and(|f| !f.contains(&name)) {
                        continue;
                    }
                    let x = match vm.own(r, k).map(|p| p.slot) {
                        Some(Slot::Data(x)) => x,
                        _ => Value::Undefined,
                    };
                    if !keys.contains(&name) {
                        keys.push(name.clone());
                    }
                    cells.push((name, cell(vm, x)?));
                }
            }
            other => {
                has_values = true;
                primitive_value = Some(cell(vm, other)?);
            }
        }
        grid.push((index, cells, primitive_value));
    }
    if let Some(f) = &filter {
        keys = f.clone();
    }
    let mut head = vec!["(index)".to_string()];
    head.extend(keys.iter().cloned());
    if has_values {
        head.push("Values".to_string());
    }
    let mut body: Vec<Vec<String>> = Vec::new();
    for (index, cells, prim) in grid {
        let mut row = vec![index];
        for k in &keys {
            row.push(
                cells
                    .iter()
                    .find(|(n, _)| n == k)
                    .map(|(_, c)| c.clone())
                    .unwrap_or_default(),
            );
        }
        if has_values {
            row.push(prim.unwrap_or_default());
        }
        body.push(row);
    }
    let width = |s: &str| s.encode_utf16().count();
    let mut widths: Vec<usize> = head.iter().map(|h| width(h) + 2).collect();
    for row in &body {
        for (i, c) in row.iter().enumerate() {
            widths[i] = widths[i].max(width(c) + 2);
        }
    }
    let render = |row: &[String]| -> String {
        let mut out = String::from("│");
        for (i, c) in row.iter().enumerate() {
            out.push(' ');
            out.push_str(c);
            out.push_str(&" ".repeat(widths[i] - width(c) - 1));
            out.push('│');
        }
        out
    };
    let line = |l: &str, m: &str, r: &str| -> String {
        let parts: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
        format!("{l}{}{r}", parts.join(m))
    };
    let mut out = vec![line("┌", "┬", "┐"), render(&head), line("├", "┼", "┤")];
    for row in &body {
        out.push(render(row));
    }
    out.push(line("└", "┴", "┘"));
    Ok(Some(out.join("\n")))
}

/// node's table cell for objects of more than two keys (`depth: -1`): `[Object]`, `[Array]`.
fn shallow(vm: &mut Vm, v: Value) -> String {
    let Value::Obj(o) = v else {
        return String::new();
    };
    let c = constructor_name(vm, o);
    match c {
        Some(c) => format!("[{c}]"),
        None => "[Object: null prototype]".to_string(),
    }
}
