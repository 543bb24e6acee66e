"""Stage 2, load: text to Documents with the position of every node, by go-yaml's scalar rules."""
