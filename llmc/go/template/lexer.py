"""Lexer for Go text/template: turns template text into items, lazily, as the parser asks.

It follows the state machine of Go's text/template/parse lexer so that tokens,
trim markers and error texts come out exactly as Go's. Positions are indices
into the Python string; `byte_pos` converts them to Go's byte offsets for messages.
"""

from __future__ import annotations

import unicodedata
from enum import IntEnum

from llmc.core.record import record
from llmc.go.strconv import quote


class T(IntEnum):
    """Item types, in Go's order (keywords come after KEYWORD)."""

    ERROR = 0
    BOOL = 1
    CHAR = 2
    CHAR_CONSTANT = 3
    COMMENT = 4
    COMPLEX = 5
    ASSIGN = 6
    DECLARE = 7
    EOF = 8
    FIELD = 9
    IDENTIFIER = 10
    LEFT_DELIM = 11
    LEFT_PAREN = 12
    NUMBER = 13
    PIPE = 14
    RAW_STRING = 15
    RIGHT_DELIM = 16
    RIGHT_PAREN = 17
    SPACE = 18
    STRING = 19
    TEXT = 20
    VARIABLE = 21
    KEYWORD = 22
    BLOCK = 23
    BREAK = 24
    CONTINUE = 25
    DOT = 26
    DEFINE = 27
    ELSE = 28
    END = 29
    IF = 30
    NIL = 31
    RANGE = 32
    TEMPLATE = 33
    WITH = 34


KEYWORDS = {
    ".": T.DOT,
    "block": T.BLOCK,
    "break": T.BREAK,
    "continue": T.CONTINUE,
    "define": T.DEFINE,
    "else": T.ELSE,
    "end": T.END,
    "if": T.IF,
    "range": T.RANGE,
    "nil": T.NIL,
    "template": T.TEMPLATE,
    "with": T.WITH,
}

LEFT = "{{"
RIGHT = "}}"
LEFT_COMMENT = "/*"
RIGHT_COMMENT = "*/"
SPACE_CHARS = " \t\r\n"
EOF = ""


@record(frozen=True, slots=True)
class Item:
    """One lexed token (Go's `item`): its type, byte offset, text and line."""

    typ: T
    pos: int
    val: str
    line: int

    def __str__(self) -> str:
        if self.typ == T.EOF:
            return "EOF"
        if self.typ == T.ERROR:
            return self.val
        if self.typ > T.KEYWORD:
            return f"<{self.val}>"
        if len(self.val.encode()) > 10:
            return quote(self.val[:10]) + "..."  # Go's %.10q: the first ten runes
        return quote(self.val)


def is_space(r: str) -> bool:
    return r in (" ", "\t", "\r", "\n") and r != ""


def is_alnum(r: str) -> bool:
    return r != "" and (r == "_" or r.isalpha() or r.isdecimal())


def go_is_print(r: str) -> bool:
    """unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space."""
    if r == " ":
        return True
    return unicodedata.category(r)[0] in "LMNPS"


def format_rune_u(r: str) -> str:
    """fmt's %#U: U+0023 '#' (the quoted rune only when printable)."""
    code = f"U+{ord(r):04X}"
    if go_is_print(r):
        return f"{code} '{r}'"
    return code


def has_left_trim(s: str, i: int) -> bool:
    return len(s) >= i + 2 and s[i] == "-" and s[i + 1] in SPACE_CHARS


def has_right_trim(s: str, i: int) -> bool:
    return len(s) >= i + 2 and s[i] in SPACE_CHARS and s[i + 1] == "-"


class Lexer:
    """Go's lexer, pulled one item at a time with `next_item`."""

    def __init__(self, text: str, *, break_ok: bool = True, continue_ok: bool = True) -> None:
        self.input = text
        self.pos = 0
        self.start = 0
        self.at_eof = False
        self.paren_depth = 0
        self.line = 1
        self.start_line = 1
        self.inside_action = False
        self.break_ok = break_ok
        self.continue_ok = continue_ok
        self.item: Item | None = None

    # -- primitives -------------------------------------------------------

    def next(self) -> str:
        if self.pos >= len(self.input):
            self.at_eof = True
            return EOF
        r = self.input[self.pos]
        self.pos += 1
        if r == "\n":
            self.line += 1
        return r

    def peek(self) -> str:
        if self.pos >= len(self.input):
            self.at_eof = True  # Go's peek is next+backup: it marks EOF too
            return EOF
        return self.input[self.pos]

    def backup(self) -> None:
        if not self.at_eof and self.pos > 0:
            self.pos -= 1
            if self.input[self.pos] == "\n":
                self.line -= 1

    def this_item(self, t: T) -> Item:
        item = Item(t, self.start, self.input[self.start : self.pos], self.start_line)
        self.start = self.pos
        self.start_line = self.line
        return item

    def emit(self, t: T) -> None:
        self.item = self.this_item(t)
        return None

    def emit_item(self, item: Item) -> None:
        self.item = item
        return None

    def ignore(self) -> None:
        self.line += self.input.count("\n", self.start, self.pos)
        self.start = self.pos
        self.start_line = self.line

    def accept(self, valid: str) -> bool:
        r = self.next()
        if r != EOF and r in valid:
            return True
        self.backup()
        return False

    def accept_run(self, valid: str) -> None:
        while True:
            r = self.next()
            if r == EOF or r not in valid:
                break
        self.backup()

    def errorf(self, msg: str) -> None:
        self.item = Item(T.ERROR, self.start, msg, self.start_line)
        self.start = 0
        self.pos = 0
        self.input = ""
        return None

    def next_item(self) -> Item:
        self.item = Item(T.EOF, self.pos, "EOF", self.start_line)
        state = self.lex_inside_action if self.inside_action else self.lex_text
        while state is not None:
            state = state()
        return self.item

    # -- states -----------------------------------------------------------

    def lex_text(self):
        s = self.input
        x = s.find(LEFT, self.pos)
        if x >= 0:
            if x > self.pos:
                self.pos = x
                trim = 0
                delim_end = self.pos + len(LEFT)
                if has_left_trim(s, delim_end):
                    seg = s[self.start : self.pos]
                    trim = len(seg) - len(seg.rstrip(SPACE_CHARS))
                self.pos -= trim
                self.line += s.count("\n", self.start, self.pos)
                item = self.this_item(T.TEXT)
                self.pos += trim
                self.ignore()
                if item.val:
                    return self.emit_item(item)
            return self.lex_left_delim
        self.pos = len(s)
        if self.pos > self.start:
            self.line += s.count("\n", self.start, self.pos)
            return self.emit(T.TEXT)
        return self.emit(T.EOF)

    def at_right_delim(self) -> tuple[bool, bool]:
        s = self.input
        if has_right_trim(s, self.pos) and s.startswith(RIGHT, self.pos + 2):
            return True, True
        if s.startswith(RIGHT, self.pos):
            return True, False
        return False, False

    def lex_left_delim(self):
        s = self.input
        self.pos += len(LEFT)
        trim = has_left_trim(s, self.pos)
        after = 2 if trim else 0
        if s.startswith(LEFT_COMMENT, self.pos + after):
            self.pos += after
            self.ignore()
            return self.lex_comment
        item = self.this_item(T.LEFT_DELIM)
        self.inside_action = True
        self.pos += after
        self.ignore()
        self.paren_depth = 0
        return self.emit_item(item)

    def lex_comment(self):
        s = self.input
        self.pos += len(LEFT_COMMENT)
        x = s.find(RIGHT_COMMENT, self.pos)
        if x < 0:
            return self.errorf("unclosed comment")
        self.pos = x + len(RIGHT_COMMENT)
        delim, trim = self.at_right_delim()
        if not delim:
            return self.errorf("comment ends before closing delimiter")
        self.line += s.count("\n", self.start, self.pos)
        self.this_item(T.COMMENT)
        if trim:
            self.pos += 2
        self.pos += len(RIGHT)
        if trim:
            rest = s[self.pos :]
            self.pos += len(rest) - len(rest.lstrip(SPACE_CHARS))
        self.ignore()
        return self.lex_text

    def lex_right_delim(self):
        s = self.input
        _, trim = self.at_right_delim()
        if trim:
            self.pos += 2
            self.ignore()
        self.pos += len(RIGHT)
        item = self.this_item(T.RIGHT_DELIM)
        if trim:
            rest = s[self.pos :]
            self.pos += len(rest) - len(rest.lstrip(SPACE_CHARS))
            self.ignore()
        self.inside_action = False
        return self.emit_item(item)

    def lex_inside_action(self):
        delim, _ = self.at_right_delim()
        if delim:
            if self.paren_depth == 0:
                return self.lex_right_delim
            return self.errorf("unclosed left paren")
        r = self.next()
        if r == EOF:
            return self.errorf("unclosed action")
        if is_space(r):
            self.backup()
            return self.lex_space
        if r == "=":
            return self.emit(T.ASSIGN)
        if r == ":":
            if self.next() != "=":
                return self.errorf("expected :=")
            return self.emit(T.DECLARE)
        if r == "|":
            return self.emit(T.PIPE)
        if r == '"':
            return self.lex_quote
        if r == "`":
            return self.lex_raw_quote
        if r == "$":
            return self.lex_variable
        if r == "'":
            return self.lex_char
        if r == ".":
            if self.pos < len(self.input):
                c = self.input[self.pos]
                if not ("0" <= c <= "9"):
                    return self.lex_field
            self.backup()
            return self.lex_number
        if r in "+-" or "0" <= r <= "9":
            self.backup()
            return self.lex_number
        if is_alnum(r):
            self.backup()
            return self.lex_identifier
        if r == "(":
            self.paren_depth += 1
            return self.emit(T.LEFT_PAREN)
        if r == ")":
            self.paren_depth -= 1
            if self.paren_depth < 0:
                return self.errorf("unexpected right paren")
            return self.emit(T.RIGHT_PAREN)
        if ord(r) <= 0x7F and go_is_print(r):
            return self.emit(T.CHAR)
        return self.errorf(f"unrecognized character in action: {format_rune_u(r)}")

    def lex_space(self):
        num = 0
        while is_space(self.peek()):
            self.next()
            num += 1
        s = self.input
        if has_right_trim(s, self.pos - 1) and s.startswith(RIGHT, self.pos - 1 + 2):
            self.backup()
            if num == 1:
                return self.lex_right_delim
        return self.emit(T.SPACE)

    def lex_identifier(self):
        while True:
            r = self.next()
            if is_alnum(r):
                continue
            self.backup()
            word = self.input[self.start : self.pos]
            if not self.at_terminator():
                return self.errorf(f"bad character {format_rune_u(r)}")
            kw = KEYWORDS.get(word)
            if kw is not None and kw > T.KEYWORD:
                if (kw == T.BREAK and not self.break_ok) or (kw == T.CONTINUE and not self.continue_ok):
                    return self.emit(T.IDENTIFIER)
                return self.emit(kw)
            if word[0] == ".":
                return self.emit(T.FIELD)
            if word in ("true", "false"):
                return self.emit(T.BOOL)
            return self.emit(T.IDENTIFIER)

    def lex_field(self):
        return self.lex_field_or_variable(T.FIELD)

    def lex_variable(self):
        if self.at_terminator():
            return self.emit(T.VARIABLE)
        return self.lex_field_or_variable(T.VARIABLE)

    def lex_field_or_variable(self, typ: T):
        if self.at_terminator():
            return self.emit(T.VARIABLE if typ == T.VARIABLE else T.DOT)
        while True:
            r = self.next()
            if not is_alnum(r):
                self.backup()
                break
        if not self.at_terminator():
            return self.errorf(f"bad character {format_rune_u(r)}")
        return self.emit(typ)

    def at_terminator(self) -> bool:
        r = self.peek()
        if r == EOF or is_space(r) or r in ".,|:)(":
            return True
        return self.input.startswith(RIGHT, self.pos)

    def lex_char(self):
        return self._lex_escaped("'", "unterminated character constant", T.CHAR_CONSTANT)

    def lex_number(self):
        if not self.scan_number():
            return self.errorf(f"bad number syntax: {quote(self.input[self.start:self.pos])}")
        sign = self.peek()
        if sign in ("+", "-") and sign != EOF:
            if not self.scan_number() or self.input[self.pos - 1] != "i":
                return self.errorf(f"bad number syntax: {quote(self.input[self.start:self.pos])}")
            return self.emit(T.COMPLEX)
        return self.emit(T.NUMBER)

    def scan_number(self) -> bool:
        self.accept("+-")
        digits = "0123456789_"
        if self.accept("0"):
            if self.accept("xX"):
                digits = "0123456789abcdefABCDEF_"
            elif self.accept("oO"):
                digits = "01234567_"
            elif self.accept("bB"):
                digits = "01_"
        self.accept_run(digits)
        if self.accept("."):
            self.accept_run(digits)
        if len(digits) == 11 and self.accept("eE"):
            self.accept("+-")
            self.accept_run("0123456789_")
        if len(digits) == 23 and self.accept("pP"):
            self.accept("+-")
            self.accept_run("0123456789_")
        self.accept("i")
        if is_alnum(self.peek()):
            self.next()
            return False
        return True

    def lex_quote(self):
        return self._lex_escaped('"', "unterminated quoted string", T.STRING)

    def _lex_escaped(self, close: str, unterminated: str, typ: T):
        """Go's lexChar and lexQuote: up to `close`, backslash escapes skipped, on one line."""
        while True:
            r = self.next()
            if r == "\\":
                r2 = self.next()
                if r2 != EOF and r2 != "\n":
                    continue
                return self.errorf(unterminated)
            if r == EOF or r == "\n":
                return self.errorf(unterminated)
            if r == close:
                return self.emit(typ)

    def lex_raw_quote(self):
        while True:
            r = self.next()
            if r == EOF:
                return self.errorf("unterminated raw quoted string")
            if r == "`":
                break
        return self.emit(T.RAW_STRING)
