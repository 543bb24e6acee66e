"""Two rendered objects with the same API group, kind, namespace and name: one would overwrite the other.

Services render their children under `kmeta.ChildName` names, which can meet:
services `a/b-c` and `a-b/c` both render the ClusterRoleBinding `a-b-c-epp-auth-rb`,
and a long name's truncated child can meet another service's. `kubectl apply` would
keep whichever comes last, so the output is refused. `Owners` collects the objects
service by service (the render stream checks each one as it arrives).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .errors import LlmcError, Location
from .references import identity

Identity = tuple[str, str, str, str]  # group, kind, namespace ("" when cluster-scoped), name


def identities(objects: Iterable[Mapping[str, Any]]) -> list[Identity]:
    return [(t.group, t.kind, t.namespace, t.name) for t in map(identity, objects)]


class Owners:
    """Which service rendered each object so far."""

    def __init__(self) -> None:
        self.owner: dict[Identity, tuple[str, Callable[[], Location | None]]] = {}

    def add(self, service: str, locate: Callable[[], Location | None], rendered: Iterable[Identity]) -> list[LlmcError]:
        """Record `service`'s objects; an error (at `locate()`) for each one already rendered.

        `locate` is called only for a collision: finding a document's position reads its file's
        position tables, which a batch of valid services never needs."""
        errors: list[LlmcError] = []
        for key in rendered:
            if key not in self.owner:
                self.owner[key] = (service, locate)
                continue
            first, where = self.owner[key]
            group, kind, namespace, name = key
            label = f"{kind}{'.' + group if group else ''} {namespace + '/' if namespace else ''}{name}"
            by = f"both {first} ({where()}) and {service}" if first != service else f"{service} twice"
            errors.append(LlmcError(
                f"{label} is rendered by {by}: one would overwrite the other",
                locate(),
                hint="their child names collide; rename or move one of the services",
            ))
        return errors
