"""`LazyFields`: a type record whose `fields` are made when first read.

KServe's Go type table has 185 structs, and building (and converting) all of them cost about
3 ms at every start; a render reads a few dozen. `llmc.kserve.gotypes` and
`llmc.resolve.templatedata` both defer a struct's fields this way.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time (docs/architecture.md)
if TYPE_CHECKING:
    from typing import Any, Callable


class LazyFields:
    """Mixed in before a record class that has a `fields` field; `defer(make)` calls `make` on the first read."""

    def defer(self, make: Callable[[], Any]) -> None:
        self.__dict__["_make_fields"] = make

    @property
    def fields(self) -> Any:
        state = self.__dict__
        make = state.pop("_make_fields", None)
        if make is not None:
            state["_fields"] = make()
        return state["_fields"]

    @fields.setter
    def fields(self, value: Any) -> None:
        self.__dict__.pop("_make_fields", None)
        self.__dict__["_fields"] = value
