//! Building a request from a tool's input, before auth and before any network: path values
//! percent-encoded per style (simple, label, matrix; `""`, `.`, `..` refused), query styles
//! (form, spaceDelimited, pipeDelimited, deepObject; `allowReserved`), header and cookie
//! parameters, JSON, form-urlencoded and text bodies. Messages are the seed's where it has one.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};

use crate::limits::MAX_DEEP_OBJECT_DEPTH;
use crate::spec::{BodyKind, Loc, Operation, Param, Style};

/// Everything but the unreserved characters (`A-Z a-z 0-9 - . _ ~`): `encodeURIComponent`
/// plus `!'()*`.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// [`COMPONENT`] less the reserved characters that `allowReserved` lets through (RFC 3986
/// `:/?[]@!$'()*,;=`); `&`, `#` and `+` stay encoded so the query keeps its shape.
const RESERVED_OK: &AsciiSet = &COMPONENT
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// Characters a cookie value cannot hold unencoded (RFC 6265 cookie-octet).
const COOKIE: &AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b',')
    .add(b';')
    .add(b'\\')
    .add(b'%');

/// A request ready for auth: the URL path and query (encoded), headers, cookies, body.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Prepared {
    /// Base URL + encoded path.
    pub url: String,
    /// Encoded `k=v` query pairs.
    pub query: Vec<String>,
    /// Header (lower-case name, value) from declared header parameters.
    pub headers: Vec<(String, String)>,
    /// Encoded `k=v` cookie pairs.
    pub cookies: Vec<String>,
    /// Content type and bytes.
    pub body: Option<(String, Vec<u8>)>,
}

/// A scalar as the text sent: strings as they are, integral numbers without `.0`, `true`,
/// `false`, `null`; `None` for arrays and objects.
pub fn scalar(v: &Value) -> Option<String> {
    Some(match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                format!("{}", f as i64)
            }
            _ => n.to_string(),
        },
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_string(),
        _ => return None,
    })
}

fn enc(s: &str, set: &'static AsciiSet) -> String {
    utf8_percent_encode(s, set).to_string()
}

fn form(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// The value of a parameter as sent: JSON text for `content: application/json`.
fn value_of(p: &Param, v: &Value) -> Value {
    if p.json {
        Value::String(serde_json::to_string(v).unwrap_or_default())
    } else {
        v.clone()
    }
}

/// Build the request of `op` from `input`. Errors are messages for the model.
pub(crate) fn prepare(op: &Operation, input: &Value) -> Result<Prepared, String> {
    let empty = Map::new();
    let input = input.as_object().unwrap_or(&empty);
    let mut out = Prepared::default();

    // Path.
    let mut path = String::new();
    let mut rest = op.route.as_str();
    while let Some(open) = rest.find('{') {
        path.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            path.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let name = &rest[open + 1..open + close];
        let Some(p) = op
            .params
            .iter()
            .find(|p| p.loc == Loc::Path && p.name == name)
        else {
            return Err(format!("Unresolved path parameter {{{name}}}."));
        };
        let Some(v) = input.get(&p.field) else {
            return Err(format!("Missing required path parameter '{}'.", p.field));
        };
        path.push_str(&path_value(p, &value_of(p, v))?);
        rest = &rest[open + close + 1..];
    }
    path.push_str(rest);
    out.url = format!("{}{}", op.base, path);

    for p in op.params.iter().filter(|p| p.loc != Loc::Path) {
        let Some(v) = input.get(&p.field) else {
            if p.required {
                let what = match p.loc {
                    Loc::Query => "query parameter",
                    Loc::Header => "header parameter",
                    _ => "cookie parameter",
                };
                return Err(format!("Missing required {what} '{}'.", p.field));
            }
            continue;
        };
        let v = value_of(p, v);
        match p.loc {
            Loc::Query => query_value(p, &v, &mut out.query)?,
            Loc::Header => {
                let s = simple(p, &v, |s| s.to_string())?;
                if reqwest::header::HeaderValue::from_str(&s).is_err() {
                    return Err(format!(
                        "Header parameter '{}' cannot be sent: header values cannot hold control characters or line breaks.",
                        p.field
                    ));
                }
                out.headers.push((p.name.to_ascii_lowercase(), s));
            }
            Loc::Cookie => cookie_value(p, &v, &mut out.cookies)?,
            Loc::Path => {}
        }
    }

    if let Some(b) = &op.body {
        let value = match &b.fields {
            None => match input.get(&b.field) {
                Some(v) => Some(v.clone()),
                None if b.required => {
                    return Err(format!("Missing required body field '{}'.", b.field));
                }
                None => None,
            },
            Some(fields) => {
                let mut obj = Map::new();
                for (field, prop) in fields {
                    if let Some(v) = input.get(field) {
                        obj.insert(prop.clone(), v.clone());
                    }
                }
                (b.required || !obj.is_empty()).then_some(Value::Object(obj))
            }
        };
        if let Some(v) = value {
            let bytes = match &b.kind {
                BodyKind::Json => serde_json::to_vec(&v)
                    .map_err(|_| format!("Invalid JSON body for {} {}.", op.method, op.route))?,
                BodyKind::Text => match v {
                    Value::String(s) => s.into_bytes(),
                    other => scalar(&other).unwrap_or_default().into_bytes(),
                },
                BodyKind::Form(encoding) => form_body(&v, encoding)?.into_bytes(),
            };
            out.body = Some((b.media.clone(), bytes));
        }
    }
    Ok(out)
}

/// Scalars of an array, or the nested-value error.
fn items(p: &Param, a: &[Value]) -> Result<Vec<String>, String> {
    a.iter()
        .map(|x| scalar(x).ok_or_else(|| nested(p)))
        .collect()
}

fn nested(p: &Param) -> String {
    match p.loc {
        Loc::Query => format!(
            "Query parameter '{}' contains an unsupported nested value.",
            p.field
        ),
        _ => format!(
            "Parameter '{}' contains an unsupported nested value.",
            p.field
        ),
    }
}

fn pairs(p: &Param, m: &Map<String, Value>) -> Result<Vec<(String, String)>, String> {
    m.iter()
        .map(|(k, v)| scalar(v).map(|s| (k.clone(), s)).ok_or_else(|| nested(p)))
        .collect()
}

/// Simple style (path and header): `a,b`; objects `k=v,k2=v2` (explode) or `k,v,k2,v2`.
fn simple(p: &Param, v: &Value, e: impl Fn(&str) -> String) -> Result<String, String> {
    Ok(match v {
        Value::Array(a) => items(p, a)?
            .iter()
            .map(|s| e(s))
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(m) => {
            let ps = pairs(p, m)?;
            if p.explode {
                ps.iter()
                    .map(|(k, v)| format!("{}={}", e(k), e(v)))
                    .collect::<Vec<_>>()
                    .join(",")
            } else {
                ps.iter()
                    .flat_map(|(k, v)| [e(k), e(v)])
                    .collect::<Vec<_>>()
                    .join(",")
            }
        }
        other => e(&scalar(other).unwrap_or_default()),
    })
}

fn path_value(p: &Param, v: &Value) -> Result<String, String> {
    if let Some(s) = v.as_str()
        && (s.is_empty() || s == "." || s == "..")
        && p.style == Style::Simple
    {
        return Err(format!("Invalid path parameter '{}'.", p.field));
    }
    let e = |s: &str| enc(s, COMPONENT);
    let name = e(&p.name);
    Ok(match p.style {
        Style::Label => {
            let sep = if p.explode { "." } else { "," };
            match v {
                Value::Array(a) => format!(
                    ".{}",
                    items(p, a)?
                        .iter()
                        .map(|s| e(s))
                        .collect::<Vec<_>>()
                        .join(sep)
                ),
                Value::Object(m) => {
                    let ps = pairs(p, m)?;
                    if p.explode {
                        format!(
                            ".{}",
                            ps.iter()
                                .map(|(k, v)| format!("{}={}", e(k), e(v)))
                                .collect::<Vec<_>>()
                                .join(".")
                        )
                    } else {
                        format!(
                            ".{}",
                            ps.iter()
                                .flat_map(|(k, v)| [e(k), e(v)])
                                .collect::<Vec<_>>()
                                .join(",")
                        )
                    }
                }
                other => format!(".{}", e(&scalar(other).unwrap_or_default())),
            }
        }
        Style::Matrix => match v {
            Value::Array(a) => {
                let xs = items(p, a)?;
                if p.explode {
                    xs.iter().map(|s| format!(";{name}={}", e(s))).collect()
                } else {
                    format!(
                        ";{name}={}",
                        xs.iter().map(|s| e(s)).collect::<Vec<_>>().join(",")
                    )
                }
            }
            Value::Object(m) => {
                let ps = pairs(p, m)?;
                if p.explode {
                    ps.iter()
                        .map(|(k, v)| format!(";{}={}", e(k), e(v)))
                        .collect()
                } else {
                    format!(
                        ";{name}={}",
                        ps.iter()
                            .flat_map(|(k, v)| [e(k), e(v)])
                            .collect::<Vec<_>>()
                            .join(",")
                    )
                }
            }
            Value::String(s) if s.is_empty() => format!(";{name}"),
            other => format!(";{name}={}", e(&scalar(other).unwrap_or_default())),
        },
        _ => simple(p, v, e)?,
    })
}

fn query_value(p: &Param, v: &Value, out: &mut Vec<String>) -> Result<(), String> {
    let e = |s: &str| {
        if p.allow_reserved {
            enc(s, RESERVED_OK)
        } else {
            form(s)
        }
    };
    let name = form(&p.name);
    match p.style {
        Style::DeepObject => {
            let Value::Object(_) = v else {
                return Err(format!(
                    "Deep-object parameter '{}' must be an object.",
                    p.field
                ));
            };
            deep(&p.name, v, out, &|s| e(s)).map_err(|_| {
                format!(
                    "Deep-object parameter '{}' nests deeper than {MAX_DEEP_OBJECT_DEPTH} levels.",
                    p.field
                )
            })?;
        }
        style => {
            let sep = match style {
                Style::SpaceDelimited => "%20",
                Style::PipeDelimited => "|",
                _ => ",",
            };
            match v {
                Value::Array(a) => {
                    let xs = items(p, a)?;
                    if p.explode {
                        out.extend(xs.iter().map(|s| format!("{name}={}", e(s))));
                    } else {
                        out.push(format!(
                            "{name}={}",
                            xs.iter().map(|s| e(s)).collect::<Vec<_>>().join(sep)
                        ));
                    }
                }
                Value::Object(m) => {
                    let ps = pairs(p, m)?;
                    if p.explode {
                        out.extend(ps.iter().map(|(k, v)| format!("{}={}", form(k), e(v))));
                    } else {
                        out.push(format!(
                            "{name}={}",
                            ps.iter()
                                .flat_map(|(k, v)| [e(k), e(v)])
                                .collect::<Vec<_>>()
                                .join(sep)
                        ));
                    }
                }
                other => out.push(format!("{name}={}", e(&scalar(other).unwrap_or_default()))),
            }
        }
    }
    Ok(())
}

fn cookie_value(p: &Param, v: &Value, out: &mut Vec<String>) -> Result<(), String> {
    let e = |s: &str| enc(s, COOKIE);
    match v {
        Value::Array(a) if p.explode => {
            out.extend(
                items(p, a)?
                    .iter()
                    .map(|s| format!("{}={}", e(&p.name), e(s))),
            );
        }
        Value::Object(m) if p.explode => {
            out.extend(
                pairs(p, m)?
                    .iter()
                    .map(|(k, v)| format!("{}={}", e(k), e(v))),
            );
        }
        other => out.push(format!("{}={}", e(&p.name), simple(p, other, e)?)),
    }
    Ok(())
}

/// `prefix[k][k2]=v` pairs of a nested value (arrays as `[0]`, `[1]`...), at most
/// [`MAX_DEEP_OBJECT_DEPTH`] deep (iterative). `Err(())` when deeper.
fn deep(
    prefix: &str,
    v: &Value,
    out: &mut Vec<String>,
    e: &dyn Fn(&str) -> String,
) -> Result<(), ()> {
    let mut stack: Vec<(String, &Value, usize)> = vec![(prefix.to_string(), v, 0)];
    let mut pending: Vec<String> = Vec::new();
    while let Some((key, v, depth)) = stack.pop() {
        if depth > MAX_DEEP_OBJECT_DEPTH {
            return Err(());
        }
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter().rev() {
                    stack.push((format!("{key}[{k}]"), x, depth + 1));
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate().rev() {
                    stack.push((format!("{key}[{i}]"), x, depth + 1));
                }
            }
            Value::Null => pending.push(format!("{}=", form(&key))),
            other => pending.push(format!(
                "{}={}",
                form(&key),
                e(&scalar(other).unwrap_or_default())
            )),
        }
    }
    out.extend(pending);
    Ok(())
}

/// A form-urlencoded body: per property the `encoding` style (form: explode repeats arrays and
/// spreads objects; deepObject: `k[a][b]=v`), `null` as an empty value.
fn form_body(
    v: &Value,
    encoding: &std::collections::HashMap<String, (Style, bool)>,
) -> Result<String, String> {
    let Value::Object(m) = v else {
        return Err("The form body must be an object of fields.".into());
    };
    let mut out = Vec::new();
    for (k, x) in m {
        let (style, explode) = encoding.get(k).copied().unwrap_or((Style::Form, true));
        let key = form(k);
        match x {
            Value::Null => out.push(format!("{key}=")),
            Value::Array(a)
                if style != Style::DeepObject
                    && a.iter().all(|i| !i.is_array() && !i.is_object()) =>
            {
                let xs: Vec<String> = a
                    .iter()
                    .map(|i| form(&scalar(i).unwrap_or_default()))
                    .collect();
                if explode {
                    out.extend(xs.iter().map(|s| format!("{key}={s}")));
                } else {
                    let sep = match style {
                        Style::SpaceDelimited => "%20",
                        Style::PipeDelimited => "|",
                        _ => ",",
                    };
                    out.push(format!("{key}={}", xs.join(sep)));
                }
            }
            Value::Object(inner)
                if style == Style::Form
                    && inner.values().all(|i| !i.is_array() && !i.is_object()) =>
            {
                if explode {
                    out.extend(inner.iter().map(|(a, b)| {
                        format!("{}={}", form(a), form(&scalar(b).unwrap_or_default()))
                    }));
                } else {
                    out.push(format!(
                        "{key}={}",
                        inner
                            .iter()
                            .flat_map(|(a, b)| [form(a), form(&scalar(b).unwrap_or_default())])
                            .collect::<Vec<_>>()
                            .join(",")
                    ));
                }
            }
            Value::Array(_) | Value::Object(_) => {
                // Nested values (Stripe's `metadata[key]`, `items[0][price]`) as deepObject.
                deep(k, x, &mut out, &|s| form(s)).map_err(|_| {
                    format!("Body field '{k}' nests deeper than {MAX_DEEP_OBJECT_DEPTH} levels.")
                })?;
            }
            other => out.push(format!(
                "{key}={}",
                form(&scalar(other).unwrap_or_default())
            )),
        }
    }
    Ok(out.join("&"))
}
