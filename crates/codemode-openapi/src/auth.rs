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
    /// `type: oauth2`: the host supplies a bearer token, or a client id and secret when the
    /// scheme has a `clientCredentials` flow (the token is then fetched and cached).
    OAuth2 {
        /// The `tokenUrl` of its `flows.clientCredentials`, as written (it may be relative to
        /// the server URL).
        client_credentials_url: Option<String>,
    },
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
            "oauth2" => Some(Scheme::OAuth2 {
                client_credentials_url: v
                    .pointer("/flows/clientCredentials/tokenUrl")
                    .and_then(serde_json::Value::as_str)
                    .filter(|u| !u.is_empty())
                    .map(str::to_string),
            }),
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
    /// The client of an oauth2 scheme with a `clientCredentials` flow: a token is fetched from
    /// its `tokenUrl` (HTTP Basic client authentication, the requirement's scopes), sent as
    /// `Authorization: Bearer`, and cached until shortly before it expires.
    ClientCredentials {
        /// The client id.
        client_id: String,
        /// The client secret.
        client_secret: Secret,
    },
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
    /// Tokens to fetch (client credentials), each sent as `Authorization: Bearer`.
    pub tokens: Vec<TokenRequest>,
}

/// A client-credentials token wanted for one call.
#[derive(Debug, Clone)]
pub(crate) struct TokenRequest {
    /// The scheme's name.
    pub scheme: String,
    /// The `tokenUrl` as written.
    pub url: String,
    /// The requirement's scopes.
    pub scopes: Vec<String>,
    pub client_id: String,
    pub client_secret: Secret,
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
                Credential::ClientCredentials {
                    client_id,
                    client_secret,
                } => match &req.scheme {
                    Scheme::OAuth2 {
                        client_credentials_url: Some(url),
                    } => {
                        if out.headers.iter().any(|(n, _)| n == "authorization")
                            || !out.tokens.is_empty()
                        {
                            return Err(
                                "Authentication resolves multiple credentials for header 'authorization'."
                                    .into(),
                            );
                        }
                        out.tokens.push(TokenRequest {
                            scheme: req.name.clone(),
                            url: url.clone(),
                            scopes: req.scopes.clone(),
                            client_id,
                            client_secret,
                        });
                        continue;
                    }
                    _ => {
                        return Err(format!(
                            "Security scheme '{}' has no OAuth2 clientCredentials flow; resolve a bearer token for it instead of a client id and secret.",
                            req.name
                        ));
                    }
                },
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
            if list.iter().any(|(n, _)| *n == name)
                || (carrier == "header" && name == "authorization" && !out.tokens.is_empty())
            {
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
