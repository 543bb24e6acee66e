"""`llmc diff --ignore` rules: field-path globs, optionally scoped to a kind, that remember whether they matched.

A rule is `[KIND:]PATH`. PATH is matched against a field's path as the report writes it
(`spec.template.spec.containers[name=main].image`, `metadata.annotations["a.b/c"]`) and
against its plain form without list selectors or brackets
(`spec.template.spec.containers.image`, `metadata.annotations.a.b/c`), so
`metadata.annotations.*` covers every annotation however its key is spelt. `*` matches
any run of characters (dots included) and `?` one; every other character, `[` too, is
literal. A rule covers the field it matches and everything below it. KIND (a kind
starts with a capital letter, a field path never does) is a kind or `Kind.group`, with
the same wildcards: `Deployment:spec.template.metadata.annotations.*`.
"""

from __future__ import annotations

import re

_SCOPE = re.compile(r"^([A-Z*?][A-Za-z0-9*?]*(?:\.[A-Za-z0-9.*?-]+)?):(.*)$")


def _glob(text: str) -> str:
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in text)


class IgnoreRule:
    """One `--ignore` value, compiled; `used` turns true once it matched a field of some object."""

    __slots__ = ("text", "kind", "path", "used")

    def __init__(self, text: str) -> None:
        self.text = text
        scoped = _SCOPE.match(text)
        kind, path = scoped.groups() if scoped else (None, text)
        self.kind = re.compile(_glob(kind) + r"\Z") if kind is not None else None
        # the path itself or any field below it: the match must end where a path segment ends
        self.path = re.compile(_glob(path) + r"(?=\Z|[.\[])")
        self.used = False

    def applies_to(self, kind: str, group: str) -> bool:
        if self.kind is None:
            return True
        return bool(self.kind.match(kind) or (group and self.kind.match(f"{kind}.{group}")))


class Ignorer:
    """The rules that apply to one object."""

    __slots__ = ("rules",)

    def __init__(self, rules: list[IgnoreRule]) -> None:
        self.rules = rules

    def __call__(self, path: str, plain: str) -> bool:
        hit = False
        for rule in self.rules:
            if rule.path.match(path) or rule.path.match(plain):
                rule.used = hit = True
        return hit


def compile_rules(texts: tuple[str, ...] | list[str]) -> list[IgnoreRule]:
    return [IgnoreRule(t) for t in texts]


def for_object(rules: list[IgnoreRule], kind: str, group: str) -> Ignorer:
    return Ignorer([r for r in rules if r.applies_to(kind, group)])
