"""How llmc's options read in `--help` and complete in a shell (typer's defaults, reworded).

typer 0.29 labels values by their Python type (`<str>`, `<list[str]>`) and writes a
required argument as `{name}` in the usage line. llmc labels a value by what it is
(`-f PATH`, `--jobs N`, `--output [yaml|json]`) and writes arguments in upper case, as
click and kubectl do. `--preset-set` completes the built-in preset set names.

Like llmc.cli.coerce this replaces typer internals; typer is pinned exactly in
pyproject.toml and tests/test_clihelp.py checks every command's help.
"""

from __future__ import annotations

from typer import core

# Value labels by parameter name; anything else is its name in upper case.
METAVARS = {
    "filename": "PATH", "presets": "PATH", "runtimes": "PATH", "paths": "PATH", "kserve_config": "FILE",
    "config_file": "FILE", "output_dir": "DIR", "out": "DIR", "single": "FILE", "cluster": "PATH",
    "namespace": "NAME", "system_namespace": "NAME", "preset_set": "SET", "kube_version": "VERSION",
    "api_versions": "GROUP/VERSION", "dra_api": "GROUP/VERSION", "gateway_pool_api": "VERSION",
    "cert_issuer": "KIND/NAME", "show_only": "KIND/NAME", "jobs": "N", "ignore": "RULE",
    "render_input": "PATH", "against_preset_set": "SET", "against_presets": "PATH", "allow": "CODE", "deny": "CODE",
}


def metavar(param) -> str:
    """The label of `param`'s value: its choices, or what METAVARS names it."""
    if param.metavar:
        return param.metavar
    desc = param.type_descriptor
    if desc.is_choice and desc.choices is not None:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in desc.choices) + "]"
    return METAVARS.get(param.name or "", (param.name or "VALUE").upper())


def _display_type(self, ctx) -> str:
    return metavar(self)


def _usage_display_name(self) -> str:
    name = self.metavar or (self.name or "").upper()
    name = name if self.required else f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


def _argument_display_name(self) -> str:
    return (self.metavar or (self.name or "").upper()) + ("..." if self.metavar is None and self.nargs != 1 else "")


def complete_preset_set(incomplete: str) -> list[str]:
    """The built-in preset sets whose names start with `incomplete`."""
    from llmc.read.inputs import builtin_sets

    return [name for name in builtin_sets() if name.startswith(incomplete)]


_typer_shell_complete = core._TyperParameter.shell_complete


def _shell_complete(self, ctx, incomplete):
    if self.name in ("preset_set", "against_preset_set") and self._custom_shell_complete is None:
        from typer._click.shell_completion import CompletionItem

        return [CompletionItem(name) for name in complete_preset_set(incomplete)]
    return _typer_shell_complete(self, ctx, incomplete)


def install() -> None:
    """Use llmc's value labels and completions in typer's help (idempotent)."""
    core.TyperOption.display_type = _display_type
    core.TyperOption.display_type_rich = lambda self, ctx: None if self.is_flag else _display_type(self, ctx)
    core.TyperArgument.display_type_rich = lambda self, ctx: None
    core.TyperArgument._usage_display_name = _usage_display_name
    core.TyperArgument._rich_display_name = _argument_display_name
    core._TyperParameter.shell_complete = _shell_complete
