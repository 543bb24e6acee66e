"""Two rendered objects with the same API group, kind, namespace and name: one would overwrite the other.

Services render their children under `kmeta.ChildName` names, which can meet:
services `a/b-c` and `a-b/c` both render the ClusterRoleBinding `a-b-c-epp-auth-rb`,
and a long name's truncated child can meet another service's. `kubectl apply` would
keep whichever comes last, so the output is refused. `Owners` collects the objects
service by service (the render stream checks each one as it arrives), after the input's
objects that are written unchanged (`given`): one of those defined twice, or rendered by
a service too (an llmc output kept next to the services), is refused the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from llmc.core.errors import LlmcError, Location
from llmc.check.references import identity

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any

Identity = tuple[str, str, str, str]  # group, kind, namespace ("" when cluster-scoped), name


def defined_twice(label: str, first, doc, hint: str) -> LlmcError:
    """The error for input document `doc` defining what `first` (an earlier Document) already defines."""
    same = " (the same file is read twice)" if first.same_place(doc) else ""
    return LlmcError(f"{label} is defined twice: at {first.locate(('metadata', 'name'))} and here{same}",
                     doc.locate(("metadata", "name")), hint=hint)


def identities(objects: Iterable[Mapping[str, Any]]) -> list[Identity]:
    return [(t.group, t.kind, t.namespace, t.name) for t in map(identity, objects)]


class Owners:
    """Which service rendered each object so far.

    It grows with the batch (about a dozen objects a service), so it keeps little of each object: its name
    under its (group, kind, namespace), and one (service, locate) pair shared by all of a service's objects.
    """

    def __init__(self) -> None:
        self.owner: dict[tuple[str, str, str], dict[str, tuple[str, Callable[[], Location | None]]]] = {}
        self.given: dict[Identity, Any] = {}  # -> the llmc.load.documents.Document that defines it

    def give(self, docs: Iterable[Any]) -> list[LlmcError]:
        """Record the input's objects written unchanged (llmc.load.documents.Documents); an error for each one defined twice."""
        errors: list[LlmcError] = []
        for doc in docs:
            meta = doc.obj.get("metadata")
            if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
                continue  # generateName, or no object the API server would take: kubectl says so
            (key,) = identities([doc.obj])
            first = self.given.setdefault(key, doc)
            if first is not doc:
                errors.append(defined_twice(_label(key), first, doc,
                                            "each object may be defined once; remove one (or a file given twice), or rename it"))
        return errors

    def add(self, service: str, locate: Callable[[], Location | None], rendered: Iterable[Identity]) -> list[LlmcError]:
        """Record `service`'s objects; an error (at `locate()`) for each one already rendered.

        `locate` is called only for a collision: finding a document's position reads its file's
        position tables, which a batch of valid services never needs."""
        errors: list[LlmcError] = []
        owner = (service, locate)
        for key in rendered:
            if key in self.given:
                errors.append(LlmcError(
                    f"{_label(key)} is rendered by {service} and also given at "
                    f"{self.given[key].locate(('metadata', 'name'))}: one would overwrite the other",
                    locate(),
                    hint="remove it from the input (an llmc output kept next to the services?), or rename it",
                ))
                continue
            group, kind, namespace, name = key
            names = self.owner.get((group, kind, namespace))
            if names is None:
                names = self.owner[(group, kind, namespace)] = {}
            if name not in names:
                names[name] = owner
                continue
            first, where = names[name]
            by = f"both {first} ({where()}) and {service}" if first != service else f"{service} twice"
            errors.append(LlmcError(
                f"{_label(key)} is rendered by {by}: one would overwrite the other",
                locate(),
                hint="their child names collide; rename or move one of the services",
            ))
        return errors


def _label(key: Identity) -> str:
    group, kind, namespace, name = key
    return f"{kind}{'.' + group if group else ''} {namespace + '/' if namespace else ''}{name}"
