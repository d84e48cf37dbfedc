"""Exceptions google-adk 2.13 raises from its workflow runtime (google.adk.workflow._errors).

Runs on: process side (the client rebuilds them from the workflow's failure: the
workflow names the class, workflows/_transfers.py).
"""


class WorkflowConfigurationError(ValueError):
    """Something declared in an unusable way (e.g. an agent name that is not a
    Python identifier): the same declaration fails the same way every time."""


class WorkflowDataError(ValueError):
    """Data that violates a workflow rule, e.g. a transfer_to_agent naming the
    agent itself or a target its disallow_transfer_* flags forbid."""
