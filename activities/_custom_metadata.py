"""The invocation's custom metadata across activities (`ctx.custom_metadata`).

Runs on: activity side (worker process).

google-adk 2.13 gives an invocation one dict, started from RunConfig.custom_metadata
(internal keys dropped): what a tool or callback writes there, the agent's later
callbacks and tools, and its transfer targets and steps, see. Here each activity
rebuilds the context: the workflow sends the dict as the invocation's code left it
(StepRef.custom_metadata, None while no code changed it) and keeps what an activity
returns when its code changed it. An AgentTool's agent starts from the RunConfig's
(2.13 runs it in a Runner of its own). Events are stamped from the RunConfig, never
from this dict, in both.
"""

from __future__ import annotations

import copy
from typing import Any

import pydantic_core
from temporalio.exceptions import ApplicationError

from adk.agents.invocation_context import InvocationContext
from workflows.contracts import StepRef


def seed(ctx: InvocationContext, ref: StepRef) -> None:
    """Give `ctx` the invocation's dict as its code left it."""
    if ref.custom_metadata is not None:
        ctx._custom_metadata.clear()
        ctx._custom_metadata.update(copy.deepcopy(ref.custom_metadata))


def snapshot(ctx: InvocationContext) -> dict[str, Any]:
    """A copy of the dict before user code runs (`written` compares with it)."""
    return copy.deepcopy(ctx._custom_metadata)


def written(ctx: InvocationContext, before: dict[str, Any]) -> dict[str, Any] | None:
    """The dict when this activity's code changed it (the workflow keeps it), else None.
    A value the workflow cannot carry fails the invocation, naming it."""
    metadata = ctx._custom_metadata
    if metadata == before:
        return None
    try:
        return dict(pydantic_core.to_jsonable_python(metadata))
    except pydantic_core.PydanticSerializationError as error:
        raise ApplicationError(
            f"ctx.custom_metadata holds a value that is not JSON-serializable ({error}):"
            " durable-adk carries the invocation's custom metadata from one activity to the"
            " next. Store plain values (str, numbers, bools, lists, dicts).",
            type="TypeError",
            non_retryable=True,
        ) from None
