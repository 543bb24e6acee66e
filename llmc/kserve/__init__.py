"""KServe's API as data: the Go struct table, annotation keys, inferenceservice-config settings, input kinds."""
