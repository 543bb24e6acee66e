"""Go text/template for llmc: parse once, execute many times, errors worded as Go's.

    tmpl = parse("config", text, funcs=kserve_funcs(...), missingkey="error")
    out = tmpl.execute(data)          # data: a values.Value (the Go data object)

Parse errors raise `TemplateParseError`, execution errors `TemplateExecError`;
both are `llmc.core.errors.LlmcError` whose `message` is exactly Go's error text.
"""

from __future__ import annotations


from llmc.core.record import record
from llmc.go.template.exec import Limits, TemplateExecError, execute
from llmc.go.template.funcs import BUILTINS, Func
from llmc.go.template.parse import TemplateParseError, Tree, parse_templates
from llmc.go.reflect import Value

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Mapping

MISSINGKEY_MODES = ("default", "invalid", "zero", "error")


@record(frozen=True)
class Template:
    """A parsed template set: the named top template plus everything it defines."""

    name: str
    trees: Mapping[str, Tree]
    funcs: Mapping[str, Func]
    missingkey: str = "default"

    def execute(self, data: Value | None, limits: Limits = Limits()) -> str:
        return execute(dict(self.trees), self.name, dict(self.funcs), data, self.missingkey, limits)


def parse(name: str, text: str, *, funcs: Mapping[str, Func] | None = None, missingkey: str = "default") -> Template:
    """template.New(name).Funcs(funcs).Option("missingkey=...").Parse(text)."""
    if missingkey not in MISSINGKEY_MODES:
        raise ValueError(f"unrecognized option missingkey={missingkey}")
    all_funcs = dict(BUILTINS)
    all_funcs.update(funcs or {})
    trees = parse_templates(name, text, all_funcs.keys())
    return Template(name, trees, all_funcs, "default" if missingkey == "invalid" else missingkey)


__all__ = ["Limits", "Template", "TemplateExecError", "TemplateParseError", "parse"]
