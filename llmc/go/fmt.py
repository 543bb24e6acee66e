"""Go's fmt printing, for the values of `reflect.py`.

Covers what templates can reach: Sprint/Sprintln/Sprintf with verbs
v s d q x X f F g G e E t c o O b U %, flags `+-# 0`, width, precision, `*`,
argument indexes, and Go's error forms (%!d(string=x), %!v(MISSING),
%!(EXTRA ...), %!(NOVERB), %!(BADWIDTH), %!(BADPREC), %!d(BADINDEX)).

Go prints a non-nil pointer found inside a value as a memory address; llmc
cannot know that address, so it raises `Unreproducible` instead of guessing.
"""

from __future__ import annotations

from llmc.go.reflect import (
    COMPLEX_KINDS, FLOAT_KINDS, INT_KINDS, UINT_KINDS, Value, dynamic, index_elem, length, sorted_map_items,
    struct_field,
)
from llmc.go.strconv import can_backquote, format_float, is_print, quote, quote_ascii, quote_rune


class Unreproducible(Exception):
    """Go's output here depends on the process (memory addresses) or on internals llmc does not model."""


# -- fmt --------------------------------------------------------------------


class _Flags:
    __slots__ = ("wid", "prec", "wid_present", "prec_present", "minus", "plus", "sharp", "space", "zero", "plus_v", "sharp_v")

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.wid = 0
        self.prec = 0
        self.wid_present = False
        self.prec_present = False
        self.minus = False
        self.plus = False
        self.sharp = False
        self.space = False
        self.zero = False
        self.plus_v = False
        self.sharp_v = False


class Printer:
    """One fmt call (Go's pp): a buffer and the current flags."""

    def __init__(self) -> None:
        self.buf: list[str] = []
        self.f = _Flags()
        self.erroring = False

    def text(self) -> str:
        return "".join(self.buf)

    # padding

    def _padding(self, n: int) -> str:
        if n <= 0:
            return ""
        return ("0" if self.f.zero and not self.f.minus else " ") * n

    def pad(self, s: str) -> None:
        f = self.f
        if not f.wid_present or f.wid == 0:
            self.buf.append(s)
            return
        width = f.wid - len(s)  # runes
        if not f.minus:
            self.buf.append(self._padding(width))
            self.buf.append(s)
        else:
            self.buf.append(s)
            self.buf.append(self._padding(width))

    # primitive formatters (fmt/format.go)

    def fmt_boolean(self, v: bool) -> None:
        self.pad("true" if v else "false")

    def fmt_integer(self, u: int, base: int, signed: bool, verb: str, upper: bool = False) -> None:
        f = self.f
        negative = signed and u < 0
        if negative:
            u = -u
        digits = "0123456789ABCDEFX" if upper else "0123456789abcdefx"
        prec = 0
        if f.prec_present:
            prec = f.prec
            if prec == 0 and u == 0:
                old = f.zero
                f.zero = False
                self.buf.append(self._padding(f.wid))
                f.zero = old
                return
        elif f.zero and not f.minus and f.wid_present:
            prec = f.wid
            if negative or f.plus or f.space:
                prec -= 1
        if u == 0:
            body = "0"
        else:
            out = []
            while u > 0:
                out.append(digits[u % base])
                u //= base
            body = "".join(reversed(out))
        if len(body) < prec:
            body = "0" * (prec - len(body)) + body
        if f.sharp:
            if base == 2:
                body = "0b" + body
            elif base == 8:
                if body[0] != "0":
                    body = "0" + body
            elif base == 16:
                body = "0" + digits[16] + body
        if verb == "O":
            body = "0o" + body
        if negative:
            body = "-" + body
        elif f.plus:
            body = "+" + body
        elif f.space:
            body = " " + body
        old = f.zero
        f.zero = False
        self.pad(body)
        f.zero = old

    def fmt_unicode(self, u: int) -> None:
        f = self.f
        prec = 4
        if f.prec_present and f.prec > 4:
            prec = f.prec
        body = f"{u:X}"
        if len(body) < prec:
            body = "0" * (prec - len(body)) + body
        body = "U+" + body
        if f.sharp and u <= 0x10FFFF and not (0xD800 <= u <= 0xDFFF) and is_print(chr(u)):
            body += " '" + chr(u) + "'"
        old = f.zero
        f.zero = False
        self.pad(body)
        f.zero = old

    def _truncate(self, s: str) -> str:
        if self.f.prec_present:
            return s[: self.f.prec]
        return s

    def fmt_s(self, s: str) -> None:
        self.pad(self._truncate(s))

    def fmt_sx(self, b: bytes, upper: bool) -> None:
        f = self.f
        digits = "0123456789ABCDEFX" if upper else "0123456789abcdefx"
        n = len(b)
        if f.prec_present and f.prec < n:
            n = f.prec
        width = 2 * n
        if width > 0:
            if f.space:
                if f.sharp:
                    width *= 2
                width += n - 1
            elif f.sharp:
                width += 2
        else:
            if f.wid_present:
                self.buf.append(self._padding(f.wid))
            return
        if f.wid_present and f.wid > width and not f.minus:
            self.buf.append(self._padding(f.wid - width))
        out = []
        if f.sharp:
            out.append("0" + digits[16])
        for i in range(n):
            if f.space and i > 0:
                out.append(" ")
                if f.sharp:
                    out.append("0" + digits[16])
            c = b[i]
            out.append(digits[c >> 4] + digits[c & 0xF])
        self.buf.append("".join(out))
        if f.wid_present and f.wid > width and f.minus:
            self.buf.append(self._padding(f.wid - width))

    def fmt_q(self, s: str) -> None:
        f = self.f
        s = self._truncate(s)
        if f.sharp and can_backquote(s):
            self.pad("`" + s + "`")
            return
        self.pad(quote_ascii(s) if f.plus else quote(s))

    def fmt_c(self, c: int) -> None:
        if c > 0x10FFFF or 0xD800 <= c <= 0xDFFF:
            c = 0xFFFD
        self.pad(chr(c))

    def fmt_qc(self, c: int) -> None:
        self.pad(quote_rune(c, self.f.plus))

    def fmt_float(self, v: float, size: int, verb: str, prec: int) -> None:
        f = self.f
        if f.prec_present:
            prec = f.prec
        num = format_float(v, verb, prec, size)
        if num[0] in "+-":
            pass
        else:
            num = "+" + num
        if f.space and num[0] == "+" and not f.plus:
            num = " " + num[1:]
        if num[1] in "IN":
            old = f.zero
            f.zero = False
            if num[1] == "N" and not f.space and not f.plus:
                num = num[1:]
            self.pad(num)
            f.zero = old
            return
        if f.sharp and verb != "b":
            digits = 0
            if verb in "vgGx":
                digits = prec if prec != -1 else 6
            tail = ""
            has_point = False
            saw_nonzero = False
            body = num
            i = 1
            while i < len(body):
                c = body[i]
                if c == ".":
                    has_point = True
                elif c in "pP" or (c in "eE" and verb not in "xX"):
                    tail = body[i:]
                    body = body[:i]
                    break
                else:
                    if c != "0":
                        saw_nonzero = True
                    if saw_nonzero:
                        digits -= 1
                i += 1
            if not has_point:
                if len(body) == 2 and body[1] == "0":
                    digits -= 1
                body += "."
            body += "0" * max(digits, 0)
            num = body + tail
        if f.plus or num[0] != "+":
            if f.zero and not f.minus and f.wid_present and f.wid > len(num):
                self.buf.append(num[0])
                self.buf.append(self._padding(f.wid - len(num)))
                self.buf.append(num[1:])
                return
            self.pad(num)
            return
        self.pad(num[1:])

    # print.go

    def bad_verb(self, v: Value | None, verb: str) -> None:
        self.erroring = True
        self.buf.append("%!" + verb + "(")
        if v is not None:
            self.buf.append(v.t.name + "=")
            self.print_arg(v, "v")
        else:
            self.buf.append("<nil>")
        self.buf.append(")")
        self.erroring = False

    def fmt_bool(self, v: Value, b: bool, verb: str) -> None:
        if verb in "tv":
            self.fmt_boolean(b)
        else:
            self.bad_verb(v, verb)

    def fmt_int(self, v: Value, n: int, signed: bool, verb: str) -> None:
        if verb == "v":
            if self.f.sharp_v and not signed:
                sharp = self.f.sharp
                self.f.sharp = True
                self.fmt_integer(n, 16, False, "v")
                self.f.sharp = sharp
            else:
                self.fmt_integer(n, 10, signed, verb)
        elif verb == "d":
            self.fmt_integer(n, 10, signed, verb)
        elif verb == "b":
            self.fmt_integer(n, 2, signed, verb)
        elif verb in "oO":
            self.fmt_integer(n, 8, signed, verb)
        elif verb == "x":
            self.fmt_integer(n, 16, signed, verb)
        elif verb == "X":
            self.fmt_integer(n, 16, signed, verb, upper=True)
        elif verb == "c":
            self.fmt_c(n if n >= 0 else 0x110000)
        elif verb == "q":
            self.fmt_qc(n if n >= 0 else 0x110000)
        elif verb == "U":
            self.fmt_unicode(n & 0xFFFFFFFFFFFFFFFF)
        else:
            self.bad_verb(v, verb)

    def fmt_flt(self, v: Value, x: float, size: int, verb: str) -> None:
        if verb == "v":
            self.fmt_float(x, size, "g", -1)
        elif verb in "gG":
            self.fmt_float(x, size, verb, -1)
        elif verb in "bxX":
            raise Unreproducible(f"the %{verb} verb on floats is not modelled")
        elif verb in "feE":
            self.fmt_float(x, size, verb, 6)
        elif verb == "F":
            self.fmt_float(x, size, "f", 6)
        else:
            self.bad_verb(v, verb)

    def fmt_complex(self, v: Value, c: complex, size: int, verb: str) -> None:
        if verb in "vbgGxXfFeE":
            old = self.f.plus
            self.buf.append("(")
            self.fmt_flt(v, c.real, size // 2, verb)
            self.f.plus = True
            self.fmt_flt(v, c.imag, size // 2, verb)
            self.buf.append("i)")
            self.f.plus = old
        else:
            self.bad_verb(v, verb)

    def fmt_string(self, v: Value | None, s: str, verb: str) -> None:
        if verb == "v":
            if self.f.sharp_v:
                self.fmt_q(s)
            else:
                self.fmt_s(s)
        elif verb == "s":
            self.fmt_s(s)
        elif verb == "x":
            self.fmt_sx(s.encode("utf-8", "surrogateescape"), False)
        elif verb == "X":
            self.fmt_sx(s.encode("utf-8", "surrogateescape"), True)
        elif verb == "q":
            self.fmt_q(s)
        else:
            self.bad_verb(v, verb)

    def handle_methods(self, v: Value, verb: str) -> bool:
        """Stringer, for an interface-held (non-addressable) value."""
        if self.erroring or self.f.sharp_v:
            return False
        if verb not in "vsxXq":
            return False
        t = v.t
        if t.stringer is not None and not t.stringer_ptr:
            text = t.stringer(v)
        elif t.kind == "ptr" and t.elem.stringer is not None:
            text = t.elem.stringer(v.x) if (v.x is not None or t.elem.stringer_ptr) else None
        else:
            return False
        if text is None:  # the method panics on a nil receiver; fmt prints <nil>
            self.buf.append("<nil>")
        else:
            self.fmt_string(v, text, verb)
        return True

    def print_verb(self, v: Value | None, verb: str) -> None:
        """One verb of doPrintf: %v and %w take the # and + flags as their own; %w is Errorf's alone."""
        f = self.f
        if verb in "vw":
            f.sharp_v, f.sharp = f.sharp, False
            f.plus_v, f.plus = f.plus, False
        if verb == "w":
            self.bad_verb(v, verb)
        else:
            self.print_arg(v, verb)

    def print_arg(self, v: Value | None, verb: str) -> None:
        if v is None:
            if verb in "Tv":
                self.pad("<nil>")
            else:
                self.bad_verb(None, verb)
            return
        if verb == "T":
            self.fmt_s(v.t.name)
            return
        if verb == "p":
            self.fmt_pointer(v, "p")
            return
        if self.handle_methods(v, verb):
            return
        self.print_value(v, verb, 0)

    def fmt_pointer(self, v: Value, verb: str) -> None:
        if v.t.kind not in ("ptr", "slice", "map", "func", "chan"):
            self.bad_verb(v, verb)
            return
        if verb not in "vpbodxX":
            self.bad_verb(v, verb)
        elif v.x is not None:
            raise Unreproducible(f"Go prints the memory address of a {v.t.name} here")
        elif verb == "v":
            if self.f.sharp_v:
                self.buf.append(f"({v.t.name})(nil)")
            else:
                self.pad("<nil>")
        elif verb == "p":
            sharp = self.f.sharp
            self.f.sharp = not sharp
            self.fmt_integer(0, 16, False, "v")
            self.f.sharp = sharp
        else:
            self.fmt_int(v, 0, False, verb)

    def print_value(self, v: Value | None, verb: str, depth: int) -> None:
        if depth > 0 and v is not None and self.handle_methods(v, verb):
            return
        if v is None:
            if depth == 0:
                self.buf.append("<invalid reflect.Value>")
            elif verb == "v":
                self.buf.append("<nil>")
            else:
                self.bad_verb(None, verb)
            return
        k = v.t.kind
        if k == "bool":
            self.fmt_bool(v, v.x, verb)
        elif k in INT_KINDS:
            self.fmt_int(v, v.x, True, verb)
        elif k in UINT_KINDS:
            self.fmt_int(v, v.x, False, verb)
        elif k in FLOAT_KINDS:
            self.fmt_flt(v, v.x, 32 if k == "float32" else 64, verb)
        elif k in COMPLEX_KINDS:
            self.fmt_complex(v, v.x, 64 if k == "complex64" else 128, verb)
        elif k == "string":
            self.fmt_string(v, v.x, verb)
        elif k == "map":
            if self.f.sharp_v:
                raise Unreproducible("%#v of a map")
            self.buf.append("map[")
            for i, (key, val) in enumerate(sorted_map_items(v)):
                if i > 0:
                    self.buf.append(" ")
                self.print_value(key, verb, depth + 1)
                self.buf.append(":")
                self.print_value(val, verb, depth + 1)
            self.buf.append("]")
        elif k == "struct":
            if v.t.opaque or v.t.partial:
                raise Unreproducible(f"Go prints the internal fields of {v.t.name} here")
            if self.f.sharp_v:
                raise Unreproducible("%#v of a struct")
            self.buf.append("{")
            for i, fld in enumerate(v.t.fields):
                if i > 0:
                    self.buf.append(" ")
                if self.f.plus_v:
                    self.buf.append(fld.name + ":")
                self.print_value(struct_field(v, fld), verb, depth + 1)
            self.buf.append("}")
        elif k == "interface":
            if v.x is None:
                if self.f.sharp_v:
                    self.buf.append(v.t.name + "(nil)")
                else:
                    self.buf.append("<nil>")
            else:
                self.print_value(v.x, verb, depth + 1)
        elif k in ("slice", "array"):
            if verb in "sqxX" and v.t.elem.kind == "uint8":
                data = bytes(v.x or [])
                if verb == "s":
                    self.fmt_s(data.decode("utf-8", "replace"))
                elif verb == "q":
                    self.fmt_q(data.decode("utf-8", "replace"))
                else:
                    self.fmt_sx(data, verb == "X")
                return
            if self.f.sharp_v:
                raise Unreproducible("%#v of a slice")
            self.buf.append("[")
            for i in range(length(v)):
                if i > 0:
                    self.buf.append(" ")
                self.print_value(index_elem(v, i), verb, depth + 1)
            self.buf.append("]")
        elif k == "ptr":
            if depth == 0 and v.x is not None and v.x.t.kind in ("array", "slice", "struct", "map"):
                self.buf.append("&")
                self.print_value(v.x, verb, depth + 1)
                return
            self.fmt_pointer(v, verb)
        elif k in ("func", "chan"):
            self.fmt_pointer(v, verb)
        else:
            self.buf.append("?" + v.t.name + "?")


def sprint(args: list[Value | None]) -> str:
    p = Printer()
    prev_string = False
    for i, a in enumerate(args):
        is_string = a is not None and a.t.kind == "string"
        if i > 0 and not is_string and not prev_string:
            p.buf.append(" ")
        p.print_arg(a, "v")
        prev_string = is_string
    return p.text()


def sprintln(args: list[Value | None]) -> str:
    p = Printer()
    for i, a in enumerate(args):
        if i > 0:
            p.buf.append(" ")
        p.print_arg(a, "v")
    p.buf.append("\n")
    return p.text()


def _parsenum(s: str, start: int, end: int) -> tuple[int, bool, int]:
    if start >= end:
        return 0, False, end
    num = 0
    isnum = False
    i = start
    while i < end and "0" <= s[i] <= "9":
        if num > 1_000_000:
            return 0, False, end
        num = num * 10 + ord(s[i]) - 48
        isnum = True
        i += 1
    return num, isnum, i


def _int_from_arg(args: list[Value | None], n: int) -> tuple[int, bool, int]:
    num, ok, new = 0, False, n
    if n < len(args):
        a = args[n]
        if a is not None and (a.t.kind in INT_KINDS or a.t.kind in UINT_KINDS):
            num, ok = a.x, True
            if a.t.kind in UINT_KINDS and num >= 1 << 63:
                num, ok = 0, False
        new = n + 1
        if num > 1_000_000 or num < -1_000_000:
            num, ok = 0, False
    return num, ok, new


def sprintf(fmt: str, args: list[Value | None]) -> str:
    """fmt.Sprintf; `fmt` is indexed by runes (Go scans bytes, which agrees for the ASCII syntax)."""
    p = Printer()
    f = p.f
    end = len(fmt)
    argn = 0
    after_index = False
    reordered = False
    i = 0

    def arg_number(argn: int, i: int) -> tuple[int, int, bool, bool]:
        """(argn, i, found, good)"""
        nonlocal reordered
        if i >= end or fmt[i] != "[":
            return argn, i, False, True
        reordered = True
        sub = fmt[i:]
        ok = False
        wid = 1
        index = 0
        if len(sub) >= 3:
            for j in range(1, len(sub)):
                if sub[j] == "]":
                    w, isnum, newi = _parsenum(sub, 1, j)
                    if not isnum or newi != j:
                        ok, wid = False, j + 1
                    else:
                        ok, wid, index = True, j + 1, w - 1
                    break
        if ok and 0 <= index < len(args):
            return index, i + wid, True, True
        return argn, i + wid, ok, False

    while i < end:
        good = True
        last = i
        while i < end and fmt[i] != "%":
            i += 1
        if i > last:
            p.buf.append(fmt[last:i])
        if i >= end:
            break
        i += 1
        f.clear()
        simple_done = False
        while i < end:
            c = fmt[i]
            if c == "#":
                f.sharp = True
            elif c == "0":
                f.zero = True
            elif c == "+":
                f.plus = True
            elif c == "-":
                f.minus = True
            elif c == " ":
                f.space = True
            else:
                if "a" <= c <= "z" and argn < len(args):
                    p.print_verb(args[argn], c)
                    argn += 1
                    i += 1
                    simple_done = True
                break
            i += 1
        if simple_done:
            continue

        argn, i, after_index, ok = arg_number(argn, i)
        good = good and ok
        if i < end and fmt[i] == "*":
            i += 1
            f.wid, f.wid_present, argn = _int_from_arg(args, argn)
            if not f.wid_present:
                p.buf.append("%!(BADWIDTH)")
            if f.wid < 0:
                f.wid = -f.wid
                f.minus = True
                f.zero = False
            after_index = False
        else:
            f.wid, f.wid_present, i = _parsenum(fmt, i, end)
            if after_index and f.wid_present:
                good = False

        if i + 1 < end and fmt[i] == ".":
            i += 1
            if after_index:
                good = False
            argn, i, after_index, ok = arg_number(argn, i)
            good = good and ok
            if i < end and fmt[i] == "*":
                i += 1
                f.prec, f.prec_present, argn = _int_from_arg(args, argn)
                if f.prec < 0:
                    f.prec = 0
                    f.prec_present = False
                if not f.prec_present:
                    p.buf.append("%!(BADPREC)")
                after_index = False
            else:
                f.prec, f.prec_present, i = _parsenum(fmt, i, end)
                if not f.prec_present:
                    f.prec = 0
                    f.prec_present = True

        if not after_index:
            argn, i, after_index, ok = arg_number(argn, i)
            good = good and ok

        if i >= end:
            p.buf.append("%!(NOVERB)")
            break
        verb = fmt[i]
        i += 1
        if verb == "%":
            p.buf.append("%")
        elif not good:
            p.buf.append("%!" + verb + "(BADINDEX)")
        elif argn >= len(args):
            p.buf.append("%!" + verb + "(MISSING)")
        else:
            p.print_verb(args[argn], verb)
            argn += 1

    if not reordered and argn < len(args):
        f.clear()
        p.buf.append("%!(EXTRA ")
        for j, a in enumerate(args[argn:]):
            if j > 0:
                p.buf.append(", ")
            if a is None:
                p.buf.append("<nil>")
            else:
                p.buf.append(a.t.name + "=")
                p.print_arg(a, "v")
        p.buf.append(")")
    return p.text()


def sprint_json(raw: object) -> str:
    """fmt.Sprint of what encoding/json decodes into an interface{}: `map[a:1 b:[x <nil>]]`, numbers as float64."""
    return sprint([dynamic(raw)])
