"""A counter app whose worker dies right after recording a tool's response: `python -m worker tests/apps/counter`."""
