"""Workflows: the deterministic side (Temporal sandbox). Imports nothing with I/O.

Runs on: workflow (Temporal sandbox).
"""

from .agent_run import AdkAgentRunWorkflow
from .invocation import AdkInvocationWorkflow

WORKFLOWS = [AdkInvocationWorkflow, AdkAgentRunWorkflow]

__all__ = ["WORKFLOWS", "AdkAgentRunWorkflow", "AdkInvocationWorkflow"]
