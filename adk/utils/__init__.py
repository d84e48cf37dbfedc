"""Utilities shared by the flows: mirrors `google.adk.utils`.

Runs on: activity side (worker process).
"""
