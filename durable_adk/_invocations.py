"""What the Runner asks of a session's invocation, and what it closes after one.

Runs on: process side.
"""

from __future__ import annotations

from typing import Any

from google.genai import types
from temporalio.service import RPCError

from adk.agents._tree import all_agents
from adk.agents.base_agent import BaseAgent
from adk.agents.llm_agent import LlmAgent
from workflows.names import invocation_workflow_id


async def running_invocation(client: Any, app_name: str, user_id: str, session_id: str) -> Any:
    """The status of the session's invocation while it runs (or waits); None otherwise."""
    try:
        status = await client.status(invocation_workflow_id(app_name, user_id, session_id))
    except RPCError:
        return None  # no invocation yet, or no worker to answer for a closed one
    return status if status.status in ("running", "waiting") else None


async def close_models(root: BaseAgent) -> None:
    """Close the model clients the in-process worker opened on this loop.

    Left to the garbage collector, google-genai's client schedules its close on
    whatever event loop is running then, which may be a workflow's.
    """
    for agent in all_agents(root):
        if isinstance(agent, LlmAgent):
            await agent._close_models()


def is_resume(message: types.Content | None) -> bool:
    """A message of FunctionResponses only: answers for the calls an invocation waits for."""
    parts = message.parts if message else None
    return bool(parts) and all(p.function_response for p in parts or [])
