"""The subset of Go's net/url that KServe applies to model URIs: `url.Parse` then `URL.String()`.

The controller reads `spec.model.uri` (and every LoRA adapter URI) through knative's
`apis.URL`, i.e. `url.Parse`, and works on `URL.String()` of the result. That round trip
lower-cases the scheme, percent-encodes what the path/fragment encoders escape, keeps a
valid original encoding of the path, and rejects some inputs outright (bad `%` escapes,
spaces or other characters in the host, non-numeric ports, control characters).

Everything here works on UTF-8 bytes, as Go strings do. Not covered: Go's full IP-literal
checks (a bracketed host is only checked to hold an IPv6 address).
"""

from __future__ import annotations

from llmc.core.record import record

_HOST, _ZONE, _PATH, _USER, _FRAGMENT = range(5)
_HEX = b"0123456789ABCDEF"


class URLError(ValueError):
    """A Go `*url.Error` (`parse "<url>": <reason>`) or one of its inner errors."""


@record
class URL:
    """The fields of Go's url.URL that String() reads (byte strings, like Go strings)."""

    scheme: bytes = b""
    opaque: bytes = b""
    user: tuple[bytes, bytes | None] | None = None  # (username, password or None)
    host: bytes = b""
    path: bytes = b""
    raw_path: bytes = b""
    omit_host: bool = False
    force_query: bool = False
    raw_query: bytes = b""
    fragment: bytes = b""
    raw_fragment: bytes = b""

    def string(self) -> str:
        """URL.String()."""
        out = bytearray()
        if self.scheme:
            out += self.scheme + b":"
        if self.opaque:
            out += self.opaque
        else:
            if self.scheme or self.host or self.user is not None:
                if not (self.omit_host and not self.host and self.user is None):
                    if self.host or self.path or self.user is not None:
                        out += b"//"
                    if self.user is not None:
                        name, password = self.user
                        out += _escape(name, _USER)
                        if password is not None:
                            out += b":" + _escape(password, _USER)
                        out += b"@"
                    if self.host:
                        out += _escape(self.host, _HOST)
            path = self._escaped_path()
            if path and path[:1] != b"/" and self.host:
                out += b"/"
            if not out and b":" in path.split(b"/", 1)[0]:
                out += b"./"
            out += path
        if self.force_query or self.raw_query:
            out += b"?" + self.raw_query
        if self.fragment:
            out += b"#" + self._escaped_fragment()
        return out.decode("utf-8", errors="surrogateescape")

    def _escaped_path(self) -> bytes:
        if self.raw_path and _valid_encoded(self.raw_path, _PATH):
            try:
                if _unescape(self.raw_path, _PATH) == self.path:
                    return self.raw_path
            except URLError:
                pass
        if self.path == b"*":
            return b"*"
        return _escape(self.path, _PATH)

    def _escaped_fragment(self) -> bytes:
        if self.raw_fragment and _valid_encoded(self.raw_fragment, _FRAGMENT):
            try:
                if _unescape(self.raw_fragment, _FRAGMENT) == self.fragment:
                    return self.raw_fragment
            except URLError:
                pass
        return _escape(self.fragment, _FRAGMENT)


def normalize(raw: str) -> str:
    """`url.Parse(raw).String()`; raises URLError with Go's message when Parse fails.

    An empty string stays empty (knative's ParseURL returns a zero URL for it).
    """
    if raw == "":
        return ""
    return parse(raw).string()


def parse(raw: str) -> URL:
    """url.Parse: split off the fragment, parse the rest, errors as `parse "<url>": <reason>`."""
    data = raw.encode("utf-8", errors="surrogateescape")
    head, sep, frag = data.partition(b"#")
    try:
        url = _parse(head)
    except URLError as exc:
        raise URLError(f"parse {quote(_text(head))}: {exc}") from None
    if not sep or not frag:
        return url
    try:
        url.fragment = _unescape(frag, _FRAGMENT)
    except URLError as exc:
        raise URLError(f"parse {quote(raw)}: {exc}") from None
    url.raw_fragment = b"" if _escape(url.fragment, _FRAGMENT) == frag else frag
    return url


def quote(text: str) -> str:
    """Go's strconv.Quote (the `%q` verb): double quotes, Go escapes for non-printable runes."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif 0xDC80 <= code <= 0xDCFF:  # a byte that was not valid UTF-8
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\x{code:02x}")
        elif ch == " " or ch.isprintable():
            out.append(ch)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_SHORT_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="surrogateescape")


def _parse(data: bytes) -> URL:
    if any(b < 0x20 or b == 0x7F for b in data):
        raise URLError("net/url: invalid control character in URL")
    url = URL()
    if data == b"*":
        url.path = b"*"
        return url
    scheme, rest = _get_scheme(data)
    url.scheme = scheme.lower()
    if rest.endswith(b"?") and rest.count(b"?") == 1:
        url.force_query = True
        rest = rest[:-1]
    else:
        rest, _, url.raw_query = rest.partition(b"?")
    if not rest.startswith(b"/"):
        if url.scheme:
            url.opaque = rest
            return url
        if b":" in rest.split(b"/", 1)[0]:
            raise URLError("first path segment in URL cannot contain colon")
    if (url.scheme or not rest.startswith(b"///")) and rest.startswith(b"//"):
        authority, slash, tail = rest[2:].partition(b"/")
        rest = slash + tail
        url.user, url.host = _parse_authority(authority)
    elif url.scheme and rest.startswith(b"/"):
        url.omit_host = True
    url.path = _unescape(rest, _PATH)
    url.raw_path = b"" if _escape(url.path, _PATH) == rest else rest
    return url


def _get_scheme(data: bytes) -> tuple[bytes, bytes]:
    for i, c in enumerate(data):
        if 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A:
            continue
        if 0x30 <= c <= 0x39 or c in b"+-.":
            if i == 0:
                return b"", data
            continue
        if c == 0x3A:  # ':'
            if i == 0:
                raise URLError("missing protocol scheme")
            return data[:i], data[i + 1 :]
        return b"", data
    return b"", data


def _parse_authority(authority: bytes) -> tuple[tuple[bytes, bytes | None] | None, bytes]:
    at = authority.rfind(b"@")
    host = _parse_host(authority[at + 1 :] if at >= 0 else authority)
    if at < 0:
        return None, host
    userinfo = authority[:at]
    if not _valid_userinfo(userinfo):
        raise URLError("net/url: invalid userinfo")
    if b":" not in userinfo:
        return (_unescape(userinfo, _USER), None), host
    name, _, password = userinfo.partition(b":")
    return (_unescape(name, _USER), _unescape(password, _USER)), host


def _parse_host(host: bytes) -> bytes:
    if host.startswith(b"["):
        end = host.rfind(b"]")
        if end < 0:
            raise URLError("missing ']' in host")
        port = host[end + 1 :]
        if not _valid_optional_port(port):
            raise URLError(f"invalid port {quote(_text(port))} after host")
        literal = host[1:end]
        zone = literal.find(b"%25")
        address = literal if zone < 0 else literal[:zone]
        import ipaddress  # only for a bracketed host: a plain render does not pay for the module

        try:
            ipaddress.IPv6Address(address.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            raise URLError(f"invalid host: {quote(_text(address))} is not an IPv6 address") from None
        if zone >= 0:
            return _unescape(host[:zone + 1], _HOST) + _unescape(host[zone + 1 : end], _ZONE) + _unescape(host[end:], _HOST)
    else:
        colon = host.rfind(b":")
        if colon >= 0 and not _valid_optional_port(host[colon:]):
            raise URLError(f"invalid port {quote(_text(host[colon:]))} after host")
    return _unescape(host, _HOST)


def _valid_optional_port(port: bytes) -> bool:
    if not port:
        return True
    return port[:1] == b":" and all(0x30 <= c <= 0x39 for c in port[1:])


def _valid_userinfo(data: bytes) -> bool:
    allowed = b"-._:~!$&'()*+,;=%@"
    return all(c < 0x80 and (chr(c).isalnum() or c in allowed) for c in data)


def _is_hex(c: int) -> bool:
    return 0x30 <= c <= 0x39 or 0x41 <= c <= 0x46 or 0x61 <= c <= 0x66


def _unescape(data: bytes, mode: int) -> bytes:
    """Go's unescape: validate every %XX (host rules included), then decode."""
    i = 0
    while i < len(data):
        c = data[i]
        if c == 0x25:  # '%'
            if i + 2 >= len(data) or not _is_hex(data[i + 1]) or not _is_hex(data[i + 2]):
                bad = data[i : i + 3]
                raise URLError(f"invalid URL escape {quote(_text(bad))}")
            if mode == _HOST and int(data[i + 1 : i + 2], 16) < 8 and data[i : i + 3] != b"%25":
                raise URLError(f"invalid URL escape {quote(_text(data[i : i + 3]))}")
            if mode == _ZONE:
                value = int(data[i + 1 : i + 3], 16)
                if data[i : i + 3] != b"%25" and value != 0x20 and _should_escape(value, _HOST):
                    raise URLError(f"invalid URL escape {quote(_text(data[i : i + 3]))}")
            i += 3
            continue
        if mode in (_HOST, _ZONE) and c < 0x80 and _should_escape(c, mode):
            raise URLError(f"invalid character {quote(chr(c))} in host name")
        i += 1
    out = bytearray()
    i = 0
    while i < len(data):
        if data[i] == 0x25:
            out.append(int(data[i + 1 : i + 3], 16))
            i += 3
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


def _should_escape(c: int, mode: int) -> bool:
    if 0x61 <= c <= 0x7A or 0x41 <= c <= 0x5A or 0x30 <= c <= 0x39:
        return False
    ch = chr(c)
    if mode in (_HOST, _ZONE) and ch in "!$&'()*+,;=:[]<>\"":
        return False
    if ch in "-_.~":
        return False
    if ch in "$&+,/:;=?@":
        if mode == _PATH:
            return ch == "?"
        if mode == _USER:
            return ch in "@/?:"
        if mode == _FRAGMENT:
            return False
    if mode == _FRAGMENT and ch in "!()*":
        return False
    return True


def _escape(data: bytes, mode: int) -> bytes:
    out = bytearray()
    for c in data:
        if not _should_escape(c, mode):
            out.append(c)
        else:
            out += b"%" + bytes((_HEX[c >> 4], _HEX[c & 15]))
    return bytes(out)


def _valid_encoded(data: bytes, mode: int) -> bool:
    for c in data:
        if chr(c) in "!$&'()*+,;=:@[]%":
            continue
        if _should_escape(c, mode):
            return False
    return True
