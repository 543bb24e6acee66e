"""Render: turn one resolved service into the Kubernetes objects the controller would create.

One module per concern; each exposes `objects(ctx) -> list[dict]` and/or pod-spec
steps `apply(ctx, pod, slot)`; `llmc.render.service.render_service` runs them in
the controller's order.
"""
