//! Local `$ref`s: RFC 6901 JSON Pointers in a URI fragment (`#/components/schemas/User`), with
//! percent-decoding (`%7B` → `{`), `~1`/`~0` unescaping and array indices; chains followed up to
//! [`MAX_REF_CHAIN`] with a cycle guard. External refs (`other.yaml#/x`) are not followed.

use std::collections::HashSet;

use percent_encoding::percent_decode_str;
use serde_json::Value;

use crate::limits::MAX_REF_CHAIN;

/// The value a local reference `#/...` points at, or `None` (external, malformed, dangling).
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let decoded = percent_decode_str(fragment).decode_utf8().ok()?;
    if decoded.is_empty() {
        return Some(root);
    }
    let rest = decoded.strip_prefix('/')?;
    let mut cur = root;
    for token in rest.split('/') {
        let token = token.replace("~1", "/").replace("~0", "~");
        cur = match cur {
            Value::Object(m) => m.get(&token)?,
            Value::Array(a) => {
                if token.is_empty() || (token.len() > 1 && token.starts_with('0')) {
                    return None;
                }
                a.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

/// The reference string of `v` when it is an object with a string `$ref`.
pub fn ref_of(v: &Value) -> Option<&str> {
    v.as_object()?.get("$ref")?.as_str()
}

/// Follows `$ref` chains from `v` to an object that is not a reference. `None` when a reference
/// is external, dangling or malformed, the chain is cyclic, or longer than [`MAX_REF_CHAIN`].
/// Returns the target and the last reference followed (if any).
pub fn deref<'a>(root: &'a Value, v: &'a Value) -> Option<(&'a Value, Option<&'a str>)> {
    let mut cur = v;
    let mut last = None;
    let mut seen: HashSet<&str> = HashSet::new();
    while let Some(r) = ref_of(cur) {
        if !seen.insert(r) || seen.len() > MAX_REF_CHAIN {
            return None;
        }
        last = Some(r);
        cur = resolve(root, r)?;
    }
    Some((cur, last))
}

/// `#/` followed by the tokens, each `~`/`/`-escaped and percent-encoded where a URI fragment
/// needs it: the reference form of a path into the document.
pub fn to_ref(tokens: &[&str]) -> String {
    let mut s = String::from("#");
    for t in tokens {
        s.push('/');
        let escaped = t.replace('~', "~0").replace('/', "~1");
        s.push_str(&percent_encoding::utf8_percent_encode(&escaped, FRAGMENT).to_string());
    }
    s
}

/// Characters percent-encoded in a pointer written as a URI fragment.
const FRAGMENT: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'`')
    .add(b'#')
    .add(b'%')
    .add(b'{')
    .add(b'}')
    .add(b'|')
    .add(b'\\')
    .add(b'^')
    .add(b'[')
    .add(b']');

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_decode_and_index() {
        let doc = json!({"paths": {"/v2/keys/{id}": {"get": {"parameters": [{"name": "a"}, {"name": "b"}]}}},
                         "c": {"a~b": 1, "": 2}});
        assert_eq!(
            resolve(&doc, "#/paths/~1v2~1keys~1%7Bid%7D/get/parameters/1"),
            Some(&json!({"name": "b"}))
        );
        assert_eq!(resolve(&doc, "#/c/a~0b"), Some(&json!(1)));
        assert_eq!(resolve(&doc, "#/c/"), Some(&json!(2)));
        assert_eq!(resolve(&doc, "#"), Some(&doc));
        assert_eq!(
            resolve(&doc, "#/paths/~1v2~1keys~1%7Bid%7D/get/parameters/01"),
            None
        );
        assert_eq!(
            resolve(&doc, "#/paths/~1v2~1keys~1%7Bid%7D/get/parameters/9"),
            None
        );
        assert_eq!(resolve(&doc, "other.json#/c"), None);
        assert_eq!(resolve(&doc, "#c"), None);
        assert_eq!(
            to_ref(&["paths", "/v2/keys/{id}", "get"]),
            "#/paths/~1v2~1keys~1%7Bid%7D/get"
        );
    }

    #[test]
    fn chains_and_cycles() {
        let doc = json!({"a": {"$ref": "#/b"}, "b": {"$ref": "#/c"}, "c": {"type": "string"},
                         "x": {"$ref": "#/y"}, "y": {"$ref": "#/x"}});
        let (t, last) = deref(&doc, &doc["a"]).unwrap();
        assert_eq!(t, &json!({"type": "string"}));
        assert_eq!(last, Some("#/c"));
        assert!(deref(&doc, &doc["x"]).is_none());
        // A chain longer than MAX_REF_CHAIN is refused.
        let mut m = serde_json::Map::new();
        for i in 0..=MAX_REF_CHAIN {
            m.insert(format!("r{i}"), json!({"$ref": format!("#/r{}", i + 1)}));
        }
        m.insert(format!("r{}", MAX_REF_CHAIN + 1), json!({}));
        let long = Value::Object(m);
        assert!(deref(&long, &long["r0"]).is_none());
        assert!(deref(&long, &long["r1"]).is_some());
    }
}
