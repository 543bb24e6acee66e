"""`ReplacePlaceholders`: runtime container fields such as `--model_name={{.Name}}`.

The controller marshals the merged container to JSON, parses that text with Go's
**html/template** and executes it on the InferenceService's `metav1.ObjectMeta`
(pkg/controller/v1beta1/inferenceservice/utils/utils.go). html/template appends
its text-context escaper to every action that prints, so a value is HTML-escaped
(`"` -> `&#34;`, `'` -> `&#39;`, `&`, `<`, `>`, `+` -> `&#43;`) and an absent map
key prints nothing. The JSON text never holds a raw `<` (json.Marshal writes
`\\u003c`), so every action is in the text context and this one escaper is exact.

llmc runs its Go text/template engine on the same text, with that escaper
appended to each printing action of the parse tree.
"""

from __future__ import annotations

import json
from typing import Any

from llmc.core.errors import LlmcError
from llmc.go.template.template import parse
from llmc.go import fmt as gofmt
from llmc.go.template.funcs import Func
from llmc.go.template.nodes import ActionNode, BranchNode, CommandNode, IdentifierNode, ListNode, Node
from llmc.go.reflect import ANY, STRING, GoType, Value, indirect_interface
from llmc.go.json import marshal
from llmc.resolve.templatedata import SERVICE

ESCAPER = "_html_template_htmlescaper"
_HTML = {"\0": "\ufffd", '"': "&#34;", "&": "&amp;", "'": "&#39;", "+": "&#43;", "<": "&lt;", ">": "&gt;"}


def _object_meta_type() -> GoType:
    return next(f.type for f in SERVICE.fields if f.name == "ObjectMeta")


def _escape(*args: Value | None) -> Value:
    """htmlEscaper(stringify(args)): untyped nils are skipped, the rest printed as fmt.Sprint."""
    present = [a for a in (indirect_interface(a) for a in args) if a is not None]
    if len(present) == 1 and present[0].t is STRING:
        text = present[0].x
    else:
        text = gofmt.sprint(present)
    return Value(STRING, "".join(_HTML.get(c, c) for c in text))


_FUNCS = {ESCAPER: Func(ESCAPER, (ANY,), True, _escape)}


def _append_escaper(node: Node | None) -> None:
    """html/template's escaper pass: every action without variable declarations prints escaped."""
    if node is None:
        return
    if isinstance(node, ListNode):
        for child in node.nodes:
            _append_escaper(child)
    elif isinstance(node, ActionNode):
        if not node.pipe.decl:
            node.pipe.cmds.append(CommandNode(node.pos, [IdentifierNode(node.pos, ESCAPER)]))
    elif isinstance(node, BranchNode):
        _append_escaper(node.list)
        _append_escaper(node.else_list)


def replace_placeholders(container: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    """The container with its `{{...}}` actions executed on `meta` (the InferenceService's metadata).

    Raises LlmcError with Go's template error text; the caller adds the controller's
    "failed to replace placeholders" wording and the location.
    """
    text = marshal(container, sort_keys=False)
    if "{{" not in text:
        return container
    tmpl = parse("container-tmpl", text, funcs=_FUNCS)
    for tree in tmpl.trees.values():
        _append_escaper(tree.root)
    out = tmpl.execute(Value(_object_meta_type(), meta))
    try:
        result = json.loads(out)
    except json.JSONDecodeError as exc:
        raise LlmcError(f"the container is not valid JSON after its placeholders were replaced: {exc.msg}") from None
    return result
