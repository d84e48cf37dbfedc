"""Utilities shared by the flows: mirrors `google.adk.utils`."""
