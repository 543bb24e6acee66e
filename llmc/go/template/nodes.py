"""Parse-tree nodes of Go text/template, with positions and Go's String() forms.

`pos` is an index into the template text (a Python string index; converted to
Go's byte offset only when an error message is formatted). `str(node)` is what
Go's Node.String() returns, which execution errors quote as `at <...>`.
"""

from __future__ import annotations

from llmc.core.record import field, record
from llmc.go.strconv import quote


class Node:
    """A node of the parse tree (Go's `parse.Node`); `pos` is its byte offset in the template text."""

    __slots__ = ()
    pos: int


@record(eq=False, slots=True)
class ListNode(Node):
    """A sequence of nodes: a template body or a branch's list."""

    pos: int
    nodes: list[Node] = field(default_factory=list)

    def __str__(self) -> str:
        return "".join(str(n) for n in self.nodes)


@record(eq=False, slots=True)
class TextNode(Node):
    """Plain text between actions, copied to the output."""

    pos: int
    text: str

    def __str__(self) -> str:
        return self.text


@record(eq=False, slots=True)
class CommentNode(Node):
    """A `{{/* comment */}}` action, which produces nothing."""

    pos: int
    text: str

    def __str__(self) -> str:
        return "{{" + self.text + "}}"


@record(eq=False, slots=True)
class DotNode(Node):
    """The cursor `.`."""

    pos: int

    def __str__(self) -> str:
        return "."


@record(eq=False, slots=True)
class NilNode(Node):
    """The untyped `nil` constant."""

    pos: int

    def __str__(self) -> str:
        return "nil"


@record(eq=False, slots=True)
class BoolNode(Node):
    """A `true` or `false` constant."""

    pos: int
    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"


@record(eq=False, slots=True)
class NumberNode(Node):
    """A number literal stored under every Go type that can represent it, like Go's NumberNode."""

    pos: int
    text: str
    is_int: bool = False
    is_uint: bool = False
    is_float: bool = False
    is_complex: bool = False
    int64: int = 0
    uint64: int = 0
    float64: float = 0.0
    complex128: complex = 0j

    def __str__(self) -> str:
        return self.text


@record(eq=False, slots=True)
class StringNode(Node):
    """A string constant: `quoted` as written, `text` unquoted."""

    pos: int
    quoted: str
    text: str

    def __str__(self) -> str:
        return self.quoted


@record(eq=False, slots=True)
class IdentifierNode(Node):
    """A function name."""

    pos: int
    ident: str

    def __str__(self) -> str:
        return self.ident


@record(eq=False, slots=True)
class FieldNode(Node):
    """A field chain on dot, `.A.B`; `ident` holds its names."""

    pos: int
    ident: list[str]

    def __str__(self) -> str:
        return "".join("." + i for i in self.ident)


@record(eq=False, slots=True)
class VariableNode(Node):
    """A variable with an optional field chain, `$x.A`; `ident[0]` is the variable."""

    pos: int
    ident: list[str]

    def __str__(self) -> str:
        return ".".join(self.ident)


@record(eq=False, slots=True)
class ChainNode(Node):
    """A term followed by fields, `(pipeline).A.B`."""

    pos: int
    node: Node
    fields: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        head = f"({self.node})" if isinstance(self.node, PipeNode) else str(self.node)
        return head + "".join("." + f for f in self.fields)


@record(eq=False, slots=True)
class CommandNode(Node):
    """One command of a pipeline: a function or value and its arguments."""

    pos: int
    args: list[Node] = field(default_factory=list)

    def __str__(self) -> str:
        parts = []
        for a in self.args:
            parts.append(f"({a})" if isinstance(a, PipeNode) else str(a))
        return " ".join(parts)


@record(eq=False, slots=True)
class PipeNode(Node):
    """A pipeline with its optional variable declarations (`$x := ...` or `$x = ...`)."""

    pos: int
    line: int
    is_assign: bool = False
    decl: list[VariableNode] = field(default_factory=list)
    cmds: list[CommandNode] = field(default_factory=list)

    def __str__(self) -> str:
        out = ""
        if self.decl:
            out = ", ".join(str(v) for v in self.decl) + (" = " if self.is_assign else " := ")
        return out + " | ".join(str(c) for c in self.cmds)


@record(eq=False, slots=True)
class ActionNode(Node):
    """A `{{pipeline}}` action whose value is printed."""

    pos: int
    line: int
    pipe: PipeNode

    def __str__(self) -> str:
        return "{{" + str(self.pipe) + "}}"


@record(eq=False, slots=True)
class BranchNode(Node):
    """if / range / with: `keyword` names which."""

    pos: int
    line: int
    keyword: str
    pipe: PipeNode
    list: ListNode
    else_list: ListNode | None

    def __str__(self) -> str:
        out = "{{" + self.keyword + " " + str(self.pipe) + "}}" + str(self.list)
        if self.else_list is not None:
            out += "{{else}}" + str(self.else_list)
        return out + "{{end}}"


@record(eq=False, slots=True)
class BreakNode(Node):
    """A `{{break}}` inside a range."""

    pos: int
    line: int

    def __str__(self) -> str:
        return "{{break}}"


@record(eq=False, slots=True)
class ContinueNode(Node):
    """A `{{continue}}` inside a range."""

    pos: int
    line: int

    def __str__(self) -> str:
        return "{{continue}}"


@record(eq=False, slots=True)
class TemplateNode(Node):
    """A `{{template "name" pipeline}}` call."""

    pos: int
    line: int
    name: str
    pipe: PipeNode | None

    def __str__(self) -> str:
        out = "{{template " + quote(self.name)
        if self.pipe is not None:
            out += " " + str(self.pipe)
        return out + "}}"


@record(eq=False, slots=True)
class EndNode(Node):
    """{{end}}: returned by the parser to close a list, never kept in the tree."""

    pos: int

    def __str__(self) -> str:
        return "{{end}}"


@record(eq=False, slots=True)
class ElseNode(Node):
    """{{else}}: returned by the parser to split a branch, never kept in the tree."""

    pos: int
    line: int

    def __str__(self) -> str:
        return "{{else}}"


_GO_SPACE = " \t\n\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def is_empty_tree(n: Node | None) -> bool:
    """Go's IsEmptyTree: nothing but space and comments."""
    if n is None or isinstance(n, CommentNode):
        return True
    if isinstance(n, ListNode):
        return all(is_empty_tree(x) for x in n.nodes)
    if isinstance(n, TextNode):
        return n.text.strip(_GO_SPACE) == ""
    return False
