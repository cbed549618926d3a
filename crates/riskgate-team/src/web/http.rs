//! The reviewer's page's HTTP/1.1 transport: one request per connection, parsed by
//! `httparse`, over `std::net`.
//!
//! Bounded everywhere, because anyone who can reach the port can send anything: the request
//! head is at most [`MAX_HEAD`] bytes and [`MAX_HEADERS`] headers, a body at most [`MAX_BODY`]
//! bytes and only with a `Content-Length` (no chunked bodies), every read and write has a
//! time-out and the whole request must arrive within [`REQUEST_LIMIT`] (a client that
//! trickles bytes is cut off), and at most [`MAX_CONNECTIONS`] connections are served at
//! once (the next ones get a 503 and are closed). A request that breaks a rule gets a 4xx
//! answer, never a panic.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The longest request line and headers.
pub const MAX_HEAD: usize = 16 * 1024;
/// The most headers.
pub const MAX_HEADERS: usize = 48;
/// The longest body (a form).
pub const MAX_BODY: usize = 64 * 1024;
/// The whole request must have arrived within this time.
pub const REQUEST_LIMIT: Duration = Duration::from_secs(10);
/// One read or write may wait this long.
pub const IO_LIMIT: Duration = Duration::from_secs(5);
/// Connections served at once.
pub const MAX_CONNECTIONS: usize = 32;

/// A request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST` …
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query's decoded pairs.
    pub query: Vec<(String, String)>,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The first header `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first query parameter `name`, trimmed; `None` when absent or empty.
    pub fn param(&self, name: &str) -> Option<String> {
        first(&self.query, name)
    }

    /// The body's form fields (`application/x-www-form-urlencoded`).
    pub fn form(&self) -> Vec<(String, String)> {
        form_urlencoded::parse(&self.body).into_owned().collect()
    }

    /// The cookie `name`.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .filter(|(k, _)| k == "cookie")
            .flat_map(|(_, v)| v.split(';'))
            .filter_map(|c| c.trim().split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

/// The first value of `name` in `pairs`, trimmed; `None` when absent or empty.
pub fn first(pairs: &[(String, String)], name: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Extra headers (`Content-Type`, `Location`, `Set-Cookie` …).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// An HTML page.
    pub fn html(status: u16, body: String) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "text/html; charset=utf-8".into())],
            body: body.into_bytes(),
        }
    }

    /// Plain text.
    pub fn text(status: u16, body: &str) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    /// A `303 See Other` to `location` (after a form, or to the login page).
    pub fn redirect(location: &str) -> Response {
        Response {
            status: 303,
            headers: vec![("Location".into(), location.into())],
            body: Vec::new(),
        }
    }

    /// Add a header.
    pub fn with(mut self, name: &str, value: String) -> Response {
        self.headers.push((name.into(), value));
        self
    }
}

/// Why a request could not be read, and the status it gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 400, 408, 411, 413, 431, 501 …
    pub status: u16,
    /// Said to the client.
    pub message: &'static str,
}

fn refuse(status: u16, message: &'static str) -> Refusal {
    Refusal { status, message }
}

/// Read one request from `stream`, within [`REQUEST_LIMIT`]; `Ok(None)` when the client
/// closed without sending anything.
pub fn read_request(stream: &mut TcpStream) -> Result<Option<Request>, Refusal> {
    let started = Instant::now();
    let mut buf: Vec<u8> = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let head_len = loop {
        if let Some(end) = find_head_end(&buf) {
            break end;
        }
        if buf.len() > MAX_HEAD {
            return Err(refuse(431, "request head too large"));
        }
        match read_some(stream, &mut chunk, started)? {
            0 if buf.is_empty() => return Ok(None),
            0 => return Err(refuse(400, "truncated request")),
            n => buf.extend_from_slice(&chunk[..n]),
        }
    };
    if head_len > MAX_HEAD {
        return Err(refuse(431, "request head too large"));
    }
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    match parsed.parse(&buf[..head_len]) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(refuse(400, "truncated request")),
        Err(httparse::Error::TooManyHeaders) => return Err(refuse(431, "too many headers")),
        Err(_) => return Err(refuse(400, "malformed request")),
    }
    let method = parsed.method.unwrap_or("").to_string();
    let target = parsed.path.unwrap_or("/");
    let headers: Vec<(String, String)> = parsed
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_ascii_lowercase(),
                String::from_utf8_lossy(h.value).into_owned(),
            )
        })
        .collect();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && !v.trim().eq_ignore_ascii_case("identity"))
    {
        return Err(refuse(411, "a body needs a Content-Length"));
    }
    let lengths: Vec<&str> = headers
        .iter()
        .filter(|(k, _)| k == "content-length")
        .map(|(_, v)| v.trim())
        .collect();
    let length = match lengths.as_slice() {
        [] => 0,
        [one] => one
            .parse::<usize>()
            .map_err(|_| refuse(400, "bad Content-Length"))?,
        _ => return Err(refuse(400, "several Content-Length headers")),
    };
    if length > MAX_BODY {
        return Err(refuse(413, "body too large"));
    }
    let mut body: Vec<u8> = buf.get(head_len..).unwrap_or_default().to_vec();
    while body.len() < length {
        match read_some(stream, &mut chunk, started)? {
            0 => return Err(refuse(400, "truncated body")),
            n => body.extend_from_slice(&chunk[..n]),
        }
    }
    body.truncate(length);
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, q),
        None => (target, ""),
    };
    if !path.starts_with('/') {
        return Err(refuse(400, "bad request target"));
    }
    Ok(Some(Request {
        method,
        path: path.to_string(),
        query: form_urlencoded::parse(query.as_bytes())
            .into_owned()
            .collect(),
        headers,
        body,
    }))
}

fn find_head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|p| p + 4)
}

fn read_some(stream: &mut TcpStream, chunk: &mut [u8], started: Instant) -> Result<usize, Refusal> {
    loop {
        let left = REQUEST_LIMIT
            .checked_sub(started.elapsed())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| refuse(408, "request too slow"))?;
        stream
            .set_read_timeout(Some(left.min(IO_LIMIT)))
            .map_err(|_| refuse(400, "connection"))?;
        match stream.read(chunk) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Err(refuse(408, "request too slow"));
            }
            Err(_) => return Err(refuse(400, "connection")),
        }
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        303 => "See Other",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        421 => "Misdirected Request",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// The headers every answer carries: nothing cached, nothing framed, nothing loaded from
/// elsewhere (the pages have no script; styles and charts are inline).
const SECURITY_HEADERS: &str = "Cache-Control: no-store\r\n\
X-Content-Type-Options: nosniff\r\n\
X-Frame-Options: DENY\r\n\
Referrer-Policy: no-referrer\r\n\
Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'\r\n\
Connection: close\r\n";

/// Write `r` (a failure is the client's problem: it is dropped).
pub fn write_response(stream: &mut TcpStream, r: &Response) {
    let _ = stream.set_write_timeout(Some(IO_LIMIT));
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n{SECURITY_HEADERS}",
        r.status,
        reason(r.status)
    );
    for (k, v) in &r.headers {
        // a value never carries a line break (no header injection)
        let v: String = v.chars().filter(|c| *c != '\r' && *c != '\n').collect();
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", r.body.len()));
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&r.body);
    let _ = stream.flush();
}
