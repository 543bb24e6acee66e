"""Finding LLMC005: a service value that a config template splices into text where it changes the meaning.

The controller executes a config's JSON text as a Go template, so `{{ .Spec.Model.Name }}`
inside a JSON string inserts the service's value without JSON escaping: a `"` or `\\` in it
closes the string and can inject keys (`x"],"securityContext":{"privileged":true},"args":["`),
a control character makes the JSON invalid. The same model name also reaches the vLLM
start script, where shell metacharacters are interpreted by the shell.
"""

from __future__ import annotations

import re

from llmc.core.findings import Findings

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

# a bare field chain such as {{ .Spec.Model.Name }} or {{- .ObjectMeta.Namespace -}}
_BARE_CHAIN = re.compile(r"\{\{-?\s*((?:\.[A-Za-z_]\w*)+)\s*-?\}\}")
_JSON_CHANGING = re.compile(r'["\\\x00-\x1f]')
_SHELL_META = re.compile(r"[\s$`\"\\;&|<>()!*?\[\]{}~#']")
_SCRIPT = re.compile(r"\n.*\b(?:exec|eval|vllm serve)\b", re.S)  # a multi-line shell script, as the presets' vLLM start


def splice_findings(config: dict[str, Any], service: dict[str, Any], findings: Findings) -> None:
    """Add LLMC005 for each service string that a bare `{{ .Field }}` action of `config` splices and that
    holds characters changing the JSON text, or shell metacharacters where the action is in a shell script."""
    seen: set[tuple[str, bool]] = set()
    for text in _strings(config):
        if "{{" not in text:
            continue
        script = _SCRIPT.search(text) is not None
        for chain in _BARE_CHAIN.findall(text):
            if (chain, script) in seen:
                continue
            seen.add((chain, script))
            path, value = _lookup(service, chain)
            if not isinstance(value, str):
                continue
            bad = sorted(set(_JSON_CHANGING.findall(value)))
            if bad:
                findings.add("LLMC005", path, f"{{{{ {chain} }}}} splices this value into the config's JSON text "
                             f"unescaped; its {_shown(bad)} change the JSON's structure (keys can be injected)")
            chars = sorted(set(_SHELL_META.findall(value))) if script else []
            if chars:
                findings.add("LLMC005", path, f"{{{{ {chain} }}}} reaches the vLLM start script, where its "
                             f"{_shown(chars)} are interpreted by the shell")


def _strings(node: Any):
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _lookup(service: dict[str, Any], chain: str) -> tuple[str, Any]:
    """The JSON path and value of a Go field chain over the service (ObjectMeta is metadata; names match
    case-insensitively, as the JSON field names are the Go names in lower camel case)."""
    node: Any = service
    path: list[str] = []
    for name in chain.strip(".").split("."):
        if not isinstance(node, dict):
            return ".".join(path), None
        key = "metadata" if name == "ObjectMeta" and not path else next(
            (k for k in node if k.casefold() == name.casefold()), None)
        if key is None:
            return ".".join(path), None
        path.append(key)
        node = node[key]
    return ".".join(path), node


def _shown(chars: list[str]) -> str:
    import json

    return "characters " + " ".join(json.dumps(c) for c in chars)
