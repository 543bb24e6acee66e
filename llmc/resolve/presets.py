"""LLMInferenceServiceConfig objects available to a run, and the controller's lookup rules.

A config is found by name in the service's namespace first, then in the system
namespace (`getConfig`, llmisvc/config_merge.go), so a user can shadow any preset in their namespace.
"""

from __future__ import annotations

from functools import cached_property

from llmc.core.errors import LlmcError, Location
from llmc.core.record import record

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Iterable
    from llmc.load.documents import Document

DEFAULT_SET = "kserve-master"
PREFIX = "kserve-"
CONFIG_KIND = "LLMInferenceServiceConfig"


@record
class StoredConfig:
    """One LLMInferenceServiceConfig as the API server would store it (CRD defaults applied)."""

    name: str
    namespace: str
    obj: dict[str, Any]
    doc: Document | None = None  # the document it was read from

    @property
    def origin(self) -> Location:
        """Where its name is written (for error messages; located on demand)."""
        return self.doc.locate(("metadata", "name")) if self.doc is not None else Location()

    @cached_property
    def spec(self) -> dict[str, Any]:
        """The spec projected onto the Go types once, shared by every service that uses it."""
        from llmc.kserve.gotypes import project

        return project(self.obj.get("spec") or {}, overlay=True)


class ConfigStore:
    """Configs by (namespace, name); duplicates are an error because the cluster would hold only one."""

    def __init__(self, configs: Iterable[StoredConfig] = ()) -> None:
        self._by_key: dict[tuple[str, str], StoredConfig] = {}
        for config in configs:
            self.add(config)

    def add(self, config: StoredConfig) -> None:
        key = (config.namespace, config.name)
        previous = self._by_key.get(key)
        if previous is not None:
            raise LlmcError(
                f'LLMInferenceServiceConfig "{config.namespace}/{config.name}" is defined twice '
                f"(also at {previous.origin})",
                config.origin,
                hint="a cluster holds one object per namespace and name; remove one of them",
            )
        self._by_key[key] = config

    def find(self, name: str, namespace: str, system_namespace: str) -> StoredConfig | None:
        """The config the controller would fetch: the service's namespace first, then the system namespace."""
        return self._by_key.get((namespace, name)) or self._by_key.get((system_namespace, name))

    @staticmethod
    def not_found(name: str, namespace: str, system_namespace: str, where: Location | None) -> LlmcError:
        return LlmcError(
            f'LLMInferenceServiceConfig "{name}" not found in namespaces [{namespace} {system_namespace}]',
            where,
            hint="pass it with -f (user configs) or --presets (a preset set); `llmc presets list` shows the built-in ones",
        )

    def __iter__(self):
        return iter(sorted(self._by_key.values(), key=lambda c: (c.namespace, c.name)))
