"""The one error type llmc raises for bad input, with the place it came from."""

from __future__ import annotations

from llmc.core.record import field, record


@record
class Location:
    """Where a value sits: file, 1-based line and column, and the field path inside the document."""

    file: str = "<input>"
    line: int | None = None
    col: int | None = None
    path: str = ""

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        return where


class LlmcError(Exception):
    """Bad input or an impossible request: rendered for the user, never shown as a traceback.

    `exit_code` follows the CLI convention: 1 for input the controller would reject,
    2 for usage errors (bad flags, unreadable files).
    """

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        *,
        hint: str | None = None,
        exit_code: int = 1,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint
        self.exit_code = exit_code

    def __str__(self) -> str:
        text = self.message
        if self.location is not None:
            prefix = str(self.location)
            if self.location.path:
                text = f"{prefix}: {self.location.path}: {text}"
            else:
                text = f"{prefix}: {text}"
        return text


@record
class ErrorList(Exception):
    """Several input errors found in one pass (e.g. all schema violations of a document)."""

    errors: list[LlmcError] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)
