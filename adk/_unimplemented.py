"""The one error for google.adk surface that durable-adk does not implement yet.

Runs on: both sides (pure). Such a name exists so that imports work as written
for google.adk, but nothing is accepted and silently ignored: using it raises
NotImplementedError naming it, at the construction that would otherwise drop it.
"""

from __future__ import annotations


def not_implemented(what: str, feature: str) -> NotImplementedError:
    """E.g. `not_implemented("LlmAgent(planner=...)", "planners")`."""
    return NotImplementedError(
        f"{what} is not supported yet: durable-adk does not implement {feature}."
    )
