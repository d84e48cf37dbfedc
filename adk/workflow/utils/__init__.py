"""Helpers of the workflow package (google.adk.workflow.utils): graph parsing,
validation and node building.

Runs on: both sides (pure).
"""
