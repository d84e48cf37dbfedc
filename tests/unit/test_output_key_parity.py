"""output_key parity with google-adk 2.13: the state_delta each event of a run carries.

Runs on: test process only. google-adk runs a scripted model through its
Runner; the events it recorded are replayed through our rule
(`_maybe_save_output_to_state` then `_maybe_accumulate_output`, as the
model-step activity applies them) and must carry the same output_key deltas.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import pytest
from google.genai import types

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent as RefLlmAgent  # noqa: E402
from google.adk.models.base_llm import BaseLlm as RefBaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse as RefLlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402

from adk.agents import LlmAgent  # noqa: E402
from adk.events import Event  # noqa: E402

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})


class _Scripted(RefBaseLlm):
    replies: list[list[dict[str, Any]]]

    async def generate_content_async(
        self, llm_request: Any, stream: bool = False
    ) -> AsyncGenerator[RefLlmResponse, None]:
        parts = self.replies.pop(0)
        yield RefLlmResponse(
            content=types.Content(role="model", parts=[types.Part(**p) for p in parts])
        )


def tool(x: int) -> dict[str, int]:
    """A tool."""
    return {"x": x}


async def _reference_events(replies: list[list[dict[str, Any]]], messages: list[str]) -> list[Any]:
    agent = RefLlmAgent(
        name="writer", model=_Scripted(model="m", replies=replies), output_key="out", tools=[tool]
    )
    runner = InMemoryRunner(agent=agent, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    for message in messages:
        async for _ in runner.run_async(
            user_id="u",
            session_id=session.id,
            new_message=types.Content(role="user", parts=[types.Part(text=message)]),
        ):
            pass
    stored = await runner.session_service.get_session(
        app_name="app", user_id="u", session_id=session.id
    )
    assert stored is not None
    return stored.events


def _ours(ref_events: list[Any]) -> list[dict[str, Any]]:
    agent = LlmAgent(name="writer", output_key="out")
    earlier: list[Event] = []
    deltas = []
    for ref_event in ref_events:
        event = Event.model_validate(ref_event.model_dump(exclude_none=True))
        event.actions.state_delta.pop("out", None)
        if event.author == "writer" and not event.get_function_responses():  # model-step events
            agent._maybe_save_output_to_state(event)
            agent._maybe_accumulate_output(event, earlier)
        deltas.append(dict(event.actions.state_delta))
        earlier.append(event)
    return deltas


@pytest.mark.parametrize(
    ("replies", "messages"),
    [
        ([[{"text": "only"}]], ["hi"]),
        (
            [
                [{"text": "Let me check. "}, {"function_call": {"name": "tool", "args": {"x": 1}}}],
                [{"text": "thinking", "thought": True}, {"text": "Done."}],
                [{"text": "Second turn."}],
            ],
            ["hi", "again"],
        ),
        (
            [
                [{"function_call": {"name": "tool", "args": {"x": 1}}}],
                [{"text": "A"}, {"function_call": {"name": "tool", "args": {"x": 2}}}],
                [{"text": "B"}],
            ],
            ["hi"],
        ),
    ],
)
async def test_output_key_deltas_match(
    replies: list[list[dict[str, Any]]], messages: list[str]
) -> None:
    ref_events = await _reference_events(replies, messages)
    assert _ours(ref_events) == [dict(e.actions.state_delta) for e in ref_events]
