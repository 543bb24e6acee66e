"""Go's text/template: lexer, parser and nodes, executor, builtin functions, and the Template API (template.py)."""
