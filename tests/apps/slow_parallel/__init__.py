"""A slow parallel app for durability tests: `python -m worker tests/apps/slow_parallel`."""
