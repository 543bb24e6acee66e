"""The Python floor of a cold render: start the interpreter, import PyYAML, load FILE with CSafeLoader, dump it with CSafeDumper.

    python bench/floor.py FILE > /dev/null

No CLI can do less and still read and write YAML in Python; bench/cold_start.py
times it beside llmc and kubectl kustomize.
"""

import sys

import yaml

with open(sys.argv[1], encoding="utf-8") as f:
    docs = list(yaml.load_all(f, Loader=yaml.CSafeLoader))
sys.stdout.write(yaml.dump_all(docs, Dumper=yaml.CSafeDumper))
