"""KServe's preset templates evaluated by hand (reference 01 §4.4): the oracle the router and
scheduler tests hold llmc's renders against, independent of llmc's template engine."""

from __future__ import annotations

import re

from llmc.k8s.names import child_name

HEADER = "X-Gateway-Model-Name"  # the default GlobalConfig.ModelBasedRoutingHeaderName


def hand_render(text: str, *, name: str, ns: str, model: str | None = None, tls: bool = False) -> str:
    """`text` with the presets' expressions replaced; with `model`, also the router's (model name, gateway,
    routing header). Any expression left over fails the test."""
    text = re.sub(
        r"\{\{ if \.GlobalConfig\.EnableTLS \}\}(.*?)(?:\{\{-? ?else ?\}\}(.*?))?\{\{-? end \}\}",
        lambda m: m.group(1) if tls else (m.group(2) or ""),
        text,
        flags=re.S,
    )
    text = re.sub(r"\{\{ ChildName \.ObjectMeta\.Name `([^`]*)` \}\}", lambda m: child_name(name, m.group(1)), text)
    values = [(".ObjectMeta.Name", name), (".ObjectMeta.Namespace", ns)]
    if model is not None:
        values += [
            (".Spec.Model.Name", model),
            (".GlobalConfig.IngressGatewayName", "kserve-ingress-gateway"),
            (".GlobalConfig.IngressGatewayNamespace", "kserve"),
            (".GlobalConfig.ModelBasedRoutingHeaderName", HEADER),
        ]
    for expr, value in values:
        text = text.replace("{{ " + expr + " }}", value)
    assert "{{" not in text
    return text
