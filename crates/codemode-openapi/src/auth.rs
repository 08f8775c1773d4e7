//! Authentication, host-side only: security schemes, the [`AuthResolver`] the host gives, the
//! credentials it returns, and applying them per the spec's OR/AND alternatives. Credentials
//! never appear in schemas, results, `toolCalls` or messages ([`Secret`] does not print).

use std::collections::HashMap;
use std::fmt;

use base64::Engine;

/// A secret string: its `Debug` and `Display` print `<redacted>`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wrap a secret.
    pub fn new(s: impl Into<String>) -> Self {
        Secret(s.into())
    }
    /// The secret itself (only for putting it on the wire).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Where an apiKey scheme carries its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiKeyIn {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

/// A security scheme of `components.securitySchemes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// `type: apiKey` with its parameter name and carrier.
    ApiKey {
        /// The header, query parameter or cookie name.
        name: String,
        /// The carrier.
        location: ApiKeyIn,
    },
    /// `type: http` with its scheme, lower-cased (`bearer`, `basic`, ...).
    Http {
        /// The HTTP auth scheme.
        scheme: String,
    },
    /// `type: oauth2` (the host supplies a bearer token).
    OAuth2,
    /// `type: openIdConnect` (the host supplies a bearer token).
    OpenIdConnect,
}

impl Scheme {
    /// Parse a scheme object; `None` when malformed or of an unsupported type (`mutualTLS`).
    pub fn parse(v: &serde_json::Value) -> Option<Scheme> {
        match v.get("type")?.as_str()? {
            "apiKey" => {
                let name = v.get("name")?.as_str()?.to_string();
                let location = match v.get("in")?.as_str()? {
                    "header" => ApiKeyIn::Header,
                    "query" => ApiKeyIn::Query,
                    "cookie" => ApiKeyIn::Cookie,
                    _ => return None,
                };
                if name.is_empty()
                    || (location == ApiKeyIn::Header
                        && reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err())
                {
                    return None;
                }
                Some(Scheme::ApiKey { name, location })
            }
            "http" => Some(Scheme::Http {
                scheme: v.get("scheme")?.as_str()?.to_ascii_lowercase(),
            }),
            "oauth2" => Some(Scheme::OAuth2),
            "openIdConnect" => Some(Scheme::OpenIdConnect),
            _ => None,
        }
    }
}

/// What a resolver is asked: one scheme of one alternative of one operation.
#[derive(Debug)]
pub struct AuthRequest<'a> {
    /// The scheme's name in `components.securitySchemes`.
    pub name: &'a str,
    /// The scheme.
    pub scheme: &'a Scheme,
    /// The scopes the requirement lists.
    pub scopes: &'a [String],
    /// The operation, as `"GET /users/{id}"`.
    pub operation: &'a str,
}

/// A credential for one scheme.
#[derive(Clone, Debug)]
pub enum Credential {
    /// `Authorization: Bearer <token>`.
    Bearer(Secret),
    /// `Authorization: Basic base64(user:password)` (UTF-8).
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: Secret,
    },
    /// Any header, e.g. `Authorization: token <x>`.
    Header {
        /// The header name.
        name: String,
        /// Its value.
        value: Secret,
    },
    /// The key of an apiKey scheme, sent on the scheme's own carrier.
    ApiKey(Secret),
}

/// Supplies credentials. `None` means "no credential for this scheme": the next alternative is
/// tried, and if none can be met the call fails before any request.
pub trait AuthResolver: Send + Sync {
    /// The credential for `request.name`, or `None`.
    fn resolve(&self, request: &AuthRequest<'_>) -> Option<Credential>;
}

/// An [`AuthResolver`] over a fixed map from scheme name to credential.
#[derive(Clone, Debug, Default)]
pub struct StaticAuth(pub HashMap<String, Credential>);

impl AuthResolver for StaticAuth {
    fn resolve(&self, request: &AuthRequest<'_>) -> Option<Credential> {
        self.0.get(request.name).cloned()
    }
}

/// One scheme of a requirement, as compiled from the spec.
#[derive(Clone, Debug)]
pub(crate) struct Requirement {
    pub name: String,
    pub scheme: Scheme,
    pub scopes: Vec<String>,
}

/// Where credentials go on the wire.
#[derive(Default, Debug)]
pub(crate) struct Applied {
    /// Header name (lower-case) → value.
    pub headers: Vec<(String, String)>,
    /// Query pairs, not yet encoded.
    pub query: Vec<(String, String)>,
    /// Cookie pairs, not yet encoded.
    pub cookies: Vec<(String, String)>,
}

/// Resolve the credentials of the first satisfiable alternative of `alternatives`. Errors: the
/// seed's message when none can be met, a duplicate carrier, or an apiKey credential for a
/// non-apiKey scheme. Messages never contain a credential.
pub(crate) fn apply(
    alternatives: &[Vec<Requirement>],
    resolver: Option<&dyn AuthResolver>,
    method: &str,
    route: &str,
) -> Result<Applied, String> {
    let operation = format!("{method} {route}");
    let mut wanted: Vec<&str> = Vec::new();
    'alt: for alt in alternatives {
        let mut creds = Vec::new();
        for req in alt {
            let cred = resolver.and_then(|r| {
                r.resolve(&AuthRequest {
                    name: &req.name,
                    scheme: &req.scheme,
                    scopes: &req.scopes,
                    operation: &operation,
                })
            });
            match cred {
                Some(c) => creds.push((req, c)),
                None => {
                    for r in alt {
                        if !wanted.contains(&r.name.as_str()) {
                            wanted.push(&r.name);
                        }
                    }
                    continue 'alt;
                }
            }
        }
        let mut out = Applied::default();
        for (req, cred) in creds {
            let (carrier, name, value) = match cred {
                Credential::Bearer(t) => (
                    "header",
                    "authorization".to_string(),
                    format!("Bearer {}", t.expose()),
                ),
                Credential::Basic { user, password } => (
                    "header",
                    "authorization".to_string(),
                    format!(
                        "Basic {}",
                        base64::engine::general_purpose::STANDARD
                            .encode(format!("{user}:{}", password.expose()))
                    ),
                ),
                Credential::Header { name, value } => (
                    "header",
                    name.to_ascii_lowercase(),
                    value.expose().to_string(),
                ),
                Credential::ApiKey(k) => match &req.scheme {
                    Scheme::ApiKey { name, location } => {
                        let c = match location {
                            ApiKeyIn::Header => "header",
                            ApiKeyIn::Query => "query",
                            ApiKeyIn::Cookie => "cookie",
                        };
                        let name = if *location == ApiKeyIn::Header {
                            name.to_ascii_lowercase()
                        } else {
                            name.clone()
                        };
                        (c, name, k.expose().to_string())
                    }
                    _ => {
                        return Err(format!(
                            "Security scheme '{}' is not an apiKey scheme; resolve a bearer, basic, or header credential for it.",
                            req.name
                        ));
                    }
                },
            };
            let list = match carrier {
                "header" => &mut out.headers,
                "query" => &mut out.query,
                _ => &mut out.cookies,
            };
            if list.iter().any(|(n, _)| *n == name) {
                return Err(format!(
                    "Authentication resolves multiple credentials for {carrier} '{name}'."
                ));
            }
            list.push((name, value));
        }
        return Ok(out);
    }
    Err(format!(
        "{operation} requires authentication; no credential available for: {}.",
        wanted.join(", ")
    ))
}
