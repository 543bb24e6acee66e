"""llmc: an offline compiler for KServe LLMInferenceService objects.

The pipeline is load -> resolve -> render -> emit; every stage is a pure function
and only the CLI touches files, the environment and the terminal.
"""

__version__ = "0.1.0"

from . import pyyaml  # noqa: E402,F401  (PyYAML without its import-time regex compile)
