"""A multi-agent app that waits at a gate: `python -m worker tests/apps/gated_tree`."""
