//! Hints for the model that wrote the program, appended to an uncaught error's diagnostic
//! (never to the `message` the program itself sees, which keeps V8's wording): which
//! expression was `undefined`/`null`, and what the object it was read from has.

use crate::heap::Key;
use crate::proto::Op;
use crate::value::Value;
use crate::vm::Vm;

/// How many of the object's property names a hint lists.
const LISTED_PROPERTIES: usize = 12;

/// For a property read of `undefined`/`null` (`what`) by the current instruction: the
/// hint ("`order.itmes` is undefined: order has no property 'itmes'; its properties: id,
/// items, total") and the spelling suggestions. `None` when the instruction is not a
/// property read of a noted expression (a builtin's read, a long expression).
pub fn nullish_read(vm: &mut Vm, what: &str) -> Option<(String, Vec<String>)> {
    let (prog, func, pc) = vm.current_instruction()?;
    let p = std::sync::Arc::clone(&vm.progs[prog as usize]);
    let f = &p.funcs[func as usize];
    let text_at = |pc: u32| {
        let i = f
            .object_text
            .binary_search_by_key(&pc, |(at, _)| *at)
            .ok()?;
        Some(p.strings[f.object_text[i].1 as usize].to_rust())
    };
    let text = text_at(pc)?;
    let object = match f.code.get(pc as usize)? {
        Op::GetProp(_, o, _) | Op::GetElem(_, o, _) => *o,
        _ => return None,
    };
    let mut hint = format!("`{text}` is {what}");
    let mut suggestions = Vec::new();
    // `a.b.c` with `a.b` undefined: the read before made `a.b` from `a`, still in its register.
    if let Some(Op::GetProp(d, base, k)) = pc.checked_sub(1).and_then(|i| f.code.get(i as usize))
        && *d == object
        && let Value::Obj(o) = vm.reg(*base)
    {
        let missing = p.strings[*k as usize].to_rust();
        let base_text = pc
            .checked_sub(1)
            .and_then(text_at)
            .unwrap_or_else(|| "the object".to_string());
        let keys = own_names(vm, o);
        if vm.is_promise(Value::Obj(o)) {
            hint.push_str(&format!(
                ": {base_text} is a Promise (a call not awaited), not its value; write `(await {base_text}).{missing}`, or `const v = await ...` first"
            ));
        } else if !keys.contains(&missing) {
            hint.push_str(&format!(": {base_text} has no property '{missing}'"));
            if keys.is_empty() {
                hint.push_str(" and no own properties");
            } else {
                hint.push_str(&listing(&keys));
            }
            if let Some(best) = closest(&missing, &keys) {
                hint.push_str(&format!(". Did you mean '{best}'?"));
                suggestions.push(best);
            }
        }
    }
    // `rows[i].x` past the end of an array.
    if let Some(Op::GetElem(d, base, _)) = pc.checked_sub(1).and_then(|i| f.code.get(i as usize))
        && *d == object
        && let Value::Obj(o) = vm.reg(*base)
        && let crate::heap::Kind::Array(items) = &vm.heap.obj(o).kind
    {
        let n = items.len();
        let base_text = pc
            .checked_sub(1)
            .and_then(text_at)
            .unwrap_or_else(|| "the array".to_string());
        hint.push_str(&match n {
            0 => format!(": {base_text} is empty"),
            1 => format!(": {base_text} has 1 element (index 0)"),
            n => format!(": {base_text} has {n} elements (indices 0 to {})", n - 1),
        });
    }
    Some((hint, suggestions))
}

/// For a call of a property that is not a function (`list.fitler(...)`): what the object has
/// ("list has no property 'fitler'. Did you mean 'filter'?"); names on its prototypes count
/// for the suggestion (methods live there). `None` when the callee was not read from an
/// object by a property read just before the call, or the property exists.
pub fn missing_method(vm: &mut Vm, callee: Value) -> Option<(String, Vec<String>)> {
    if callee != Value::Undefined {
        return None;
    }
    let (prog, func, pc) = vm.current_instruction()?;
    let p = std::sync::Arc::clone(&vm.progs[prog as usize]);
    let f = &p.funcs[func as usize];
    let (c, this) = match f.code.get(pc as usize)? {
        Op::Call(_, c, t, ..) | Op::CallSpread(_, c, t, _) => (*c, *t),
        _ => return None,
    };
    // The read of the callee: the last instruction before the call that wrote its register.
    let read = (0..pc)
        .rev()
        .take(256)
        .find_map(|i| match f.code.get(i as usize) {
            Some(Op::GetProp(d, base, k)) if *d == c => Some((i, *base, *k)),
            _ => None,
        })?;
    let (at, base, k) = read;
    if base != this {
        return None;
    }
    let Value::Obj(o) = vm.reg(base) else {
        return None;
    };
    let missing = p.strings[k as usize].to_rust();
    let i = f
        .object_text
        .binary_search_by_key(&at, |(pc, _)| *pc)
        .ok()?;
    let base_text = p.strings[f.object_text[i].1 as usize].to_rust();
    if vm.is_promise(Value::Obj(o)) {
        let hint = format!(
            "{base_text} is a Promise (a call not awaited), not its value; write `(await {base_text}).{missing}(...)`"
        );
        return Some((hint, Vec::new()));
    }
    let names = names_along_chain(vm, o);
    let mut hint = format!("{base_text} has no method '{missing}'");
    let mut suggestions = Vec::new();
    if let Some(best) = closest(&missing, &names) {
        hint.push_str(&format!(". Did you mean '{best}'?"));
        suggestions.push(best);
    } else {
        let own = own_names(vm, o);
        if !own.is_empty() {
            hint.push_str(&listing(&own));
        }
    }
    Some((hint, suggestions))
}

/// The own enumerable string-keyed property names of `o` (no array indices).
fn own_names(vm: &mut Vm, o: crate::value::ObjId) -> Vec<String> {
    crate::builtins::own_keys(vm, o, true)
        .into_iter()
        .filter(|k| !matches!(k, Key::Index(_)))
        .filter_map(|k| vm.heap.key_str(k).map(|s| s.to_rust()))
        .collect()
}

/// "; its properties: a, b, ..." (at most [`LISTED_PROPERTIES`] names).
fn listing(names: &[String]) -> String {
    let shown: Vec<&str> = names
        .iter()
        .take(LISTED_PROPERTIES)
        .map(|s| s.as_str())
        .collect();
    let more = if names.len() > LISTED_PROPERTIES {
        ", ..."
    } else {
        ""
    };
    format!("; its properties: {}{more}", shown.join(", "))
}

/// The string-keyed property names of `o` and its prototypes (own ones first), bounded.
fn names_along_chain(vm: &mut Vm, o: crate::value::ObjId) -> Vec<String> {
    let mut names = Vec::new();
    let mut cur = Some(o);
    for _ in 0..crate::limits::MAX_PROTO_CHAIN.min(16) {
        let Some(obj) = cur else { break };
        for k in crate::builtins::own_keys(vm, obj, false) {
            if matches!(k, Key::Index(_)) {
                continue;
            }
            if let Some(s) = vm.heap.key_str(k) {
                names.push(s.to_rust());
            }
        }
        cur = vm.heap.obj(obj).proto;
    }
    names
}

/// The name nearest to `missing` when it is a plausible typo of it: 1 edit for names of 3 to
/// 5 characters, 2 for longer ones, none for shorter ones.
pub(crate) fn closest(missing: &str, names: &[String]) -> Option<String> {
    let limit = match missing.chars().count() {
        0..=2 => return None,
        3..=5 => 1,
        _ => 2,
    };
    names
        .iter()
        .map(|n| (distance(missing, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n.clone())
}

/// Edit distance with adjacent transpositions as one edit (optimal string alignment), over
/// chars; names are short.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut best = (d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    best = best.min(d[(i - 2) * w + j - 2] + 1);
                }
                best
            };
        }
    }
    d[a.len() * w + b.len()]
}

/// For `name is not defined`: the JavaScript for a Lua (or Python) habit, or the global the
/// name misspells. `None` when there is nothing to say.
pub fn undefined_name(vm: &mut Vm, name: &str) -> Option<(String, Vec<String>)> {
    let habit = match name {
        "nil" => Some("`nil` is Lua: in JavaScript write `null` (or `undefined`)"),
        "local" => Some("`local` is Lua: declare with `const` (or `let` to reassign)"),
        "print" => Some("Print to the log with `console.log(...)`"),
        "tostring" | "str" => Some("Convert with `String(x)`"),
        "tonumber" | "int" | "float" => Some("Convert with `Number(x)` (or `parseInt(x, 10)`)"),
        "pairs" => Some("Iterate an object with `for (const [k, v] of Object.entries(o))`"),
        "ipairs" => {
            Some("Iterate an array with `for (const x of arr)` (or `arr.forEach((x, i) => ...)`)")
        }
        "len" => Some("Use `x.length`"),
        "table" => Some(
            "`table` is Lua: use array methods (`arr.push(x)`, `arr.join(', ')`, `arr.sort()`)",
        ),
        "string" => Some(
            "`string` is Lua: use string methods (`s.toUpperCase()`, `s.slice(1, 3)`) and template literals",
        ),
        "math" => Some("The global is `Math` (`Math.floor(x)`)"),
        "None" => Some("`None` is Python: write `null`"),
        "True" | "False" => Some("Booleans are `true` and `false`"),
        "self" => Some("Inside a method use `this`"),
        // Globals node has that codemode leaves out by design.
        "BigInt" => {
            Some("codemode has no BigInt: use Numbers (exact up to 2^53) or strings of digits")
        }
        "setTimeout" | "setInterval" | "setImmediate" => Some(
            "There are no timers: run the work directly, `await` the promises, or use `queueMicrotask(fn)`",
        ),
        "Proxy" => Some("There is no Proxy: wrap the object in a class or plain functions"),
        "ArrayBuffer" | "SharedArrayBuffer" | "DataView" | "Int8Array" | "Uint8ClampedArray"
        | "Int16Array" | "Uint16Array" | "Int32Array" | "Uint32Array" | "Float32Array"
        | "Float64Array" => Some(
            "The one typed array is `Uint8Array` (no ArrayBuffer or DataView): use it for bytes, an ordinary array of numbers for the rest",
        ),
        "fetch" => {
            Some("There is no network access: call the host's tools through the `tools` object")
        }
        _ => None,
    };
    if let Some(h) = habit {
        return Some((h.to_string(), Vec::new()));
    }
    let mut names = Vec::new();
    let g = vm.global;
    for k in crate::builtins::own_keys(vm, g, false) {
        if let Some(s) = vm.heap.key_str(k) {
            names.push(s.to_rust());
        }
    }
    let near = closest(name, &names)?;
    Some((format!("Did you mean '{near}'?"), vec![near]))
}

/// For a parse error at `offset`: the JavaScript for a Lua habit on that line (`~=`, `..`,
/// `local`, `--` comments, `then`/`end` blocks, `#t`), appended to the parser's message.
pub fn lua_habit(source: &str, offset: usize) -> Option<&'static str> {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let mut start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let mut end = source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i);
    // An error at the end of the input (or on a blank line) is about the last line with code
    // before it (looked at only a few lines back).
    for _ in 0..4 {
        if !source[start..end].trim().is_empty() || start == 0 {
            break;
        }
        end = start - 1;
        start = source[..end].rfind('\n').map_or(0, |i| i + 1);
    }
    let line = source.get(start..end)?;
    let code = strip_strings(line);
    let trimmed = code.trim_start();
    let words = || {
        code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
    };
    if code.contains("~=") {
        return Some("`~=` is Lua's not-equal: in JavaScript write `!==`.");
    }
    if trimmed.starts_with("local ") {
        return Some("`local` is Lua: declare with `const` (or `let` to reassign).");
    }
    if trimmed.starts_with("--") && !trimmed.starts_with("--=") {
        return Some("`--` starts a comment in Lua: in JavaScript write `//`.");
    }
    if code.replace("...", "").contains("..") {
        return Some(
            "`..` is Lua's concatenation: in JavaScript write `a + b` or a template literal `${a}${b}`.",
        );
    }
    if words().any(|w| matches!(w, "then" | "elseif" | "end" | "do")) {
        return Some(
            "This looks like Lua: in JavaScript blocks use braces, `if (c) { ... } else if (d) { ... }`, `for (const x of xs) { ... }`, `while (c) { ... }`.",
        );
    }
    // `#t` where a value goes (after `return`, `(`, `=`, an operator), not a private name
    // (`this.#x`, `#x = 1` in a class body, `#x in o`).
    if let Some(i) = code.find('#')
        && code[i + 1..].starts_with(|c: char| c.is_alphabetic() || c == '_')
    {
        let before = code[..i].trim_end();
        let value_place =
            before.ends_with("return") || before.ends_with(|c: char| "(=,+-*/<>[!&|?:".contains(c));
        if value_place {
            return Some("`#t` is Lua's length: in JavaScript write `t.length`.");
        }
    }
    None
}

/// `line` with the text inside quotes blanked (quotes kept), so habits inside strings do not
/// count.
fn strip_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                    out.push(c);
                    continue;
                }
                out.push(' ');
            }
            None => {
                if matches!(c, '"' | '\'' | '`') {
                    quote = Some(c);
                }
                out.push(c);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn typos_are_near_and_other_names_are_not() {
        let names = ["id", "items", "total"].map(String::from);
        assert_eq!(super::closest("itmes", &names).as_deref(), Some("items"));
        assert_eq!(super::closest("totl", &names).as_deref(), Some("total"));
        assert_eq!(super::closest("customer", &names), None);
        assert_eq!(super::closest("x", &["a".to_string()]), None);
        assert_eq!(super::distance("ab", "ba"), 1);
        assert_eq!(super::distance("kitten", "sitting"), 3);
    }
}
