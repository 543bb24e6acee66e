module tmplrun

go 1.22
