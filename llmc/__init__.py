"""llmc: an offline compiler for KServe LLMInferenceService objects.

The pipeline is read -> load -> admit -> resolve -> render -> check -> order/emit
(llmc.pipeline.run, docs/architecture.md); only the command line touches files, the
environment and the terminal.
"""

__version__ = "0.1.0"

from . import pyyaml  # noqa: E402,F401  (PyYAML without its import-time regex compile)
