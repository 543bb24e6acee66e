module gofuncs

go 1.22
