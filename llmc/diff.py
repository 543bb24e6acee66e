"""Semantic diff of two manifest sets: objects paired by identity, fields compared by meaning.

Objects pair by (apiVersion group, kind, namespace, name): `apps/v1` and
`apps/v1beta1` objects of the same name are the same object. Lists whose
elements all carry a unique `name` (containers, env, volumes, ports, ...) pair
by that name, as Kubernetes' strategic merge does; other lists pair by index.
"""

from __future__ import annotations

from typing import Any

from .record import field, record

# Kinds without a namespace: a missing namespace there is not defaulted.
CLUSTER_SCOPED = frozenset(
    {
        "Namespace", "Node", "PersistentVolume", "StorageClass", "CustomResourceDefinition",
        "ClusterRole", "ClusterRoleBinding", "PriorityClass", "IngressClass", "DeviceClass",
        "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration", "APIService", "GatewayClass",
    }
)

_MISSING = object()


@record(frozen=True, order=True)
class ObjectKey:
    """Identity of an object: API group (not version), kind, namespace, name."""

    group: str
    kind: str
    namespace: str
    name: str

    def __str__(self) -> str:
        group = f".{self.group}" if self.group else ""
        ns = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind}{group} {ns}{self.name}"


@record(frozen=True)
class Change:
    """One differing field: `old`/`new` are absent (None with the flag) when the field was added/removed."""

    path: str
    old: Any = None
    new: Any = None
    added: bool = False
    removed: bool = False

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path}
        if not self.added:
            out["old"] = self.old
        if not self.removed:
            out["new"] = self.new
        return out


@record
class Report:
    """All differences between two manifest sets."""

    added: list[ObjectKey] = field(default_factory=list)
    removed: list[ObjectKey] = field(default_factory=list)
    changed: dict[ObjectKey, list[Change]] = field(default_factory=dict)

    @property
    def same(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def as_dict(self) -> dict[str, Any]:
        return {
            "same": self.same,
            "added": [str(k) for k in self.added],
            "removed": [str(k) for k in self.removed],
            "changed": [
                {"object": str(k), "changes": [c.as_dict() for c in changes]} for k, changes in self.changed.items()
            ],
        }


def object_key(obj: dict[str, Any], default_namespace: str) -> ObjectKey:
    api = str(obj.get("apiVersion", ""))
    group = api.rsplit("/", 1)[0] if "/" in api else ""
    kind = str(obj.get("kind", ""))
    meta = obj.get("metadata") or {}
    namespace = meta.get("namespace") or ("" if kind in CLUSTER_SCOPED else default_namespace)
    return ObjectKey(group, kind, namespace, str(meta.get("name", "")))


def diff_sets(
    left: list[dict[str, Any]],
    right: list[dict[str, Any]],
    ignore: tuple[str, ...] = (),
    default_namespace: str = "default",
) -> Report:
    """Compare two lists of objects; `ignore` holds field paths (with or without list selectors) to skip."""
    lhs = {object_key(o, default_namespace): o for o in left}
    rhs = {object_key(o, default_namespace): o for o in right}
    report = Report()
    report.removed = sorted(k for k in lhs if k not in rhs)
    report.added = sorted(k for k in rhs if k not in lhs)
    for key in sorted(k for k in lhs if k in rhs):
        changes: list[Change] = []
        _compare(_without_version(lhs[key]), _without_version(rhs[key]), "", "", changes, ignore)
        if changes:
            report.changed[key] = changes
    return report


def _without_version(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k != "apiVersion"}


def _ignored(path: str, plain: str, ignore: tuple[str, ...]) -> bool:
    for rule in ignore:
        for candidate in (path, plain):
            if candidate == rule or candidate.startswith(rule + ".") or candidate.startswith(rule + "["):
                return True
    return False


def _join(path: str, key: str) -> str:
    if path and (("." in key) or ("/" in key) or (" " in key)):
        return f'{path}["{key}"]'
    return f"{path}.{key}" if path else key


def _compare(old: Any, new: Any, path: str, plain: str, out: list[Change], ignore: tuple[str, ...]) -> None:
    if _ignored(path, plain, ignore):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            sub, subplain = _join(path, str(key)), _join(plain, str(key))
            a, b = old.get(key, _MISSING), new.get(key, _MISSING)
            if a is _MISSING:
                if not _ignored(sub, subplain, ignore):
                    out.append(Change(sub, new=b, added=True))
            elif b is _MISSING:
                if not _ignored(sub, subplain, ignore):
                    out.append(Change(sub, old=a, removed=True))
            else:
                _compare(a, b, sub, subplain, out, ignore)
        return
    if isinstance(old, list) and isinstance(new, list):
        if keyed(old) and keyed(new):
            old_by = {e["name"]: e for e in old}
            new_by = {e["name"]: e for e in new}
            for name in list(old_by) + [n for n in new_by if n not in old_by]:
                sub = f"{path}[name={name}]"
                if name not in new_by:
                    if not _ignored(sub, plain, ignore):
                        out.append(Change(sub, old=old_by[name], removed=True))
                elif name not in old_by:
                    if not _ignored(sub, plain, ignore):
                        out.append(Change(sub, new=new_by[name], added=True))
                else:
                    _compare(old_by[name], new_by[name], sub, plain, out, ignore)
            if [e["name"] for e in old if e["name"] in new_by] != [e["name"] for e in new if e["name"] in old_by]:
                out.append(Change(f"{path}[*].name", old=[e["name"] for e in old], new=[e["name"] for e in new]))
            return
        for i in range(max(len(old), len(new))):
            sub = f"{path}[{i}]"
            if i >= len(new):
                out.append(Change(sub, old=old[i], removed=True))
            elif i >= len(old):
                out.append(Change(sub, new=new[i], added=True))
            else:
                _compare(old[i], new[i], sub, plain, out, ignore)
        return
    if old != new or type(old) is not type(new):
        out.append(Change(path, old=old, new=new))


def keyed(items: list[Any]) -> bool:
    """True when every item is a map with a distinct string `name` (Kubernetes merges such lists by name)."""
    if not items or not all(isinstance(i, dict) and isinstance(i.get("name"), str) for i in items):
        return False
    return len({i["name"] for i in items}) == len(items)


def format_report(report: Report, left_label: str, right_label: str) -> str:
    """Plain text: one block per object, `-`/`+`/`~` per field."""
    import json

    def show(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    lines: list[str] = []
    for key in report.removed:
        lines.append(f"- {key} (only in {left_label})")
    for key in report.added:
        lines.append(f"+ {key} (only in {right_label})")
    for key, changes in report.changed.items():
        lines.append(f"~ {key}")
        for change in changes:
            if change.added:
                lines.append(f"    + {change.path}: {show(change.new)}")
            elif change.removed:
                lines.append(f"    - {change.path}: {show(change.old)}")
            else:
                lines.append(f"    ~ {change.path}: {show(change.old)} -> {show(change.new)}")
    if not lines:
        lines.append("no differences")
    return "\n".join(lines) + "\n"
