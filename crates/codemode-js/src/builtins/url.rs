//! `URL` and `URLSearchParams` (the WHATWG URL standard), parsed, serialized and edited by the
//! `url` crate (its `quirks` module is the standard's API: getters and setters) and
//! `form_urlencoded` (the query's `application/x-www-form-urlencoded` form).
//!
//! A URL's `searchParams` is made on first read and linked both ways with private elements
//! (no key enumeration or reflection sees them): a change to the params rewrites the URL's
//! query, and a new `href` or `search` re-parses the params' list. The params' iterators
//! walk a snapshot taken when they are made. `forEach` calls user code: `prelude.js`.
//! The data lives in the object's [`Kind`] and is charged when it is made or grows; the
//! collector counts it again ([`extra_bytes`]).

use super::*;
use crate::heap::{PROP_BYTES, PrivateElem};

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("URL", url_ctor, 1),
    ("URL.canParse", url_can_parse, 1),
    ("URL.prototype.toString", url_href, 0),
    ("URL.prototype.toJSON", url_href, 0),
    ("URL.prototype.href", url_href, 0),
    ("URL.prototype.origin", url_origin, 0),
    ("URL.prototype.protocol", get_protocol, 0),
    ("URL.prototype.username", get_username, 0),
    ("URL.prototype.password", get_password, 0),
    ("URL.prototype.host", get_host, 0),
    ("URL.prototype.hostname", get_hostname, 0),
    ("URL.prototype.port", get_port, 0),
    ("URL.prototype.pathname", get_pathname, 0),
    ("URL.prototype.search", get_search, 0),
    ("URL.prototype.hash", get_hash, 0),
    ("URL.prototype.searchParams", url_search_params, 0),
    ("%URLSetters%.href", set_href, 1),
    ("%URLSetters%.protocol", set_protocol, 1),
    ("%URLSetters%.username", set_username, 1),
    ("%URLSetters%.password", set_password, 1),
    ("%URLSetters%.host", set_host, 1),
    ("%URLSetters%.hostname", set_hostname, 1),
    ("%URLSetters%.port", set_port, 1),
    ("%URLSetters%.pathname", set_pathname, 1),
    ("%URLSetters%.search", set_search, 1),
    ("%URLSetters%.hash", set_hash, 1),
    ("URLSearchParams", params_ctor, 0),
    ("URLSearchParams.prototype.append", params_append, 2),
    ("URLSearchParams.prototype.delete", params_delete, 1),
    ("URLSearchParams.prototype.get", params_get, 1),
    ("URLSearchParams.prototype.getAll", params_get_all, 1),
    ("URLSearchParams.prototype.has", params_has, 1),
    ("URLSearchParams.prototype.set", params_set, 2),
    ("URLSearchParams.prototype.sort", params_sort, 0),
    ("URLSearchParams.prototype.toString", params_to_string, 0),
    ("URLSearchParams.prototype.entries", params_entries, 0),
    ("URLSearchParams.prototype.keys", params_keys, 0),
    ("URLSearchParams.prototype.values", params_values, 0),
    ("URLSearchParams.prototype.size", params_size, 0),
    (
        "%URLSearchParamsIterator%.next",
        super::array::list_iterator_next,
        0,
    ),
];

/// The accessors of `URL.prototype` (a setter beside each but `origin` and `searchParams`)
/// and of `URLSearchParams.prototype`.
const URL_ACCESSORS: &[&str] = &[
    "href",
    "origin",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "searchParams",
    "hash",
];

/// The bytes a URL or a params list holds besides its object (for the collector's count).
pub fn extra_bytes(kind: &Kind) -> usize {
    match kind {
        Kind::Url(u) => 64 + u.as_str().len(),
        Kind::Params(list) => 32 + list.iter().map(|(k, v)| pair_bytes(k, v)).sum::<usize>(),
        _ => 0,
    }
}

/// Make the accessors from the natives (getters where their paths put them, setters from
/// `%URLSetters%`), link `Symbol.iterator` to `entries`.
pub fn setup(vm: &mut Vm) -> Res<()> {
    let (Some(proto), Some(setters), Some(pp)) = (
        vm.platform.url_proto,
        vm.platform.scratch,
        vm.platform.params_proto,
    ) else {
        return Ok(());
    };
    let data = |vm: &mut Vm, o: ObjId, k: Key| match vm.own(o, k) {
        Some(crate::heap::Prop {
            slot: Slot::Data(f @ Value::Obj(_)),
            ..
        }) => Some(f),
        _ => None,
    };
    let mut pairs: Vec<(ObjId, &str, Option<ObjId>)> = URL_ACCESSORS
        .iter()
        .map(|n| (proto, *n, Some(setters)))
        .collect();
    pairs.push((pp, "size", None));
    for (owner, name, setter_home) in pairs {
        let k = vm.heap.key(name);
        let Some(get) = data(vm, owner, k) else {
            continue;
        };
        let set = match setter_home {
            Some(h) => data(vm, h, k).unwrap_or(Value::Undefined),
            None => Value::Undefined,
        };
        let nk = vm.heap.key("name");
        for (f, prefix) in [(get, "get"), (set, "set")] {
            if let Value::Obj(f) = f {
                let n = vm.str_val(&format!("{prefix} {name}"))?;
                vm.define(f, nk, Slot::Data(n), CONFIGURABLE)?;
            }
        }
        vm.define(
            owner,
            k,
            Slot::Accessor(get, set),
            ENUMERABLE | CONFIGURABLE,
        )?;
    }
    let entries = vm.heap.key("entries");
    if let (Some(e), Some(sym)) = (data(vm, pp, entries), vm.intr.sym_iterator) {
        vm.define(pp, Key::Sym(sym), Slot::Data(e), HIDDEN_ATTRS)?;
    }
    // The link between a URL and its params: a private name no program can spell.
    let d = vm.heap.new_str(JsStr::from_str("#link"))?;
    vm.platform.link = Some(vm.heap.new_symbol(Some(d))?);
    Ok(())
}

// ----- helpers ------------------------------------------------------------------------------

fn rust_string(vm: &mut Vm, v: Value) -> Res<String> {
    let s = vm.to_string(v)?;
    let st = vm.heap.str(s);
    vm.work(st.len() / 8);
    Ok(vm.heap.str(s).to_rust())
}

/// node's `TypeError: Invalid URL` (`code` `ERR_INVALID_URL`, with the input and base).
fn invalid_url(vm: &mut Vm, input: &str, base: Option<&str>) -> Throw {
    let e = vm.make_error(vm.intr.type_error_proto, "Invalid URL");
    if let Value::Obj(o) = e {
        let mut fields = vec![
            ("code", "ERR_INVALID_URL".to_string()),
            ("input", input.to_string()),
        ];
        if let Some(b) = base {
            fields.push(("base", b.to_string()));
        }
        for (k, v) in fields {
            let key = vm.heap.key(k);
            if let Ok(v) = vm.str_val(&v) {
                let _ = vm.define(o, key, Slot::Data(v), DEFAULT_ATTRS);
            }
        }
    }
    Throw::Js(e)
}

fn missing_args(vm: &mut Vm, names: &str) -> Throw {
    let e = vm.make_error(
        vm.intr.type_error_proto,
        &format!("The {names} must be specified"),
    );
    if let Value::Obj(o) = e {
        let key = vm.heap.key("code");
        if let Ok(v) = vm.str_val("ERR_MISSING_ARGS") {
            let _ = vm.define(o, key, Slot::Data(v), DEFAULT_ATTRS);
        }
    }
    Throw::Js(e)
}

fn parse(input: &str, base: Option<&str>) -> Option<::url::Url> {
    match base {
        None => ::url::Url::parse(input).ok(),
        Some(b) => {
            let b = ::url::Url::parse(b).ok()?;
            ::url::Url::options().base_url(Some(&b)).parse(input).ok()
        }
    }
}

/// The `URL` object `this` is.
fn this_url(vm: &mut Vm, this: Value) -> Res<ObjId> {
    if let Value::Obj(o) = this
        && matches!(vm.heap.obj(o).kind, Kind::Url(_))
    {
        return Ok(o);
    }
    Err(vm.type_error("Value of \"this\" must be of type URL"))
}

fn url_of(vm: &Vm, o: ObjId) -> ::url::Url {
    match &vm.heap.obj(o).kind {
        Kind::Url(u) => (**u).clone(),
        _ => ::url::Url::parse("about:blank").expect("a valid URL"),
    }
}

/// The object linked to `o` (a URL's params, a params' URL).
fn linked(vm: &Vm, o: ObjId) -> Option<ObjId> {
    let link = vm.platform.link?;
    vm.heap
        .obj(o)
        .privates
        .iter()
        .find(|p| p.name == link)
        .and_then(|p| match p.slot {
            Slot::Data(Value::Obj(x)) => Some(x),
            _ => None,
        })
}

fn link(vm: &mut Vm, a: ObjId, b: ObjId) -> Res<()> {
    let Some(name) = vm.platform.link else {
        return Ok(());
    };
    vm.heap.charge(2 * PROP_BYTES)?;
    for (x, y) in [(a, b), (b, a)] {
        vm.heap.obj_mut(x).privates.push(PrivateElem {
            name,
            slot: Slot::Data(Value::Obj(y)),
            method: false,
        });
    }
    Ok(())
}

/// Store `u` into the URL `o`, charging growth; its params (if made) follow the new query.
fn store_url(vm: &mut Vm, o: ObjId, u: ::url::Url) -> Res<()> {
    let old = extra_bytes(&vm.heap.obj(o).kind);
    let new = 64 + u.as_str().len();
    vm.heap.charge(new.saturating_sub(old))?;
    let query = u.query().unwrap_or("").to_string();
    vm.heap.obj_mut(o).kind = Kind::Url(Box::new(u));
    if let Some(p) = linked(vm, o) {
        let list = parse_query_within(vm, &query)?;
        store_list(vm, p, list, false)?;
    }
    Ok(())
}

/// Bytes one name-value pair of a `URLSearchParams` holds: its slot in the list, with the
/// list's spare room (a `Vec` doubles), and each non-empty string's allocation (a malloc chunk
/// of at least 32 bytes).
fn pair_bytes(k: &str, v: &str) -> usize {
    let alloc = |n: usize| {
        if n == 0 {
            0
        } else {
            ((n + 8).div_ceil(16) * 16).max(32)
        }
    };
    2 * std::mem::size_of::<(String, String)>() + alloc(k.len()) + alloc(v.len())
}

/// [`parse_query`] for a run: the pairs are checked against the memory limit as they are
/// made, so a query of millions of pairs stops at the limit, not after its list is built.
fn parse_query_within(vm: &mut Vm, q: &str) -> Res<Vec<(String, String)>> {
    let mut list = Vec::new();
    let mut bytes = 0usize;
    for (k, v) in form_urlencoded::parse(q.as_bytes()) {
        bytes += pair_bytes(&k, &v);
        if list.len() % 1024 == 0 {
            vm.heap.fits(bytes)?;
        }
        list.push((k.into_owned(), v.into_owned()));
    }
    vm.heap.fits(bytes)?;
    Ok(list)
}

fn parse_query(q: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn serialize(list: &[(String, String)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(list.iter())
        .finish()
}

// ----- URL ----------------------------------------------------------------------------------

/// The `(url, base?)` arguments of the constructor and `canParse`, as strings.
fn url_args(vm: &mut Vm, args: &[Value]) -> Res<(String, Option<String>)> {
    if args.is_empty() {
        return Err(missing_args(vm, "\"url\" argument"));
    }
    let input = rust_string(vm, args[0])?;
    let base = match arg(args, 1) {
        Value::Undefined => None,
        b => Some(rust_string(vm, b)?),
    };
    Ok((input, base))
}

fn url_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Some(_), Value::Obj(o)) = (vm.native_construct, this) else {
        return Err(vm.type_error("Class constructor URL cannot be invoked without 'new'"));
    };
    let (input, base) = url_args(vm, args)?;
    let Some(u) = parse(&input, base.as_deref()) else {
        return Err(invalid_url(vm, &input, base.as_deref()));
    };
    vm.heap.charge(64 + u.as_str().len())?;
    vm.heap.obj_mut(o).kind = Kind::Url(Box::new(u));
    Ok(this)
}

fn url_can_parse(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (input, base) = url_args(vm, args)?;
    Ok(Value::Bool(parse(&input, base.as_deref()).is_some()))
}

/// The parts of a URL its accessors read and write.
#[derive(Clone, Copy)]
enum Part {
    Protocol,
    Username,
    Password,
    Host,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
}

fn get_part(vm: &mut Vm, this: Value, part: Part) -> Res<Value> {
    use ::url::quirks as q;
    let o = this_url(vm, this)?;
    let u = url_of(vm, o);
    let s = match part {
        Part::Protocol => q::protocol(&u),
        Part::Username => q::username(&u),
        Part::Password => q::password(&u),
        Part::Host => q::host(&u),
        Part::Hostname => q::hostname(&u),
        Part::Port => q::port(&u),
        Part::Pathname => q::pathname(&u),
        Part::Search => q::search(&u),
        Part::Hash => q::hash(&u),
    };
    vm.str_val(s)
}

fn set_part(vm: &mut Vm, this: Value, part: Part, v: Value) -> Res<Value> {
    use ::url::quirks as q;
    let o = this_url(vm, this)?;
    let s = rust_string(vm, v)?;
    let mut u = url_of(vm, o);
    // A value the standard rejects leaves the URL as it was (no exception).
    let _ = match part {
        Part::Protocol => q::set_protocol(&mut u, &s),
        Part::Username => q::set_username(&mut u, &s),
        Part::Password => q::set_password(&mut u, &s),
        Part::Host => q::set_host(&mut u, &s),
        Part::Hostname => q::set_hostname(&mut u, &s),
        Part::Port => q::set_port(&mut u, &s),
        Part::Pathname => {
            q::set_pathname(&mut u, &s);
            Ok(())
        }
        Part::Search => {
            q::set_search(&mut u, &s);
            Ok(())
        }
        Part::Hash => {
            q::set_hash(&mut u, &s);
            Ok(())
        }
    };
    store_url(vm, o, u)?;
    Ok(Value::Undefined)
}

macro_rules! accessor {
    ($get:ident, $set:ident, $part:expr) => {
        fn $get(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
            get_part(vm, this, $part)
        }
        fn $set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
            set_part(vm, this, $part, arg(args, 0))
        }
    };
}

accessor!(get_protocol, set_protocol, Part::Protocol);
accessor!(get_username, set_username, Part::Username);
accessor!(get_password, set_password, Part::Password);
accessor!(get_host, set_host, Part::Host);
accessor!(get_hostname, set_hostname, Part::Hostname);
accessor!(get_port, set_port, Part::Port);
accessor!(get_pathname, set_pathname, Part::Pathname);
accessor!(get_search, set_search, Part::Search);
accessor!(get_hash, set_hash, Part::Hash);

fn url_href(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_url(vm, this)?;
    let u = url_of(vm, o);
    vm.str_val(u.as_str())
}

fn set_href(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_url(vm, this)?;
    let s = rust_string(vm, arg(args, 0))?;
    let Ok(u) = ::url::Url::parse(&s) else {
        return Err(invalid_url(vm, &s, None));
    };
    store_url(vm, o, u)?;
    Ok(Value::Undefined)
}

fn url_origin(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_url(vm, this)?;
    let u = url_of(vm, o);
    vm.str_val(&::url::quirks::origin(&u))
}

/// `url.searchParams`: the same params object every time, made on first read.
fn url_search_params(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_url(vm, this)?;
    if let Some(p) = linked(vm, o) {
        return Ok(Value::Obj(p));
    }
    let u = url_of(vm, o);
    let list = parse_query_within(vm, u.query().unwrap_or(""))?;
    let p = vm
        .heap
        .new_obj(vm.platform.params_proto, Kind::Params(Vec::new()))?;
    store_list(vm, p, list, false)?;
    link(vm, o, p)?;
    Ok(Value::Obj(p))
}

// ----- URLSearchParams ----------------------------------------------------------------------

/// The params object `this` is.
fn this_params(vm: &mut Vm, this: Value) -> Res<ObjId> {
    if let Value::Obj(o) = this
        && matches!(vm.heap.obj(o).kind, Kind::Params(_))
    {
        return Ok(o);
    }
    Err(vm.type_error("Value of \"this\" must be of type URLSearchParams"))
}

fn list_of(vm: &Vm, o: ObjId) -> Vec<(String, String)> {
    match &vm.heap.obj(o).kind {
        Kind::Params(l) => l.clone(),
        _ => Vec::new(),
    }
}

/// Store `list` into the params `p`, charging growth; with `update`, the linked URL's query
/// becomes its serialization (none when the list is empty).
fn store_list(vm: &mut Vm, p: ObjId, list: Vec<(String, String)>, update: bool) -> Res<()> {
    let old = extra_bytes(&vm.heap.obj(p).kind);
    let kind = Kind::Params(list);
    vm.heap.charge(extra_bytes(&kind).saturating_sub(old))?;
    vm.work(extra_bytes(&kind) / 64);
    vm.heap.obj_mut(p).kind = kind;
    if update && let Some(o) = linked(vm, p) {
        let list = list_of(vm, p);
        let mut u = url_of(vm, o);
        if list.is_empty() {
            u.set_query(None);
        } else {
            u.set_query(Some(&serialize(&list)));
        }
        let old = extra_bytes(&vm.heap.obj(o).kind);
        vm.heap
            .charge((64 + u.as_str().len()).saturating_sub(old))?;
        vm.heap.obj_mut(o).kind = Kind::Url(Box::new(u));
    }
    Ok(())
}

fn params_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Some(_), Value::Obj(o)) = (vm.native_construct, this) else {
        return Err(
            vm.type_error("Class constructor URLSearchParams cannot be invoked without 'new'")
        );
    };
    let init = arg(args, 0);
    let mut list = Vec::new();
    match init {
        Value::Undefined | Value::Null => {}
        Value::Obj(x) if !matches!(vm.heap.obj(x).kind, Kind::String(_)) => {
            let iterable = match vm.intr.sym_iterator {
                Some(s) => !vm.get_value(init, Key::Sym(s))?.is_nullish(),
                None => false,
            };
            if iterable {
                for pair in vm.iterate_fast(init)? {
                    let is_obj = matches!(pair, Value::Obj(_));
                    let items = if is_obj {
                        vm.iterate_fast(pair)?
                    } else {
                        Vec::new()
                    };
                    if items.len() != 2 {
                        return Err(vm.type_error(
                            "Each query pair must be an iterable [name, value] tuple",
                        ));
                    }
                    let k = rust_string(vm, items[0])?;
                    let v = rust_string(vm, items[1])?;
                    list.push((k, v));
                }
            } else {
                for k in own_keys(vm, x, true) {
                    if matches!(k, Key::Sym(_)) {
                        continue;
                    }
                    let name = vm.heap.key_str(k).map(|s| s.to_rust()).unwrap_or_default();
                    let v = vm.get_value(init, k)?;
                    let v = rust_string(vm, v)?;
                    list.push((name, v));
                }
            }
        }
        v => {
            let s = rust_string(vm, v)?;
            list = parse_query_within(vm, s.strip_prefix('?').unwrap_or(&s))?;
        }
    }
    vm.heap.obj_mut(o).kind = Kind::Params(Vec::new());
    store_list(vm, o, list, false)?;
    Ok(this)
}

/// `this`'s list and the first `n` arguments as strings (fewer: `ERR_MISSING_ARGS`).
fn params_args(vm: &mut Vm, this: Value, args: &[Value], n: usize) -> Res<(ObjId, Vec<String>)> {
    let p = this_params(vm, this)?;
    if args.len() < n {
        let names = if n == 2 {
            "\"name\" and \"value\" arguments"
        } else {
            "\"name\" argument"
        };
        return Err(missing_args(vm, names));
    }
    let mut out = Vec::with_capacity(n);
    for a in args.iter().take(n) {
        out.push(rust_string(vm, *a)?);
    }
    Ok((p, out))
}

fn params_append(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (p, a) = params_args(vm, this, args, 2)?;
    // In place: a loop of appends costs each one its pair, not a copy of the list.
    vm.heap.charge(pair_bytes(&a[0], &a[1]))?;
    let [k, v] = [a[0].clone(), a[1].clone()];
    if let Kind::Params(list) = &mut vm.heap.obj_mut(p).kind {
        list.push((k, v));
    }
    if linked(vm, p).is_some() {
        let list = list_of(vm, p);
        store_list(vm, p, list, true)?;
    }
    Ok(Value::Undefined)
}

/// The value argument of `has`/`delete`, when one is given.
fn value_arg(vm: &mut Vm, args: &[Value]) -> Res<Option<String>> {
    match arg(args, 1) {
        Value::Undefined => Ok(None),
        v => Ok(Some(rust_string(vm, v)?)),
    }
}

fn params_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (p, a) = params_args(vm, this, args, 1)?;
    let value = value_arg(vm, args)?;
    let mut list = list_of(vm, p);
    list.retain(|(k, v)| !(*k == a[0] && value.as_ref().is_none_or(|x| x == v)));
    store_list(vm, p, list, true)?;
    Ok(Value::Undefined)
}

fn params_get(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (p, a) = params_args(vm, this, args, 1)?;
    let list = list_of(vm, p);
    vm.work(list.len() / 8);
    match list.iter().find(|(k, _)| *k == a[0]) {
        Some((_, v)) => vm.str_val(v),
        None => Ok(Value::Null),
    }
}

fn params_get_all(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (p, a) = params_args(vm, this, args, 1)?;
    let list = list_of(vm, p);
    let mut out = Vec::new();
    for (_, v) in list.iter().filter(|(k, _)| *k == a[0]) {
        out.push(vm.str_val(v)?);
    }
    vm.new_array(out)
}

fn params_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (p, a) = params_args(vm, this, args, 1)?;
    let value = value_arg(vm, args)?;
    let list = list_of(vm, p);
    vm.work(list.len() / 8);
    Ok(Value::Bool(list.iter().any(|(k, v)| {
        *k == a[0] && value.as_ref().is_none_or(|x| x == v)
    })))
}

fn params_set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (p, a) = params_args(vm, this, args, 2)?;
    let mut list = list_of(vm, p);
    let mut out = Vec::with_capacity(list.len() + 1);
    let mut found = false;
    for (k, v) in list.drain(..) {
        if k == a[0] {
            if !found {
                out.push((k, a[1].clone()));
                found = true;
            }
        } else {
            out.push((k, v));
        }
    }
    if !found {
        out.push((a[0].clone(), a[1].clone()));
    }
    store_list(vm, p, out, true)?;
    Ok(Value::Undefined)
}

/// `sort()`: stable, by the names' UTF-16 code units.
fn params_sort(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let p = this_params(vm, this)?;
    let mut list = list_of(vm, p);
    vm.work(list.len() * (usize::BITS - list.len().leading_zeros()) as usize / 8);
    list.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    store_list(vm, p, list, true)?;
    Ok(Value::Undefined)
}

fn params_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let p = this_params(vm, this)?;
    let list = list_of(vm, p);
    vm.str_val(&serialize(&list))
}

fn params_size(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let p = this_params(vm, this)?;
    Ok(Value::Num(list_of(vm, p).len() as f64))
}

/// An iterator over a snapshot of the list: 0 keys, 1 values, 2 entries.
fn params_iter(vm: &mut Vm, this: Value, kind: u8) -> Res<Value> {
    let p = this_params(vm, this)?;
    let list = list_of(vm, p);
    let mut items = Vec::with_capacity(list.len());
    for (k, v) in &list {
        items.push(match kind {
            0 => vm.str_val(k)?,
            1 => vm.str_val(v)?,
            _ => {
                let pair = vec![vm.str_val(k)?, vm.str_val(v)?];
                vm.new_array(pair)?
            }
        });
    }
    vm.heap.charge(items.len() * crate::heap::VALUE_BYTES)?;
    let o = vm.heap.new_obj(
        vm.platform.params_iter_proto,
        Kind::Iterator(crate::heap::Iter::List { items, pos: 0 }),
    )?;
    Ok(Value::Obj(o))
}

/// The builtin `toString` of a URL (its `href`) or a params list (its serialization).
pub(super) fn to_string(vm: &mut Vm, v: Value) -> Res<Value> {
    match v {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Url(_)) => url_href(vm, v, &[]),
        _ => params_to_string(vm, v, &[]),
    }
}

/// The entries iterator of the params `o` (spread, `Object.fromEntries`, `new Map(params)`).
pub fn entries_iter(vm: &mut Vm, o: ObjId) -> Res<Value> {
    params_iter(vm, Value::Obj(o), 2)
}

fn params_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    params_iter(vm, this, 2)
}
fn params_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    params_iter(vm, this, 0)
}
fn params_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    params_iter(vm, this, 1)
}

/// A URL's fields in node's inspection order (without `searchParams`, which goes after
/// `search`).
pub fn fields(u: &::url::Url) -> [(&'static str, String); 11] {
    use ::url::quirks as q;
    [
        ("href", q::href(u).to_string()),
        ("origin", q::origin(u)),
        ("protocol", q::protocol(u).to_string()),
        ("username", q::username(u).to_string()),
        ("password", q::password(u).to_string()),
        ("host", q::host(u).to_string()),
        ("hostname", q::hostname(u).to_string()),
        ("port", q::port(u).to_string()),
        ("pathname", q::pathname(u).to_string()),
        ("search", q::search(u).to_string()),
        ("hash", q::hash(u).to_string()),
    ]
}

/// The name-value pairs of a URL's query.
pub fn query_list(u: &::url::Url) -> Vec<(String, String)> {
    parse_query(u.query().unwrap_or(""))
}
