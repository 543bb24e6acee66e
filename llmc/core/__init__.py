"""What every layer uses and that knows neither KServe nor Kubernetes: errors, records, findings, JSON copies, data paths."""
