"""Semantic diff of two manifest sets: objects paired by identity, fields compared by meaning.

Objects pair by (apiVersion group, kind, namespace, name): `apps/v1` and
`apps/v1beta1` objects of the same name are the same object. Lists whose
elements all carry a unique `name` (containers, env, volumes, ports, ...) pair
by that name, as Kubernetes' strategic merge does; other lists pair by index.
A removed and an added element that differ only by their name are one element
renamed (a hand-written overlay's DRA request `nvidia` is the controller's
`device`): the report has the one changed `name` field, not two whole elements.
`--ignore` rules are llmc.gitops.diff_ignore's; the text report is llmc.gitops.diff_text's.
"""

from __future__ import annotations

from typing import Any

from llmc.gitops.diff_ignore import Ignorer, compile_rules, for_object
from llmc.core.record import field, record

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
    """All differences between two manifest sets, with the labels of its sides and the rules that matched nothing."""

    added: list[ObjectKey] = field(default_factory=list)
    removed: list[ObjectKey] = field(default_factory=list)
    changed: dict[ObjectKey, list[Change]] = field(default_factory=dict)
    left: str = "left"
    right: str = "right"
    compared: int = 0
    unused_ignores: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not (self.added or self.removed or self.changed)

    @property
    def fields_changed(self) -> int:
        return sum(len(changes) for changes in self.changed.values())

    def as_dict(self) -> dict[str, Any]:
        return {
            "left": self.left,
            "right": self.right,
            "same": self.same,
            "added": [str(k) for k in self.added],
            "removed": [str(k) for k in self.removed],
            "changed": [
                {"object": str(k), "changes": [c.as_dict() for c in changes]} for k, changes in self.changed.items()
            ],
            "summary": {
                "onlyLeft": len(self.removed), "onlyRight": len(self.added), "changed": len(self.changed),
                "fieldsChanged": self.fields_changed,
            },
            "unusedIgnores": list(self.unused_ignores),
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
    labels: tuple[str, str] = ("left", "right"),
) -> Report:
    """Compare two lists of objects; `ignore` holds `--ignore` rules (llmc.gitops.diff_ignore) of fields to skip."""
    rules = compile_rules(ignore)
    lhs = {object_key(o, default_namespace): o for o in left}
    rhs = {object_key(o, default_namespace): o for o in right}
    report = Report(left=labels[0], right=labels[1])
    report.removed = sorted(k for k in lhs if k not in rhs)
    report.added = sorted(k for k in rhs if k not in lhs)
    common = sorted(k for k in lhs if k in rhs)
    report.compared = len(common)
    for key in common:
        changes: list[Change] = []
        walk = _Walk(for_object(rules, key.kind, key.group), changes)
        walk.compare(_without_version(lhs[key]), _without_version(rhs[key]), "", "")
        if changes:
            report.changed[key] = changes
    report.unused_ignores = [r.text for r in rules if not r.used]
    return report


def _without_version(obj: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k != "apiVersion"}


def _join(path: str, key: str) -> str:
    if path and (("." in key) or ("/" in key) or (" " in key)):
        return f'{path}["{key}"]'
    return f"{path}.{key}" if path else key


def _plain(plain: str, key: str) -> str:
    return f"{plain}.{key}" if plain else key


class _Walk:
    """One object's comparison: `ignored(path, plain)` decides, `out` collects the changes."""

    __slots__ = ("ignored", "out")

    def __init__(self, ignored: Ignorer, out: list[Change]) -> None:
        self.ignored, self.out = ignored, out

    def compare(self, old: Any, new: Any, path: str, plain: str) -> None:
        if self.ignored(path, plain):
            return
        if isinstance(old, dict) and isinstance(new, dict):
            for key in list(old) + [k for k in new if k not in old]:
                sub, subplain = _join(path, str(key)), _plain(plain, str(key))
                a, b = old.get(key, _MISSING), new.get(key, _MISSING)
                if a is _MISSING:
                    self.one_sided(b, sub, subplain, added=True)
                elif b is _MISSING:
                    self.one_sided(a, sub, subplain, added=False)
                else:
                    self.compare(a, b, sub, subplain)
            return
        if isinstance(old, list) and isinstance(new, list):
            if keyed(old) and keyed(new):
                self.compare_keyed(old, new, path, plain)
                return
            for i in range(max(len(old), len(new))):
                sub = f"{path}[{i}]"
                if i >= len(new):
                    self.one_sided(old[i], sub, plain, added=False)
                elif i >= len(old):
                    self.one_sided(new[i], sub, plain, added=True)
                else:
                    self.compare(old[i], new[i], sub, plain)
            return
        if old != new or type(old) is not type(new):
            self.out.append(Change(path, old=old, new=new))

    def compare_keyed(self, old: list[dict], new: list[dict], path: str, plain: str) -> None:
        old_by = {e["name"]: e for e in old}
        new_by = {e["name"]: e for e in new}
        renamed = self.renames(old_by, new_by, path, plain)
        for name in list(old_by) + [n for n in new_by if n not in old_by]:
            sub = f"{path}[name={name}]"
            if name in renamed:
                self.out.append(Change(f"{sub}.name", old=name, new=renamed[name]))
            elif name in renamed.values():
                continue
            elif name not in new_by:
                self.one_sided(old_by[name], sub, plain, added=False)
            elif name not in old_by:
                self.one_sided(new_by[name], sub, plain, added=True)
            else:
                self.compare(old_by[name], new_by[name], sub, plain)
        old_order = [renamed.get(e["name"], e["name"]) for e in old]
        old_order = [n for n in old_order if n in new_by]
        new_order = [e["name"] for e in new if e["name"] in old_by or e["name"] in renamed.values()]
        if old_order != new_order:
            self.out.append(Change(f"{path}[*].name", old=[e["name"] for e in old], new=[e["name"] for e in new]))

    def renames(self, old_by: dict[str, dict], new_by: dict[str, dict], path: str, plain: str) -> dict[str, str]:
        """Removed and added elements that differ only by their name, paired in list order: old name -> new name."""
        gone = [n for n in old_by if n not in new_by]
        came = [n for n in new_by if n not in old_by]
        pairs: dict[str, str] = {}
        for name in gone:
            for candidate in came:
                if candidate in pairs.values():
                    continue
                scratch: list[Change] = []
                _Walk(self.ignored, scratch).compare(
                    {**old_by[name], "name": None}, {**new_by[candidate], "name": None}, f"{path}[name={name}]", plain
                )
                if not scratch:
                    pairs[name] = candidate
                    break
        return pairs

    def one_sided(self, value: Any, path: str, plain: str, added: bool) -> None:
        """A field on one side only, without the parts `--ignore` skips (nothing when they are all of it)."""
        kept = self.prune(value, path, plain)
        if kept is not _MISSING:
            self.out.append(Change(path, new=kept, added=True) if added else Change(path, old=kept, removed=True))

    def prune(self, value: Any, path: str, plain: str) -> Any:
        if self.ignored(path, plain):
            return _MISSING
        if isinstance(value, dict) and value:
            kept = {}
            for key, item in value.items():
                sub = self.prune(item, _join(path, str(key)), _plain(plain, str(key)))
                if sub is not _MISSING:
                    kept[key] = sub
            return kept or _MISSING
        if isinstance(value, list) and value:
            named = keyed(value)
            items = [
                self.prune(item, f"{path}[name={item['name']}]" if named else f"{path}[{i}]", plain)
                for i, item in enumerate(value)
            ]
            return [i for i in items if i is not _MISSING] or _MISSING
        return value


def keyed(items: list[Any]) -> bool:
    """True when every item is a map with a distinct string `name` (Kubernetes merges such lists by name)."""
    if not items or not all(isinstance(i, dict) and isinstance(i.get("name"), str) for i in items):
        return False
    return len({i["name"] for i in items}) == len(items)
