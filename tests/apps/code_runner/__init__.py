"""An app whose model writes a slow program: `python -m worker tests/apps/code_runner`."""
