"""AgentTool result parity with google-adk 2.13: the function response event a call produces.

Runs on: test process only. google-adk runs a root agent that calls an
AgentTool (both models scripted) through its Runner; ours assembles the result
from the same child events (AgentTool.result_from_events, display_text) and
builds the response event with build_function_response_event, as the
finish-agent-tool activity and the workflow do. The contents must be equal.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import pytest
from google.genai import types
from pydantic import BaseModel

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent as RefLlmAgent  # noqa: E402
from google.adk.models.base_llm import BaseLlm as RefBaseLlm  # noqa: E402
from google.adk.models.llm_response import LlmResponse as RefLlmResponse  # noqa: E402
from google.adk.runners import InMemoryRunner  # noqa: E402
from google.adk.tools import AgentTool as RefAgentTool  # noqa: E402

from adk.agents import LlmAgent  # noqa: E402
from adk.events import Event, EventActions  # noqa: E402
from adk.flows.llm_flows.functions import build_function_response_event  # noqa: E402
from adk.tools import AgentTool  # noqa: E402

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})


# google-adk's AgentTool builds a nested Runner with `plugins=`, which it deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:The `plugins` argument:DeprecationWarning")


class Verdict(BaseModel):
    ok: bool
    note: str = ""


class _Scripted(RefBaseLlm):
    replies: list[list[dict[str, Any]]]

    async def generate_content_async(
        self, llm_request: Any, stream: bool = False
    ) -> AsyncGenerator[RefLlmResponse, None]:
        parts = self.replies.pop(0)
        yield RefLlmResponse(
            content=types.Content(role="model", parts=[types.Part(**p) for p in parts])
        )


CALL = {"function_call": {"id": "c1", "name": "helper", "args": {"request": "do it"}}}


async def _reference_response(
    child_reply: list[dict[str, Any]], skip: bool, schema: type[BaseModel] | None
) -> dict[str, Any]:
    child = RefLlmAgent(
        name="helper",
        description="Helps.",
        model=_Scripted(model="m", replies=[child_reply]),
        output_schema=schema,
    )
    root = RefLlmAgent(
        name="root",
        model=_Scripted(model="m", replies=[[CALL], [{"text": "final"}]]),
        tools=[RefAgentTool(child, skip_summarization=skip)],
    )
    runner = InMemoryRunner(agent=root, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    async for _ in runner.run_async(
        user_id="u",
        session_id=session.id,
        new_message=types.Content(role="user", parts=[types.Part(text="go")]),
    ):
        pass
    stored = await runner.session_service.get_session(
        app_name="app", user_id="u", session_id=session.id
    )
    assert stored is not None
    event = next(e for e in stored.events if e.get_function_responses())
    assert event.content is not None
    return event.content.model_dump(mode="json", exclude_none=True)


def _our_response(
    child_reply: list[dict[str, Any]], skip: bool, schema: type[BaseModel] | None
) -> dict[str, Any]:
    tool = AgentTool(LlmAgent(name="helper", description="Helps.", output_schema=schema), skip)
    child_event = Event.model_validate(
        {"author": "helper", "content": {"role": "model", "parts": child_reply}}
    )
    result = tool.result_from_events([child_event])
    response = result if isinstance(result, dict) else {"result": result}
    call = types.FunctionCall.model_validate(CALL["function_call"])
    display = tool.display_text(result, response)
    event = build_function_response_event(
        event_id="e",
        timestamp=0.0,
        invocation_id="i",
        author="root",
        branch=None,
        responses=[(call, response, EventActions())],
        display_texts={"c1": display} if display is not None else None,
    )
    assert event.content is not None
    return event.content.model_dump(mode="json", exclude_none=True)


@pytest.mark.parametrize("skip", [False, True])
@pytest.mark.parametrize(
    ("reply", "schema"),
    [
        ([{"text": "one"}, {"text": "hidden", "thought": True}, {"text": "two"}], None),
        (
            [
                {"executable_code": {"code": "print(1)", "language": "PYTHON"}},
                {"code_execution_result": {"outcome": "OUTCOME_OK", "output": "1\n"}},
                {"text": "so 1"},
            ],
            None,
        ),
        ([{"text": '{"ok": true, "note": "é"}'}], Verdict),
    ],
)
async def test_agent_tool_response_matches(
    reply: list[dict[str, Any]], schema: type[BaseModel] | None, skip: bool
) -> None:
    ref = await _reference_response(reply, skip, schema)
    assert _our_response(reply, skip, schema) == ref
