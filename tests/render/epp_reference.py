"""The endpoint picker config of reference 03 §11: the default single-profile config after the
v0.10 re-serialisation, byte for byte (shared by the router and scheduler tests)."""

DEFAULT_EPP_CONFIG = """apiVersion: llm-d.ai/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: single-profile-handler
- type: queue-scorer
- type: kv-cache-utilization-scorer
- type: prefix-cache-scorer
- type: no-hit-lru-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: queue-scorer
    weight: 2
  - pluginRef: kv-cache-utilization-scorer
    weight: 2
  - pluginRef: prefix-cache-scorer
    weight: 3
  - pluginRef: no-hit-lru-scorer
    weight: 2
  - pluginRef: max-score-picker
"""
