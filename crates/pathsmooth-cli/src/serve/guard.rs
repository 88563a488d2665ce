//! Same origin only: what keeps other web pages from driving the playground through the
//! visitor's browser.
//!
//! - **Host.** Every request must name this server in its `Host` header: by default the
//!   loopback names (`localhost`, `127.0.0.1`, `[::1]`) and the address it is bound to,
//!   with its port; other names only when given with `--allow-host`. A page on another
//!   site whose name an attacker points at 127.0.0.1 (DNS rebinding) sends its own name
//!   and is refused (403), so it cannot read the worlds offered.
//! - **Origin.** A request that carries an `Origin` (browsers send one with every POST)
//!   must come from such a name too (403).
//! - **Content type.** A POST body must be declared `application/json` (415). The forms
//!   and `text/plain` bodies that any page may send to any site without asking are
//!   refused; a page that sets `application/json` on a request to another site makes the
//!   browser ask first (a CORS preflight), and the playground sends no CORS headers, so
//!   the browser never sends it.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{CONTENT_TYPE, HOST, ORIGIN};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::limits::MAX_QUOTE_CHARS;
use crate::compare::bounded;

/// The names the server answers to (see the module docs).
#[derive(Debug, Clone)]
pub struct Hosts {
    /// Names allowed with the bound port only (lowercase; IPv6 in brackets).
    local: Vec<String>,
    /// Names given with `--allow-host`, allowed with any port (behind a proxy the port
    /// the browser sees is the proxy's).
    extra: Vec<String>,
    port: u16,
}

impl Hosts {
    /// The names a server bound to `bound` answers to: the loopback names and the bound
    /// address itself (with the bound port), plus `allowed` (any port).
    pub fn new(bound: SocketAddr, allowed: &[String]) -> Self {
        let mut local: Vec<String> = ["localhost", "127.0.0.1", "[::1]"]
            .into_iter()
            .map(String::from)
            .collect();
        let ip = match bound.ip() {
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        };
        if !bound.ip().is_unspecified() && !local.contains(&ip) {
            local.push(ip);
        }
        Hosts {
            local,
            extra: allowed.iter().map(|h| h.to_ascii_lowercase()).collect(),
            port: bound.port(),
        }
    }

    /// Whether `authority` (`name` or `name:port`, as a `Host` header or an origin's
    /// authority has it) names this server; `default_port` is the port meant when none is
    /// written (80 for `http`).
    pub fn allows(&self, authority: &str, default_port: u16) -> bool {
        let authority = authority.to_ascii_lowercase();
        let (name, port) = split_port(&authority);
        let port = match port {
            Some(p) => match p.parse::<u16>() {
                Ok(p) => p,
                Err(_) => return false,
            },
            None => default_port,
        };
        (port == self.port && self.local.iter().any(|n| n == name))
            || self.extra.iter().any(|n| n == name)
    }
}

/// `name` and the port after its last colon, if any (`[::1]:8080` → `[::1]`, `8080`;
/// `[::1]` → no port).
fn split_port(authority: &str) -> (&str, Option<&str>) {
    match authority.rfind(':') {
        Some(i) if !authority[i..].contains(']') => (&authority[..i], Some(&authority[i + 1..])),
        _ => (authority, None),
    }
}

fn forbidden(what: &str, value: &str, hint: &str) -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        format!(
            "{what} `{}` is not this server's; {hint}",
            bounded(value, MAX_QUOTE_CHARS)
        ),
    )
}

/// Why `headers` (of a request with `method`) are refused, if they are.
pub fn check(hosts: &Hosts, method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
    let text = |name| {
        headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()))
    };
    let host = text(HOST).unwrap_or_default();
    if !hosts.allows(&host, 80) {
        let name = split_port(&host).0;
        return Err(forbidden(
            "the Host",
            &host,
            &format!(
                "the playground answers to localhost and its own address (start it with --allow-host {} to serve it under that name)",
                bounded(name, MAX_QUOTE_CHARS)
            ),
        ));
    }
    if let Some(origin) = text(ORIGIN) {
        let allowed = if let Some(authority) = origin.strip_prefix("http://") {
            hosts.allows(authority, 80)
        } else if let Some(authority) = origin.strip_prefix("https://") {
            hosts.allows(authority, 443)
        } else {
            false
        };
        if !allowed {
            return Err(forbidden(
                "the origin",
                &origin,
                "the playground takes requests from its own page only",
            ));
        }
    }
    if method == Method::POST {
        let content_type = text(CONTENT_TYPE).unwrap_or_default();
        let media = content_type.split(';').next().unwrap_or("").trim();
        if !media.eq_ignore_ascii_case("application/json") {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "the body must be JSON sent with `Content-Type: application/json` (got `{}`)",
                    bounded(&content_type, MAX_QUOTE_CHARS)
                ),
            ));
        }
    }
    Ok(())
}

/// The router's middleware: [`check`] before any route.
pub async fn same_origin(
    State(hosts): State<Arc<Hosts>>,
    request: Request,
    next: Next,
) -> Response {
    match check(&hosts, request.method(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn loopback_names_with_the_port_and_allowed_names_with_any() {
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap(), &["Play.Example".into()]);
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "LOCALHOST:8080",
        ] {
            assert!(hosts.allows(ok, 80), "{ok}");
        }
        for ok in ["play.example", "play.example:443"] {
            assert!(hosts.allows(ok, 80), "{ok}");
        }
        for bad in [
            "localhost:8081",
            "localhost",
            "evil.example:8080",
            "",
            "[::1]",
            "x:y",
        ] {
            assert!(!hosts.allows(bad, 80), "{bad}");
        }
        let v6 = Hosts::new("[::1]:80".parse().unwrap(), &[]);
        assert!(v6.allows("[::1]", 80) && v6.allows("localhost:80", 80));
        let lan = Hosts::new("192.168.1.5:9000".parse().unwrap(), &[]);
        assert!(lan.allows("192.168.1.5:9000", 80));
        let any = Hosts::new("0.0.0.0:9000".parse().unwrap(), &[]);
        assert!(!any.allows("0.0.0.0:9000", 80) && any.allows("127.0.0.1:9000", 80));
    }

    #[test]
    fn cross_origin_and_non_json_posts_are_refused() {
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap(), &[]);
        let json = "application/json";
        let own = [("host", "127.0.0.1:8080"), ("content-type", json)];
        assert!(check(&hosts, &Method::POST, &headers(&own)).is_ok());
        let page = [
            ("host", "localhost:8080"),
            ("origin", "http://localhost:8080"),
            ("content-type", "Application/JSON; charset=utf-8"),
        ];
        assert!(check(&hosts, &Method::POST, &headers(&page)).is_ok());
        let status = |h: &[(&'static str, &str)], m: &Method| {
            check(&hosts, m, &headers(h)).unwrap_err().status()
        };
        let text = [("host", "127.0.0.1:8080"), ("content-type", "text/plain")];
        assert_eq!(status(&text, &Method::POST), 415);
        assert_eq!(status(&own[..1], &Method::POST), 415);
        let foreign = [
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example"),
            ("content-type", json),
        ];
        assert_eq!(status(&foreign, &Method::POST), 403);
        let rebound = [("host", "evil.example:8080")];
        assert_eq!(status(&rebound, &Method::GET), 403);
        assert_eq!(status(&[], &Method::GET), 403);
        let long = "x".repeat(10_000);
        let e = check(&hosts, &Method::GET, &headers(&[("host", &long)])).unwrap_err();
        assert!(e.message().chars().count() < 400, "{}", e.message());
    }
}
