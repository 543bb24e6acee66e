"""Stage 6, check: the API server's rules on rendered objects, placed at the input field; references; collisions."""
