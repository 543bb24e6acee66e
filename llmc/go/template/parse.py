"""Parser of Go text/template: builds the node tree (with positions) and Go's parse errors.

Mirrors text/template/parse/parse.go: three-token lookahead, variable scoping,
define/block/template, `else if` / `else with`, break/continue inside range,
and its error texts (`template: NAME:LINE: unexpected ...`).
"""

from __future__ import annotations


from llmc.core.errors import LlmcError
from llmc.core.record import field, record
from llmc.go import strconv
from llmc.go.strconv import quote
from llmc.go.template.lexer import Item, Lexer, T
from llmc.go.template.nodes import (
    ActionNode, BoolNode, BranchNode, BreakNode, ChainNode, CommandNode, CommentNode, ContinueNode, DotNode,
    ElseNode, EndNode, FieldNode, IdentifierNode, ListNode, NilNode, Node, NumberNode, PipeNode, StringNode,
    TemplateNode, TextNode, VariableNode, is_empty_tree,
)

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Iterable

MAX_PAREN_DEPTH = 10000


class TemplateParseError(LlmcError):
    """A parse error, `message` worded exactly as Go's (`template: config:1: ...`); `pos`: the offset
    into the template text of the token at fault (None when unknown), for placing it in the source."""

    pos: int | None = None


class _Stop(Exception):
    def __init__(self, message: str, pos: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


@record(eq=False)
class Tree:
    """One parsed template: its name, the name of the top-level template it came from, its root list."""

    name: str
    parse_name: str
    text: str
    root: ListNode | None = None


@record(eq=False)
class _Parser:
    name: str
    parse_name: str
    text: str
    lex: Lexer
    funcs: frozenset[str]
    tree_set: dict[str, Tree]
    token: list[Item] = field(default_factory=lambda: [None, None, None])  # type: ignore[list-item]
    peek_count: int = 0
    vars: list[str] = field(default_factory=lambda: ["$"])
    action_line: int = 0
    range_depth: int = 0
    stack_depth: int = 0
    root: ListNode | None = None

    # -- token stream -------------------------------------------------------

    def next(self) -> Item:
        if self.peek_count > 0:
            self.peek_count -= 1
        else:
            self.token[0] = self.lex.next_item()
        return self.token[self.peek_count]

    def backup(self) -> None:
        self.peek_count += 1

    def backup2(self, t1: Item) -> None:
        self.token[1] = t1
        self.peek_count = 2

    def backup3(self, t2: Item, t1: Item) -> None:
        self.token[1] = t1
        self.token[2] = t2
        self.peek_count = 3

    def peek(self) -> Item:
        if self.peek_count > 0:
            return self.token[self.peek_count - 1]
        self.peek_count = 1
        self.token[0] = self.lex.next_item()
        return self.token[0]

    def next_non_space(self) -> Item:
        while True:
            tok = self.next()
            if tok.typ != T.SPACE:
                return tok

    def peek_non_space(self) -> Item:
        tok = self.next_non_space()
        self.backup()
        return tok

    # -- errors -------------------------------------------------------------

    def errorf(self, msg: str) -> None:
        line = self.token[0].line if self.token[0] is not None else 1
        raise _Stop(f"template: {self.parse_name}:{line}: {msg}", self.token[0].pos if self.token[0] is not None else None)

    def expect(self, expected: T, context: str) -> Item:
        tok = self.next_non_space()
        if tok.typ != expected:
            self.unexpected(tok, context)
        return tok

    def expect_one_of(self, e1: T, e2: T, context: str) -> Item:
        tok = self.next_non_space()
        if tok.typ != e1 and tok.typ != e2:
            self.unexpected(tok, context)
        return tok

    def unexpected(self, tok: Item, context: str) -> None:
        if tok.typ == T.ERROR:
            extra = ""
            if self.action_line != 0 and self.action_line != tok.line:
                extra = f" in action started at {self.parse_name}:{self.action_line}"
                if tok.val.endswith(" action"):
                    extra = extra[len(" in action") :]
            self.errorf(f"{tok}{extra}")
        self.errorf(f"unexpected {tok} in {context}")

    # -- trees ------------------------------------------------------------

    def sub(self, name: str) -> "_Parser":
        """A parser for a define/block body: Go's new Tree on the same lexer, own lookahead and variables."""
        return _Parser(name, self.parse_name, self.text, self.lex, self.funcs, self.tree_set)

    def add(self) -> None:
        tree = self.tree_set.get(self.name)
        if tree is None or is_empty_tree(tree.root):
            self.tree_set[self.name] = Tree(self.name, self.parse_name, self.text, self.root)
            return
        if not is_empty_tree(self.root):
            self.errorf(f"template: multiple definition of template {quote(self.name)}")

    def parse(self) -> None:
        self.root = ListNode(self.peek().pos)
        while self.peek().typ != T.EOF:
            if self.peek().typ == T.LEFT_DELIM:
                delim = self.next()
                if self.next_non_space().typ == T.DEFINE:
                    self.sub("definition").parse_definition()
                    continue
                self.backup2(delim)
            n = self.text_or_action()
            if isinstance(n, (EndNode, ElseNode)):
                self.errorf(f"unexpected {n}")
            self.root.nodes.append(n)

    def parse_definition(self) -> None:
        context = "define clause"
        name = self.expect_one_of(T.STRING, T.RAW_STRING, context)
        text = strconv.unquote(name.val)
        if text is None:
            self.errorf("invalid syntax")
        self.name = text
        self.expect(T.RIGHT_DELIM, context)
        self.root, end = self.item_list()
        if not isinstance(end, EndNode):
            self.errorf(f"unexpected {end} in {context}")
        self.add()

    def item_list(self) -> tuple[ListNode, Node]:
        lst = ListNode(self.peek_non_space().pos)
        while self.peek_non_space().typ != T.EOF:
            n = self.text_or_action()
            if isinstance(n, (EndNode, ElseNode)):
                return lst, n
            lst.nodes.append(n)
        self.errorf("unexpected EOF")
        raise AssertionError

    def text_or_action(self) -> Node:
        tok = self.next_non_space()
        if tok.typ == T.TEXT:
            return TextNode(tok.pos, tok.val)
        if tok.typ == T.LEFT_DELIM:
            self.action_line = tok.line
            try:
                return self.action()
            finally:
                self.action_line = 0
        if tok.typ == T.COMMENT:
            return CommentNode(tok.pos, tok.val)
        self.unexpected(tok, "input")
        raise AssertionError

    def action(self) -> Node:
        tok = self.next_non_space()
        t = tok.typ
        if t == T.BLOCK:
            return self.block_control()
        if t == T.BREAK:
            return self.break_control(tok.pos, tok.line)
        if t == T.CONTINUE:
            return self.continue_control(tok.pos, tok.line)
        if t == T.ELSE:
            return self.else_control()
        if t == T.END:
            return self.end_control()
        if t == T.IF:
            return self.branch("if")
        if t == T.RANGE:
            return self.branch("range")
        if t == T.TEMPLATE:
            return self.template_control()
        if t == T.WITH:
            return self.branch("with")
        self.backup()
        tok = self.peek()
        return ActionNode(tok.pos, tok.line, self.pipeline("command", T.RIGHT_DELIM))

    def break_control(self, pos: int, line: int) -> Node:
        tok = self.next_non_space()
        if tok.typ != T.RIGHT_DELIM:
            self.unexpected(tok, "{{break}}")
        if self.range_depth == 0:
            self.errorf("{{break}} outside {{range}}")
        return BreakNode(pos, line)

    def continue_control(self, pos: int, line: int) -> Node:
        tok = self.next_non_space()
        if tok.typ != T.RIGHT_DELIM:
            self.unexpected(tok, "{{continue}}")
        if self.range_depth == 0:
            self.errorf("{{continue}} outside {{range}}")
        return ContinueNode(pos, line)

    def pipeline(self, context: str, end: T) -> PipeNode:
        tok = self.peek_non_space()
        pipe = PipeNode(tok.pos, tok.line)
        while True:  # declarations (Go's `goto decls`)
            v = self.peek_non_space()
            if v.typ != T.VARIABLE:
                break
            self.next()
            after = self.peek()
            nxt = self.peek_non_space()
            if nxt.typ in (T.ASSIGN, T.DECLARE):
                pipe.is_assign = nxt.typ == T.ASSIGN
                self.next_non_space()
                pipe.decl.append(VariableNode(v.pos, v.val.split(".")))
                self.vars.append(v.val)
            elif nxt.typ == T.CHAR and nxt.val == ",":
                self.next_non_space()
                pipe.decl.append(VariableNode(v.pos, v.val.split(".")))
                self.vars.append(v.val)
                if context == "range" and len(pipe.decl) < 2:
                    if self.peek_non_space().typ in (T.VARIABLE, T.RIGHT_DELIM, T.RIGHT_PAREN):
                        continue
                    self.errorf("range can only initialize variables")
                self.errorf(f"too many declarations in {context}")
            elif after.typ == T.SPACE:
                self.backup3(v, after)
            else:
                self.backup2(v)
            break
        while True:
            tok = self.next_non_space()
            if tok.typ == end:
                self.check_pipeline(pipe, context)
                return pipe
            if tok.typ in (T.BOOL, T.CHAR_CONSTANT, T.COMPLEX, T.DOT, T.FIELD, T.IDENTIFIER, T.NUMBER,
                           T.NIL, T.RAW_STRING, T.STRING, T.VARIABLE, T.LEFT_PAREN):
                self.backup()
                pipe.cmds.append(self.command())
            else:
                self.unexpected(tok, context)

    def check_pipeline(self, pipe: PipeNode, context: str) -> None:
        if not pipe.cmds:
            self.errorf(f"missing value for {context}")
        for i, c in enumerate(pipe.cmds[1:]):
            if isinstance(c.args[0], (BoolNode, DotNode, NilNode, NumberNode, StringNode)):
                self.errorf(f"non executable command in pipeline stage {i + 2}")

    def branch(self, context: str) -> BranchNode:
        mark = len(self.vars)
        try:
            pipe = self.pipeline(context, T.RIGHT_DELIM)
            if context == "range":
                self.range_depth += 1
            lst, nxt = self.item_list()
            if context == "range":
                self.range_depth -= 1
            else_list = None
            if isinstance(nxt, ElseNode):
                if context == "if" and self.peek().typ == T.IF:
                    self.next()
                    else_list = ListNode(nxt.pos, [self.branch("if")])
                elif context == "with" and self.peek().typ == T.WITH:
                    self.next()
                    else_list = ListNode(nxt.pos, [self.branch("with")])
                else:
                    else_list, nxt = self.item_list()
                    if not isinstance(nxt, EndNode):
                        self.errorf(f"expected end; found {nxt}")
            return BranchNode(pipe.pos, pipe.line, context, pipe, lst, else_list)
        finally:
            del self.vars[mark:]

    def end_control(self) -> Node:
        return EndNode(self.expect(T.RIGHT_DELIM, "end").pos)

    def else_control(self) -> Node:
        peek = self.peek_non_space()
        if peek.typ in (T.IF, T.WITH):
            return ElseNode(peek.pos, peek.line)
        tok = self.expect(T.RIGHT_DELIM, "else")
        return ElseNode(tok.pos, tok.line)

    def block_control(self) -> Node:
        context = "block clause"
        tok = self.next_non_space()
        name = self.template_name(tok, context)
        pipe = self.pipeline(context, T.RIGHT_DELIM)
        block = self.sub(name)
        block.root, end = block.item_list()
        if not isinstance(end, EndNode):
            self.errorf(f"unexpected {end} in {context}")
        block.add()
        return TemplateNode(tok.pos, tok.line, name, pipe)

    def template_control(self) -> Node:
        context = "template clause"
        tok = self.next_non_space()
        name = self.template_name(tok, context)
        pipe = None
        if self.next_non_space().typ != T.RIGHT_DELIM:
            self.backup()
            pipe = self.pipeline(context, T.RIGHT_DELIM)
        return TemplateNode(tok.pos, tok.line, name, pipe)

    def template_name(self, tok: Item, context: str) -> str:
        if tok.typ in (T.STRING, T.RAW_STRING):
            s = strconv.unquote(tok.val)
            if s is None:
                self.errorf("invalid syntax")
            return s  # type: ignore[return-value]
        self.unexpected(tok, context)
        raise AssertionError

    def command(self) -> CommandNode:
        cmd = CommandNode(self.peek_non_space().pos)
        while True:
            self.peek_non_space()
            operand = self.operand()
            if operand is not None:
                cmd.args.append(operand)
            tok = self.next()
            if tok.typ == T.SPACE:
                continue
            if tok.typ in (T.RIGHT_DELIM, T.RIGHT_PAREN):
                self.backup()
            elif tok.typ == T.PIPE:
                pass
            else:
                self.unexpected(tok, "operand")
            break
        if not cmd.args:
            self.errorf("empty command")
        return cmd

    def operand(self) -> Node | None:
        node = self.term()
        if node is None:
            return None
        if self.peek().typ == T.FIELD:
            chain = ChainNode(self.peek().pos, node)
            while self.peek().typ == T.FIELD:
                chain.fields.append(self.next().val[1:])
            if isinstance(node, FieldNode):
                return FieldNode(chain.pos, str(chain)[1:].split("."))
            if isinstance(node, VariableNode):
                return VariableNode(chain.pos, str(chain).split("."))
            if isinstance(node, (BoolNode, StringNode, NumberNode, NilNode, DotNode)):
                self.errorf(f"unexpected . after term {quote(str(node))}")
            return chain
        return node

    def term(self) -> Node | None:
        tok = self.next_non_space()
        t = tok.typ
        if t == T.IDENTIFIER:
            if tok.val not in self.funcs:
                self.errorf(f"function {quote(tok.val)} not defined")
            return IdentifierNode(tok.pos, tok.val)
        if t == T.DOT:
            return DotNode(tok.pos)
        if t == T.NIL:
            return NilNode(tok.pos)
        if t == T.VARIABLE:
            return self.use_var(tok.pos, tok.val)
        if t == T.FIELD:
            return FieldNode(tok.pos, tok.val[1:].split("."))
        if t == T.BOOL:
            return BoolNode(tok.pos, tok.val == "true")
        if t in (T.CHAR_CONSTANT, T.COMPLEX, T.NUMBER):
            return self.number(tok)
        if t == T.LEFT_PAREN:
            if self.stack_depth >= MAX_PAREN_DEPTH:
                self.errorf("max expression depth exceeded")
            self.stack_depth += 1
            try:
                return self.pipeline("parenthesized pipeline", T.RIGHT_PAREN)
            finally:
                self.stack_depth -= 1
        if t in (T.STRING, T.RAW_STRING):
            s = strconv.unquote(tok.val)
            if s is None:
                self.errorf("invalid syntax")
            return StringNode(tok.pos, tok.val, s)  # type: ignore[arg-type]
        self.backup()
        return None

    def use_var(self, pos: int, name: str) -> VariableNode:
        v = VariableNode(pos, name.split("."))
        if v.ident[0] in self.vars:
            return v
        self.errorf(f"undefined variable {quote(v.ident[0])}")
        raise AssertionError

    def number(self, tok: Item) -> NumberNode:
        n = number_node(tok.pos, tok.val, tok.typ)
        if isinstance(n, str):
            self.errorf(n)
        return n  # type: ignore[return-value]


def number_node(pos: int, text: str, typ: T) -> NumberNode | str:
    """Go's newNumber: the literal under every type that holds it, or the error text."""
    n = NumberNode(pos, text)
    if typ == T.CHAR_CONSTANT:
        r = strconv.unquote_rune(text)
        if r is None:
            return "invalid syntax"
        if not strconv.rune_tail_ok(text):
            return f"malformed character constant: {text}"
        n.int64 = n.uint64 = r
        n.float64 = float(r)
        n.is_int = n.is_uint = n.is_float = True
        return n
    if typ == T.COMPLEX:
        c = _parse_complex(text)
        if c is None:
            return "expected integer"
        n.is_complex = True
        n.complex128 = c
        _simplify_complex(n)
        return n
    if text.endswith("i"):
        f = strconv.parse_float(text[:-1])
        if f is not None:
            n.is_complex = True
            n.complex128 = complex(0, f)
            _simplify_complex(n)
            return n
    u = strconv.parse_uint(text)
    if u is not None:
        n.is_uint = True
        n.uint64 = u
    i = strconv.parse_int(text)
    if i is not None:
        n.is_int = True
        n.int64 = i
        if i == 0:
            n.is_uint = True
            n.uint64 = u if u is not None else 0
    if n.is_int:
        n.is_float = True
        n.float64 = float(n.int64)
    elif n.is_uint:
        n.is_float = True
        n.float64 = float(n.uint64)
    else:
        f = strconv.parse_float(text)
        if f is not None:
            if not any(c in text for c in ".eEpP"):
                return f"integer overflow: {quote(text)}"
            n.is_float = True
            n.float64 = f
            _float_ints(n, f)
    if not (n.is_int or n.is_uint or n.is_float):
        return f"illegal number syntax: {quote(text)}"
    return n


def _float_ints(n: NumberNode, f: float) -> None:
    if f == int(f) and -(2**63) <= f < 2**63 and not n.is_int:
        n.is_int = True
        n.int64 = int(f)
    if f == int(f) and 0 <= f < 2**64 and not n.is_uint:
        n.is_uint = True
        n.uint64 = int(f)


def _simplify_complex(n: NumberNode) -> None:
    n.is_float = n.complex128.imag == 0
    if n.is_float:
        f = n.complex128.real
        n.float64 = f
        if f == int(f) and -(2**63) <= f < 2**63:
            n.is_int = True
            n.int64 = int(f)
        if f == int(f) and 0 <= f < 2**64:
            n.is_uint = True
            n.uint64 = int(f)


def _parse_complex(text: str) -> complex | None:
    """fmt.Sscan into a complex128 for the lexer's `real±imagi` form."""
    for k in range(len(text) - 1, 0, -1):
        if text[k] in "+-" and text[k - 1] not in "eEpP":
            re_ = strconv.parse_float(text[:k])
            im = strconv.parse_float(text[k:-1])
            if re_ is None or im is None:
                return None
            return complex(re_, im)
    return None


def parse_templates(name: str, text: str, funcs: Iterable[str]) -> dict[str, Tree]:
    """Parse `text` as template `name`; returns every template it defines, keyed by name.

    Raises TemplateParseError with Go's message.
    """
    tree_set: dict[str, Tree] = {}
    lex = Lexer(text)
    p = _Parser(name, name, text, lex, frozenset(funcs), tree_set)
    try:
        p.parse()
        p.add()
    except _Stop as stop:
        error = TemplateParseError(stop.message)
        error.pos = stop.pos
        raise error from None
    except RecursionError:
        raise TemplateParseError(f"template: {name}: nesting too deep for llmc's parser") from None
    return tree_set
