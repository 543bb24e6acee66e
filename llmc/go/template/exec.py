"""Executor of Go text/template parse trees over the `values` model.

Follows text/template/exec.go step by step, including where it records the
current node (`at`), since Go's error messages quote that node. Execution is
bounded (docs/budgets.md): template call depth, total range iterations, calls
(template invocations and function calls: a `define` calling itself twice per
step is exponential within the depth limit), work (bytes produced by function
calls and written to the output: a million `printf` at width 1e6 stays within
the iteration limit), the size of any one value (doubling a string with
`printf "%s%s"`) and the output size each have a limit with a clear error.
"""

from __future__ import annotations

import sys

from llmc.core.errors import LlmcError
from llmc.core.record import field, record
from llmc.go import fmt as gofmt
from llmc.go.template.funcs import BUILTINS, VALUE, Func, FuncError, call_fn, is_true, truth
from llmc.go.template.nodes import (
    ActionNode, BoolNode, BranchNode, BreakNode, ChainNode, CommandNode, CommentNode, ContinueNode, DotNode,
    FieldNode, IdentifierNode, ListNode, NilNode, Node, NumberNode, PipeNode, StringNode, TemplateNode, TextNode,
    VariableNode,
)
from llmc.go.template.parse import Tree
from llmc.go.reflect import (
    BOOL, COMPLEX128, COMPLEX_KINDS, FLOAT64, FLOAT_KINDS, INT, INT_KINDS, STRING, UINT_KINDS, GoType, Method,
    NilEmbedded, Value, field_by_path, find_field, index_elem, indirect, indirect_interface, int_range, length,
    map_get, ptr_to, sorted_map_items, zero,
)

MAX_TEMPLATE_DEPTH = 1000
# Range work and output are bounded well below what would hurt a CI step or an Argo CD repo
# server (100,000 nested iterations take under a second here, and an error is executed twice for
# its position; KServe's presets iterate a few dozen times), and the output below the API
# server's 3 MiB request limit: a template cannot make an object the cluster would refuse anyway.
MAX_RANGE_ITERATIONS = 100_000
MAX_OUTPUT_BYTES = 3 * 1024 * 1024
# About two seconds of the slowest calls (a template invocation); the presets make a few hundred.
MAX_CALLS = 100_000
# Bytes produced by function calls plus bytes written: 20 times the output limit.
MAX_WORK_BYTES = 64 * 1024 * 1024
# No value can be larger than the output it could be printed into.
MAX_VALUE_BYTES = MAX_OUTPUT_BYTES


class TemplateExecError(LlmcError):
    """An execution error, `message` worded exactly as Go's (`template: config:1:5: executing ...`); `pos`:
    the offset into the template text of the node at fault (None when unknown)."""

    pos: int | None = None


@record(frozen=True)
class Limits:
    """The execution budgets of one template run (docs/budgets.md): nesting, range iterations, output, calls, work and value sizes."""

    template_depth: int = MAX_TEMPLATE_DEPTH
    range_iterations: int = MAX_RANGE_ITERATIONS
    output_bytes: int = MAX_OUTPUT_BYTES
    calls: int = MAX_CALLS
    work_bytes: int = MAX_WORK_BYTES
    value_bytes: int = MAX_VALUE_BYTES


class _Missing:
    """Go's missingVal: 'no final argument from the pipeline'."""


MISSING = _Missing()


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Fail(Exception):
    def __init__(self, message: str, pos: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


@record
class _Shared:
    trees: dict[str, Tree]
    funcs: dict[str, Func]
    missingkey: str
    limits: Limits
    out: list[str] = field(default_factory=list)
    out_bytes: int = 0
    iterations: int = 0
    calls: int = 0
    work: int = 0


class _State:
    __slots__ = ("sh", "tree", "name", "node", "vars", "depth")

    def __init__(self, sh: _Shared, tree: Tree, depth: int, dot: Value | None) -> None:
        self.sh = sh
        self.tree = tree
        self.name = tree.name
        self.node: Node | None = None
        self.vars: list[list] = [["$", dot]]
        self.depth = depth

    # -- errors -------------------------------------------------------------

    def errorf(self, msg: str) -> None:
        if self.node is None:
            raise _Fail(f"template: {self.name}: {msg}")
        raise _Fail(f"template: {self.location(self.node)}: executing {gofmt.quote(self.name)} at <{self.node}>: {msg}",
                    self.node.pos)

    def location(self, node: Node) -> str:
        text = self.tree.text[: node.pos]
        nl = text.rfind("\n")
        col = len(text.encode()) if nl < 0 else len(text[nl + 1 :].encode())
        return f"{self.tree.parse_name}:{1 + text.count(chr(10))}:{col}"

    # -- variables ------------------------------------------------------------

    def push(self, name: str, v: Value | None) -> None:
        self.vars.append([name, v])

    def mark(self) -> int:
        return len(self.vars)

    def pop(self, mark: int) -> None:
        del self.vars[mark:]

    def set_var(self, name: str, v: Value | None) -> None:
        for entry in reversed(self.vars):
            if entry[0] == name:
                entry[1] = v
                return
        self.errorf(f"undefined variable: {name}")

    def set_top_var(self, n: int, v: Value | None) -> None:
        self.vars[len(self.vars) - n][1] = v

    def var_value(self, name: str) -> Value | None:
        for entry in reversed(self.vars):
            if entry[0] == name:
                return entry[1]
        self.errorf(f"undefined variable: {name}")
        return None

    # -- output -------------------------------------------------------------

    def write(self, s: str) -> None:
        sh = self.sh
        sh.out_bytes += len(s)
        if sh.out_bytes > sh.limits.output_bytes:
            self.errorf(f"llmc limit: template output exceeds {sh.limits.output_bytes} bytes")
        self.add_work(len(s))
        sh.out.append(s)

    def add_work(self, n: int) -> None:
        sh = self.sh
        sh.work += n
        if sh.work > sh.limits.work_bytes:
            self.errorf(f"llmc limit: template work exceeds {sh.limits.work_bytes} bytes (bytes produced by "
                        "function calls and written)")

    def count_call(self) -> None:
        sh = self.sh
        sh.calls += 1
        if sh.calls > sh.limits.calls:
            self.errorf(f"llmc limit: more than {sh.limits.calls} template and function calls")

    # -- walk -----------------------------------------------------------------

    def walk(self, dot: Value | None, node: Node) -> None:
        self.node = node
        if isinstance(node, TextNode):
            self.write(node.text)
        elif isinstance(node, ActionNode):
            val = self.eval_pipeline(dot, node.pipe)
            if not node.pipe.decl:
                self.print_value(node, val)
        elif isinstance(node, ListNode):
            for n in node.nodes:
                self.walk(dot, n)
        elif isinstance(node, BranchNode):
            if node.keyword == "range":
                self.walk_range(dot, node)
            else:
                self.walk_if_or_with(node, dot)
        elif isinstance(node, TemplateNode):
            self.walk_template(dot, node)
        elif isinstance(node, BreakNode):
            raise _Break()
        elif isinstance(node, ContinueNode):
            raise _Continue()
        elif isinstance(node, CommentNode):
            pass
        else:
            self.errorf(f"unknown node: {node}")

    def walk_if_or_with(self, node: BranchNode, dot: Value | None) -> None:
        mark = self.mark()
        try:
            val = self.eval_pipeline(dot, node.pipe)
            if is_true(indirect_interface(val)):
                self.walk(val if node.keyword == "with" else dot, node.list)
            elif node.else_list is not None:
                self.walk(dot, node.else_list)
        finally:
            self.pop(mark)

    def walk_range(self, dot: Value | None, r: BranchNode) -> None:
        self.node = r
        outer = self.mark()
        try:
            val, _ = indirect(self.eval_pipeline(dot, r.pipe))
            mark = self.mark()
            decl = r.pipe.decl

            def one(index: Value | None, elem: Value | None) -> None:
                sh = self.sh
                sh.iterations += 1
                if sh.iterations > sh.limits.range_iterations:
                    self.node = r
                    self.errorf(f"llmc limit: more than {sh.limits.range_iterations} range iterations")
                if decl:
                    if r.pipe.is_assign:
                        self.set_var(decl[0].ident[0], index if len(decl) > 1 else elem)
                    else:
                        self.set_top_var(1, elem)
                if len(decl) > 1:
                    if r.pipe.is_assign:
                        self.set_var(decl[1].ident[0], elem)
                    else:
                        self.set_top_var(2, index)
                try:
                    self.walk(elem, r.list)
                except _Continue:
                    pass
                finally:
                    self.pop(mark)

            ran = False
            k = val.t.kind if val is not None else "invalid"
            if k in INT_KINDS or k in UINT_KINDS:
                if len(decl) > 1:
                    self.errorf(f"can't use {self.sprint_v(val)} to iterate over more than one variable")
                for i in range(max(val.x, 0)):
                    ran = True
                    one(None, Value(val.t, i))
            elif k in ("slice", "array"):
                for i in range(length(val)):
                    ran = True
                    one(Value(INT, i), index_elem(val, i))
            elif k == "map":
                for key, v in sorted_map_items(val):
                    ran = True
                    one(key, v)
            elif k != "invalid":
                self.errorf(f"range can't iterate over {self.sprint_v(val)}")
            if not ran and r.else_list is not None:
                self.walk(dot, r.else_list)
        except _Break:
            pass
        finally:
            self.pop(outer)

    def walk_template(self, dot: Value | None, t: TemplateNode) -> None:
        self.node = t
        tree = self.sh.trees.get(t.name)
        if tree is None or tree.root is None:
            self.errorf(f"template {gofmt.quote(t.name)} not defined")
        if self.depth >= self.sh.limits.template_depth:
            self.errorf(f"exceeded maximum template depth ({self.sh.limits.template_depth})")
        self.count_call()
        dot = self.eval_pipeline(dot, t.pipe)
        sub = _State(self.sh, tree, self.depth + 1, dot)
        sub.walk(dot, tree.root)

    # -- printing -------------------------------------------------------------

    def print_value(self, node: Node, v: Value | None) -> None:
        self.node = node
        if v is not None and v.t.kind == "ptr":
            v, _ = indirect(v)
        if v is None:
            self.write("<no value>")
            return
        try:
            if v.t.stringer is not None and v.t.stringer_ptr and v.addr:
                text = v.t.stringer(v)
                self.write("<nil>" if text is None else text)
                return
            if v.t.kind in ("func", "chan"):
                self.errorf(f"can't print {node} of type {v.t}")
            self.write(gofmt.sprint([v]))
        except gofmt.Unreproducible as e:
            self.errorf(f"llmc cannot reproduce this output: {e}")

    def sprint_v(self, v: Value | None) -> str:
        try:
            return gofmt.sprint([v])
        except gofmt.Unreproducible as e:
            self.errorf(f"llmc cannot reproduce this output: {e}")
            raise AssertionError from e

    # -- evaluation -----------------------------------------------------------

    def eval_pipeline(self, dot: Value | None, pipe: PipeNode | None) -> Value | None:
        if pipe is None:
            return None
        self.node = pipe
        value: Value | None | _Missing = MISSING
        for cmd in pipe.cmds:
            value = self.eval_command(dot, cmd, value)
            if value is not None and value.t.kind == "interface":
                value = value.x
        for v in pipe.decl:
            if pipe.is_assign:
                self.set_var(v.ident[0], value)  # type: ignore[arg-type]
            else:
                self.push(v.ident[0], value)  # type: ignore[arg-type]
        return value  # type: ignore[return-value]

    def not_a_function(self, args: list[Node] | None, final) -> None:
        if (args is not None and len(args) > 1) or final is not MISSING:
            self.errorf(f"can't give argument to non-function {args[0]}")  # type: ignore[index]

    def eval_command(self, dot: Value | None, cmd: CommandNode, final) -> Value | None:
        first = cmd.args[0]
        if isinstance(first, FieldNode):
            return self.eval_field_node(dot, first, cmd.args, final)
        if isinstance(first, ChainNode):
            return self.eval_chain_node(dot, first, cmd.args, final)
        if isinstance(first, IdentifierNode):
            return self.eval_function(dot, first, cmd, cmd.args, final)
        if isinstance(first, PipeNode):
            self.not_a_function(cmd.args, final)
            return self.eval_pipeline(dot, first)
        if isinstance(first, VariableNode):
            return self.eval_variable_node(dot, first, cmd.args, final)
        self.node = first
        self.not_a_function(cmd.args, final)
        if isinstance(first, BoolNode):
            return Value(BOOL, first.value)
        if isinstance(first, DotNode):
            return dot
        if isinstance(first, NilNode):
            self.errorf("nil is not a command")
        if isinstance(first, NumberNode):
            return self.ideal_constant(first)
        if isinstance(first, StringNode):
            return Value(STRING, first.text)
        self.errorf(f"can't evaluate command {gofmt.quote(str(first))}")
        return None

    def ideal_constant(self, c: NumberNode) -> Value | None:
        self.node = c
        text = c.text
        is_hex_int = len(text) > 2 and text[0] == "0" and text[1] in "xX" and not any(ch in text for ch in "pP")
        if c.is_complex:
            return Value(COMPLEX128, c.complex128)
        if c.is_float and not is_hex_int and not text.startswith("'") and any(ch in text for ch in ".eEpP"):
            return Value(FLOAT64, c.float64)
        if c.is_int:
            return Value(INT, c.int64)
        if c.is_uint:
            self.errorf(f"{text} overflows int")
        return None

    def eval_field_node(self, dot, f: FieldNode, args, final) -> Value | None:
        self.node = f
        return self.eval_field_chain(dot, dot, f, f.ident, args, final)

    def eval_chain_node(self, dot, chain: ChainNode, args, final) -> Value | None:
        self.node = chain
        if not chain.fields:
            self.errorf("internal error: no fields in evalChainNode")
        if isinstance(chain.node, NilNode):
            self.errorf(f"indirection through explicit nil in {chain}")
        pipe = self.eval_arg(dot, None, chain.node)
        return self.eval_field_chain(dot, pipe, chain, chain.fields, args, final)

    def eval_variable_node(self, dot, v: VariableNode, args, final) -> Value | None:
        self.node = v
        value = self.var_value(v.ident[0])
        if len(v.ident) == 1:
            self.not_a_function(args, final)
            return value
        return self.eval_field_chain(dot, value, v, v.ident[1:], args, final)

    def eval_field_chain(self, dot, receiver, node: Node, ident: list[str], args, final) -> Value | None:
        for name in ident[:-1]:
            receiver = self.eval_field(dot, name, node, None, MISSING, receiver)
        return self.eval_field(dot, ident[-1], node, args, final, receiver)

    def eval_function(self, dot, node: IdentifierNode, cmd: Node, args, final) -> Value | None:
        self.node = node
        fn = self.sh.funcs.get(node.ident)
        if fn is None:
            self.errorf(f"{gofmt.quote(node.ident)} is not a defined function")
        return self.eval_call(dot, fn, fn.name in BUILTINS and BUILTINS[fn.name] is fn, cmd, node.ident, args, final)

    def eval_field(self, dot, name: str, node: Node, args, final, receiver: Value | None) -> Value | None:
        if receiver is None:
            if self.sh.missingkey == "error":
                self.errorf(f"nil data; no entry for key {gofmt.quote(name)}")
            return None
        typ = receiver.t
        receiver, isnil = indirect(receiver)
        if receiver.t.kind == "interface" and isnil:
            self.errorf(f"nil pointer evaluating {typ}.{name}")
        method = self.find_method(receiver, name)
        if method is not None:
            fn, bound = method
            return self.eval_call(dot, fn, False, node, name, args, final, bound)
        has_args = (args is not None and len(args) > 1) or final is not MISSING
        k = receiver.t.kind
        if k == "struct":
            path = find_field(receiver.t, name)
            if path is not None:
                if not path[-1].exported:
                    self.errorf(f"{name} is an unexported field of struct type {typ}")
                try:
                    value = field_by_path(receiver, path)
                except NilEmbedded as e:
                    self.errorf(f"reflect: indirection through nil pointer to embedded struct field {e.field_name}")
                if has_args:
                    self.errorf(f"{name} has arguments but cannot be invoked as function")
                return value
            if receiver.t.partial:
                self.errorf(f"llmc does not model field {name} of Go type {receiver.t}")
        elif k == "map":
            if receiver.t.key.name == "string":
                if has_args:
                    self.errorf(f"{name} is not a method but has arguments")
                result = map_get(receiver, name)
                if result is None:
                    if self.sh.missingkey == "zero":
                        result = zero(receiver.t.elem)
                    elif self.sh.missingkey == "error":
                        self.errorf(f"map has no entry for key {gofmt.quote(name)}")
                return result
        elif k == "ptr":
            et = receiver.t.elem
            if et.partial and find_field(et, name) is None:
                self.errorf(f"llmc does not model field {name} of Go type {et}")
            if not (et.kind == "struct" and find_field(et, name) is None):
                if isnil:
                    self.errorf(f"nil pointer evaluating {typ}.{name}")
        self.errorf(f"can't evaluate field {name} in type {typ}")
        return None

    def find_method(self, receiver: Value, name: str) -> tuple[Func, Value] | None:
        """The method `name` of the receiver's method set (pointer methods too when addressable or a pointer)."""
        t = receiver.t
        if t.kind == "ptr":
            m = t.elem.methods.get(name)
            return (_method_func(name, m), receiver) if m is not None else None
        m = t.methods.get(name)
        if m is None:
            return None
        if m.ptr_receiver and not receiver.addr:
            return None
        return _method_func(name, m), Value(ptr_to(t), receiver) if m.ptr_receiver else receiver

    # -- calls ------------------------------------------------------------------

    def eval_call(self, dot, fn: Func, is_builtin: bool, node: Node, name: str, args, final,
                  receiver: Value | None = None) -> Value | None:
        if args is not None:
            args = args[1:]
        else:
            args = []
        num_in = len(args) + (0 if final is MISSING else 1)
        num_fixed = len(args)
        if fn.variadic:
            num_fixed = fn.num_in() - 1
            if num_in < num_fixed:
                self.errorf(f"wrong number of args for {name}: want at least {fn.num_in() - 1} got {len(args)}")
        elif num_in != fn.num_in():
            self.errorf(f"wrong number of args for {name}: want {fn.num_in()} got {num_in}")

        if is_builtin and name in ("and", "or"):
            v = None
            for arg in args:
                v = self.eval_arg(dot, VALUE, arg)
                if truth(v) == (name == "or"):
                    return v
            if final is not MISSING:
                v = self.validate_type(final, VALUE)
            return v

        argv: list[Value | None] = []
        i = 0
        while i < num_fixed and i < len(args):
            argv.append(self.eval_arg(dot, fn.params[i], args[i]))
            i += 1
        if fn.variadic:
            at = fn.params[-1]
            while i < len(args):
                argv.append(self.eval_arg(dot, at, args[i]))
                i += 1
        if final is not MISSING:
            t = fn.params[-1]
            if fn.variadic and num_in - 1 < num_fixed:
                t = fn.params[num_in - 1]
            argv.append(self.validate_type(final, t))

        self.count_call()
        try:
            if is_builtin and name == "call":
                callee = final.t.name if not args else str(args[0])
                result = call_fn(callee, *argv)
            elif receiver is not None:
                result = fn.impl(receiver, *argv)
            else:
                result = fn.impl(*argv)
        except FuncError as e:
            self.node = node
            self.errorf(f"error calling {name}: {e}")
        except gofmt.Unreproducible as e:
            self.node = node
            self.errorf(f"llmc cannot reproduce this output: {e}")
        if result is not None and result.t.kind == "string":
            size = len(result.x)
            if size > self.sh.limits.value_bytes:
                self.node = node
                self.errorf(f"llmc limit: a value of {size} bytes exceeds {self.sh.limits.value_bytes} bytes")
            self.add_work(size)
        return result

    def validate_type(self, value: Value | None, typ: GoType | None) -> Value | None:
        if value is None:
            if typ is None or typ is VALUE:
                return None
            if typ.kind in ("chan", "func", "interface", "map", "ptr", "slice"):
                return zero(typ)
            self.errorf(f"invalid value; expected {typ}")
        if typ is None or typ is VALUE or typ.kind == "interface":
            return value
        if value.t.name == typ.name:
            return value
        if value.t.kind == "interface" and value.x is not None:
            value = value.x
            if value.t.name == typ.name:
                return value
        if value.t.kind == "ptr" and value.t.elem.name == typ.name:
            if value.x is None:
                self.errorf(f"dereference of nil pointer of type {typ}")
            return value.x
        if typ.kind == "ptr" and typ.elem.name == value.t.name and value.addr:
            return Value(typ, value)
        self.errorf(f"wrong type for value; expected {typ}; got {value.t}")
        return None

    def eval_arg(self, dot, typ: GoType | None, n: Node) -> Value | None:
        self.node = n
        if isinstance(n, DotNode):
            return self.validate_type(dot, typ)
        if isinstance(n, NilNode):
            if typ is VALUE or (typ is not None and typ.kind in ("chan", "func", "interface", "map", "ptr", "slice")):
                return None if typ is VALUE or typ.kind == "interface" else zero(typ)
            self.errorf(f"cannot assign nil to {typ}")
        if isinstance(n, FieldNode):
            return self.validate_type(self.eval_field_node(dot, n, [n], MISSING), typ)
        if isinstance(n, VariableNode):
            return self.validate_type(self.eval_variable_node(dot, n, None, MISSING), typ)
        if isinstance(n, PipeNode):
            return self.validate_type(self.eval_pipeline(dot, n), typ)
        if isinstance(n, IdentifierNode):
            return self.validate_type(self.eval_function(dot, n, n, None, MISSING), typ)
        if isinstance(n, ChainNode):
            return self.validate_type(self.eval_chain_node(dot, n, None, MISSING), typ)
        if typ is None:
            self.errorf(f"can't handle {n} for arg of type <nil>")
        k = typ.kind
        if typ is VALUE or (k == "interface" and not typ.methods):
            return self.eval_empty_interface(dot, n)
        if k == "bool":
            if isinstance(n, BoolNode):
                return Value(typ, n.value)
            self.errorf(f"expected bool; found {n}")
        if k in COMPLEX_KINDS:
            if isinstance(n, NumberNode) and n.is_complex:
                return Value(typ, n.complex128)
            self.errorf(f"expected complex; found {n}")
        if k in FLOAT_KINDS:
            if isinstance(n, NumberNode) and n.is_float:
                return Value(typ, n.float64)
            self.errorf(f"expected float; found {n}")
        if k in INT_KINDS:
            if isinstance(n, NumberNode) and n.is_int:
                return Value(typ, _wrap_int(n.int64, k))
            self.errorf(f"expected integer; found {n}")
        if k == "string":
            if isinstance(n, StringNode):
                return Value(typ, n.text)
            self.errorf(f"expected string; found {n}")
        if k in UINT_KINDS:
            if isinstance(n, NumberNode) and n.is_uint:
                return Value(typ, _wrap_int(n.uint64, k))
            self.errorf(f"expected unsigned integer; found {n}")
        self.errorf(f"can't handle {n} for arg of type {typ}")
        return None

    def eval_empty_interface(self, dot, n: Node) -> Value | None:
        self.node = n
        if isinstance(n, BoolNode):
            return Value(BOOL, n.value)
        if isinstance(n, DotNode):
            return dot
        if isinstance(n, FieldNode):
            return self.eval_field_node(dot, n, None, MISSING)
        if isinstance(n, IdentifierNode):
            return self.eval_function(dot, n, n, None, MISSING)
        if isinstance(n, NilNode):
            self.errorf("evalEmptyInterface: nil (can't happen)")
        if isinstance(n, NumberNode):
            return self.ideal_constant(n)
        if isinstance(n, StringNode):
            return Value(STRING, n.text)
        if isinstance(n, VariableNode):
            return self.eval_variable_node(dot, n, None, MISSING)
        if isinstance(n, PipeNode):
            return self.eval_pipeline(dot, n)
        self.errorf(f"can't handle assignment of {n} to empty interface argument")
        return None


def _wrap_int(x: int, kind: str) -> int:
    """reflect's SetInt/SetUint: the value truncated to the parameter's width."""
    lo, hi = int_range(kind)
    span = hi - lo + 1
    return (x - lo) % span + lo


_METHOD_FUNCS: dict[int, Func] = {}


def _method_func(name: str, m: Method) -> Func:
    f = _METHOD_FUNCS.get(id(m))
    if f is None:
        f = Func(name, m.params, False, m.fn)
        _METHOD_FUNCS[id(m)] = f
    return f


def execute(trees: dict[str, Tree], name: str, funcs: dict[str, Func], data: Value | None,
            missingkey: str = "default", limits: Limits = Limits()) -> str:
    """Run template `name` on `data`; returns the text or raises TemplateExecError with Go's message."""
    tree = trees.get(name)
    sh = _Shared(trees, funcs, missingkey, limits)
    state = _State(sh, tree if tree is not None else Tree(name, name, ""), 0, data)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 40 * limits.template_depth + 2000))
    try:
        if tree is None or tree.root is None:
            state.errorf(f"{gofmt.quote(name)} is an incomplete or empty template")
        state.walk(data, tree.root)
    except _Fail as fail:
        error = TemplateExecError(fail.message)
        error.pos = fail.pos
        raise error from None
    except RecursionError:
        raise TemplateExecError(f"template: {name}: llmc limit: template nesting too deep") from None
    finally:
        sys.setrecursionlimit(old_limit)
    return "".join(sh.out)



@record
class Counted:
    """What one execution wrote and the budgets it used (`Limits` count over a whole template)."""

    text: str
    out_bytes: int
    calls: int
    work: int


def execute_counted(tree: Tree, funcs: dict[str, Func], data: Value | None, missingkey: str,
                    limits: Limits = Limits()) -> Counted:
    """`execute` of one tree, returning the budgets it used too (for llmc.resolve.templatedata's cache)."""
    sh = _Shared({tree.name: tree}, funcs, missingkey, limits)
    state = _State(sh, tree, 0, data)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 40 * limits.template_depth + 2000))
    try:
        state.walk(data, tree.root)
    except _Fail as fail:
        raise TemplateExecError(fail.message) from None
    except RecursionError:
        raise TemplateExecError(f"template: {tree.name}: llmc limit: template nesting too deep") from None
    finally:
        sys.setrecursionlimit(old_limit)
    if sh.iterations:
        raise TemplateExecError("internal error: a counted execution ranged")  # callers exclude range
    return Counted("".join(sh.out), sh.out_bytes, sh.calls, sh.work)


def field_chain(data: Value | None, ident: list[str], funcs: dict[str, Func], missingkey: str) -> tuple[bool, Value | None]:
    """What the action `.A.B.C` reads of `data`: (True, its value), or (False, the receiver) when C is
    a method (its result depends on the arguments too). Raises TemplateExecError where evaluating fails."""
    state = _State(_Shared({}, funcs, missingkey, Limits()), Tree("chain", "chain", ""), 0, data)
    node = FieldNode(0, list(ident))
    try:
        receiver = data
        for name in ident[:-1]:
            receiver = state.eval_field(data, name, node, None, MISSING, receiver)
        if receiver is not None and state.find_method(indirect(receiver)[0], ident[-1]) is not None:
            return False, receiver
        return True, state.eval_field(data, ident[-1], node, None, MISSING, receiver)
    except _Fail as fail:
        raise TemplateExecError(fail.message) from None
