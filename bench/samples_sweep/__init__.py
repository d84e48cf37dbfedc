"""The samples sweep: `python -m bench.samples_sweep --help`."""
