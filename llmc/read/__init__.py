"""Stage 1, read: files, folders, stdin and the built-in sets, confined to the allowed folders."""
