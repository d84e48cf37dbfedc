"""An app for the server-outage test: `python -m worker tests/apps/outage`."""
