"""Tests for instruction templating and the instructions request processor.

Runs on: test process only.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest
from google.genai import types

from adk.agents import InvocationContext, LlmAgent, ReadonlyContext
from adk.flows.llm_flows import instructions
from adk.flows.llm_flows.instructions import label_dynamic_instruction
from adk.models.llm_request import LlmRequest
from adk.sessions import Session
from adk.utils.instructions_utils import inject_session_state

if not LlmAgent.__pydantic_complete__:  # workaround: llm_agent.py's forward refs are unresolved
    from adk.tools.base_tool import BaseTool
    from adk.tools.tool_context import ToolContext

    LlmAgent.model_rebuild(_types_namespace={"BaseTool": BaseTool, "ToolContext": ToolContext})


def _ctx(agent: LlmAgent | None = None, **state: Any) -> InvocationContext:
    session = Session(id="s", app_name="app", user_id="u", state=dict(state))
    return InvocationContext(
        invocation_id="inv", agent=agent or LlmAgent(name="agent"), session=session
    )


async def _inject(template: str, **state: Any) -> str:
    return await inject_session_state(template, ReadonlyContext(_ctx(**state)))


# --- inject_session_state -----------------------------------------------------


async def test_template_without_braces_is_unchanged() -> None:
    assert await _inject("plain text") == "plain text"


async def test_key_is_replaced_by_state_value() -> None:
    assert await _inject("Hi {name}!", name="Ann") == "Hi Ann!"


async def test_optional_missing_key_becomes_empty() -> None:
    assert await _inject("[{nick?}]") == "[]"


async def test_optional_present_key_is_replaced() -> None:
    assert await _inject("[{nick?}]", nick="A") == "[A]"


async def test_missing_required_key_raises_key_error() -> None:
    with pytest.raises(KeyError) as info:
        await _inject("{missing}")
    assert info.value.args == ("Context variable not found: `missing` in agent 'agent'.",)


async def test_invalid_names_are_left_as_is() -> None:
    template = "{bad:x} {a.b} {y z} {1abc} {} {x ?}"
    assert await _inject(template, x=1) == template


async def test_prefixed_state_keys_are_valid() -> None:
    result = await _inject(
        "{app:a} {user:name} {temp:x}", **{"app:a": 1, "user:name": "Bo", "temp:x": "t"}
    )
    assert result == "1 Bo t"


async def test_missing_temp_key_raises() -> None:
    with pytest.raises(KeyError) as info:
        await _inject("{temp:x}")
    assert info.value.args == ("Context variable not found: `temp:x` in agent 'agent'.",)


async def test_all_surrounding_braces_are_consumed_and_whitespace_stripped() -> None:
    assert await _inject("{{x}} {{{x}}} { x } { x? }", x="v") == "v v v v"


async def test_values_render_with_str_and_none_as_empty() -> None:
    result = await _inject("{n}|{b}|{d}", n=None, b=True, d={"k": [1, "b"]})
    assert result == "|True|{'k': [1, 'b']}"


async def test_artifact_without_service_raises_value_error() -> None:
    with pytest.raises(ValueError, match=r"^Artifact service is not initialized\.$"):
        await _inject("{artifact.f.txt}")


class _Artifacts:
    def __init__(self, files: dict[str, types.Part]) -> None:
        self.files = files
        self.calls: list[dict[str, Any]] = []

    async def load_artifact(self, **kwargs: Any) -> types.Part | None:
        self.calls.append(kwargs)
        return self.files.get(kwargs["filename"])


def _artifact_context(files: dict[str, types.Part]) -> tuple[ReadonlyContext, _Artifacts]:
    service = _Artifacts(files)
    session = SimpleNamespace(app_name="app", user_id="u", id="s")
    invocation = SimpleNamespace(artifact_service=service, session=session)
    readonly = SimpleNamespace(_invocation_context=invocation, state={}, agent_name="agent")
    return cast(ReadonlyContext, readonly), service


async def test_artifact_text_is_loaded_latest_version() -> None:
    context, service = _artifact_context({"f.txt": types.Part(text="body")})
    assert await inject_session_state("<{artifact.f.txt}>", context) == "<body>"
    assert service.calls == [
        {"app_name": "app", "user_id": "u", "session_id": "s", "filename": "f.txt"}
    ]


async def test_optional_missing_artifact_becomes_empty() -> None:
    context, _ = _artifact_context({})
    assert await inject_session_state("<{artifact.f?}>", context) == "<>"


async def test_missing_required_artifact_raises_key_error() -> None:
    context, _ = _artifact_context({})
    with pytest.raises(KeyError) as info:
        await inject_session_state("{artifact.f}", context)
    assert info.value.args == ("Artifact 'f' not found in agent 'agent'.",)


# --- instructions processor ---------------------------------------------------


async def _process(agent: LlmAgent, **state: Any) -> LlmRequest:
    request = LlmRequest()
    await instructions.process(_ctx(agent, **state), agent, request)
    return request


async def test_instruction_is_templated_into_system_instruction() -> None:
    request = await _process(LlmAgent(name="a", instruction="Hello {who}."), who="Ann")
    assert request.config.system_instruction == "Hello Ann."
    assert request.contents == []


async def test_instruction_provider_output_is_not_templated() -> None:
    request = await _process(LlmAgent(name="a", instruction=lambda ctx: "keep {who}"), who="Ann")
    assert request.config.system_instruction == "keep {who}"


async def test_async_instruction_provider_gets_readonly_context() -> None:
    async def provider(ctx: ReadonlyContext) -> str:
        return f"agent={ctx.agent_name} state={ctx.state['k']}"

    request = await _process(LlmAgent(name="a", instruction=provider), k=7)
    assert request.config.system_instruction == "agent=a state=7"


async def test_empty_instruction_adds_nothing() -> None:
    request = await _process(LlmAgent(name="a"))
    assert request.config.system_instruction is None


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # ADK deprecates global_instruction
async def test_global_instruction_comes_from_root_and_leads() -> None:
    child = LlmAgent(name="child", instruction="Child {x}.", global_instruction="ignored")
    LlmAgent(name="root", global_instruction="Global {x}.", sub_agents=[child])
    request = await _process(child, x=1)
    assert request.config.system_instruction == "Global 1.\n\nChild 1."


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # ADK deprecates global_instruction
async def test_global_instruction_provider_is_not_templated() -> None:
    root = LlmAgent(name="root", global_instruction=lambda ctx: "G {x}", instruction="I {x}")
    request = await _process(root, x=1)
    assert request.config.system_instruction == "G {x}\n\nI 1"


async def test_static_instruction_moves_instruction_to_user_content() -> None:
    agent = LlmAgent(name="a", static_instruction="Static {x}.", instruction="Dynamic {x}.")
    request = await _process(agent, x=1)
    assert request.config.system_instruction == "Static {x}."
    # google-adk 2.13 fences it as the agent's own instruction (2.0 sent the bare text)
    labelled = label_dynamic_instruction("Dynamic 1.")
    assert labelled.endswith(
        "<<<BEGIN_SYSTEM_INSTRUCTION>>>\nDynamic 1.\n<<<END_SYSTEM_INSTRUCTION>>>"
    )
    assert request.contents == [types.Content(role="user", parts=[types.Part(text=labelled)])]


async def test_static_instruction_content_text_parts_join_system_instruction() -> None:
    static = types.Content(role="user", parts=[types.Part(text="one"), types.Part(text="two")])
    request = await _process(LlmAgent(name="a", static_instruction=static))
    assert request.config.system_instruction == "one\n\ntwo"
    assert request.contents == []


async def test_static_instruction_list_of_parts() -> None:
    request = await _process(LlmAgent(name="a", static_instruction=["one", types.Part(text="two")]))
    assert request.config.system_instruction == "one\n\ntwo"


async def test_static_instruction_non_text_part_becomes_user_content_once() -> None:
    blob = types.Part(inline_data=types.Blob(mime_type="image/png", data=b"png"))
    static = types.Content(role="user", parts=[types.Part(text="see image"), blob])
    request = await _process(LlmAgent(name="a", static_instruction=static))
    blob_parts = [p for c in request.contents for p in c.parts or [] if p.inline_data]
    assert blob_parts == [blob]
    assert all(c.role == "user" for c in request.contents)
