"""Typer's parameter coercion without pydantic for the plain values llmc's commands take.

typer (0.29) coerces every parameter value through a pydantic ``TypeAdapter``:
importing pydantic and building the adapters costs more than the rest of a
small ``llmc render``. llmc's parameters are ``str``, ``bool``, ``int``,
``list[str]`` and string enums, whose valid values need no validation library.
``install()`` makes typer coerce such values directly; any value this module
does not recognise (a bad enum choice, a non-number for an int) goes to typer's
own pydantic coercion, so every error message stays typer's.

This reaches into typer's private ``core.build_runtime_param``; typer is pinned
exactly in pyproject.toml, and tests/test_startup.py checks this module against
typer's coercion for every parameter of every llmc command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any, get_args, get_origin

from typer import core
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param

_UNKNOWN = object()
_INT = re.compile(r"-?[0-9]{1,18}")


def plain_value(annotation: Any, value: Any, case_sensitive: bool = True) -> Any:
    """`value` as typer would coerce it to `annotation`, or `_UNKNOWN` when only typer can tell."""
    if annotation is str:
        return value if type(value) is str else _UNKNOWN
    if annotation is bool:
        return value if type(value) is bool else _UNKNOWN
    if annotation is int:
        if type(value) is int:
            return value
        return int(value) if type(value) is str and _INT.fullmatch(value) else _UNKNOWN
    if get_origin(annotation) is list and type(value) in (list, tuple):
        (item_type,) = get_args(annotation)
        items = [plain_value(item_type, item, case_sensitive) for item in value]
        return _UNKNOWN if any(item is _UNKNOWN for item in items) else items
    if isinstance(annotation, type) and issubclass(annotation, Enum) and case_sensitive:
        if isinstance(value, annotation):
            return value
        if type(value) is str:
            for member in annotation:
                if member.value == value:
                    return member
    return _UNKNOWN


@dataclass(frozen=True)
class _PlainRuntimeParam(RuntimeParam):
    descriptor: TypeDescriptor

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        result = plain_value(self.annotation, value, self.parameter_info.case_sensitive)
        if result is not _UNKNOWN:
            return result
        return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)


def _runtime_param(descriptor: TypeDescriptor) -> RuntimeParam:
    if descriptor.file_annotation is not None:
        return build_runtime_param(descriptor)
    return _PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation, descriptor)


def install() -> None:
    """Route typer's parameter coercion through `plain_value` first (idempotent)."""
    core.build_runtime_param = _runtime_param
