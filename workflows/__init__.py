"""Workflows: the deterministic side (Temporal sandbox). Imports nothing with I/O.

Runs on: workflow (Temporal sandbox).
"""

from .invocation import AdkInvocationWorkflow

WORKFLOWS = [AdkInvocationWorkflow]

__all__ = ["WORKFLOWS", "AdkInvocationWorkflow"]
