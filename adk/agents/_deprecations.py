"""google-adk 2.13's deprecation of its workflow agents, in its words.

Runs on: process side (warns where an app constructs an agent).

2.13 marks SequentialAgent, ParallelAgent and LoopAgent with
`typing_extensions.deprecated`: constructing one (a copy or an unpickling too,
as pydantic builds those through `__new__`) and defining a subclass of one warn
with a DeprecationWarning; constructing a subclass does not. Ours carry the same
mark. Its advice names 2.13's Workflow graphs, which durable-adk does not
implement: these agents stay the way to compose agents here.
"""

from __future__ import annotations


def _workflow_agent_deprecation(name: str) -> str:
    return (
        f"{name} is deprecated in favor of Workflow and will be removed in a future"
        " version. Workflow cannot yet be used as an LlmAgent sub-agent."
    )
