"""Stage 4, resolve: presets and their lookup, MergeSpecs, template data and functions, the post-template fix-ups."""
