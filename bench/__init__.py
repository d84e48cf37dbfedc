"""Benchmarks (not tests): run them as modules, e.g. `python -m bench.history_and_overhead`."""
