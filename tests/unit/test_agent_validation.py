"""Construction-time validation parity with google-adk 2.13: the same bad agent
definitions raise the same exceptions, warn the same way and log the same warnings.

Runs on: test process only. Each case builds the same definition on both sides
(ours under `adk`, the reference under `google.adk`) and compares what happened:
the exception's class and message (for a pydantic ValidationError: each error's
type, location and message, and the class of the exception a validator raised),
the warnings and the logged warnings.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pydantic
import pytest
from google.genai import types

pytest.importorskip("google.adk")

import google.adk.agents as ref_agents  # noqa: E402
import google.adk.planners as ref_planners  # noqa: E402
import google.adk.tools.agent_tool as ref_agent_tool  # noqa: E402

import adk.agents as our_agents  # noqa: E402
import adk.planners as our_planners  # noqa: E402
import adk.tools.agent_tool as our_agent_tool  # noqa: E402


def _side(agents: Any, planners: Any, agent_tool: Any) -> SimpleNamespace:
    return SimpleNamespace(
        LlmAgent=agents.LlmAgent,
        SequentialAgent=agents.SequentialAgent,
        ParallelAgent=agents.ParallelAgent,
        LoopAgent=agents.LoopAgent,
        BaseAgent=agents.BaseAgent,
        BuiltInPlanner=planners.BuiltInPlanner,
        AgentTool=agent_tool.AgentTool,
    )


REF = _side(ref_agents, ref_planners, ref_agent_tool)
OURS = _side(our_agents, our_planners, our_agent_tool)

Build = Callable[[SimpleNamespace], Any]


def _thinking(m: SimpleNamespace) -> Any:
    return m.LlmAgent(
        name="a",
        generate_content_config=types.GenerateContentConfig(
            thinking_config=types.ThinkingConfig(thinking_budget=1)
        ),
        planner=m.BuiltInPlanner(thinking_config=types.ThinkingConfig(thinking_budget=2)),
    )


def _config(**fields: Any) -> Build:
    return lambda m: m.LlmAgent(
        name="a", generate_content_config=types.GenerateContentConfig(**fields)
    )


def _twice_parented(m: SimpleNamespace) -> Any:
    b = m.LlmAgent(name="b")
    m.SequentialAgent(name="s", sub_agents=[b])
    return m.ParallelAgent(name="p", sub_agents=[b])


def _same_sub_twice(m: SimpleNamespace) -> Any:
    b = m.LlmAgent(name="b")
    return m.SequentialAgent(name="s", sub_agents=[b, b])


CASES: dict[str, Build] = {
    # agents in tools
    "agent_as_tool": lambda m: m.LlmAgent(name="a", tools=[m.LlmAgent(name="b")]),
    "workflow_agent_as_tool": lambda m: m.LlmAgent(name="a", tools=[m.LoopAgent(name="b")]),
    "agent_as_tool_and_kwarg": lambda m: m.LlmAgent(
        name="a", tools=[m.LlmAgent(name="b")], temperature=0.2
    ),
    "agent_tool": lambda m: m.LlmAgent(name="a", tools=[m.AgentTool(m.LlmAgent(name="b"))]),
    "tools_not_iterable": lambda m: m.LlmAgent(name="a", tools=len),
    "tool_a_string": lambda m: m.LlmAgent(name="a", tools=["search"]),
    "agent_as_tool_via_model_validate": lambda m: m.LlmAgent.model_validate(
        {"name": "a", "tools": [m.LlmAgent(name="b")]}
    ),
    # generate_content_config
    "config_tools": _config(tools=[types.Tool(google_search=types.GoogleSearch())]),
    "config_system_instruction": _config(system_instruction="Be brief."),
    "config_response_schema": _config(response_schema={"type": "OBJECT"}),
    "config_base_url": _config(http_options=types.HttpOptions(base_url="http://x")),
    "config_http_options_without_base_url": _config(http_options=types.HttpOptions(timeout=5)),
    "config_dict_camel_case": lambda m: m.LlmAgent(
        name="a", generate_content_config={"systemInstruction": "x"}
    ),
    "config_dict": lambda m: m.LlmAgent(name="a", generate_content_config={"temperature": 0.1}),
    "config_and_bad_name": lambda m: m.LlmAgent(
        name="a-b", generate_content_config={"system_instruction": "x"}, include_contents="x"
    ),
    # GenerateContentConfig fields as LlmAgent keyword arguments
    "kwarg": lambda m: m.LlmAgent(name="a", temperature=0.2),
    "kwarg_camel_case": lambda m: m.LlmAgent(name="a", maxOutputTokens=5),
    "kwargs_two": lambda m: m.LlmAgent(name="a", temperature=0.2, top_p=0.3),
    "kwargs_alias_and_name": lambda m: m.LlmAgent(name="a", seed=1, topK=2, top_k=3),
    "kwarg_system_instruction": lambda m: m.LlmAgent(name="a", system_instruction="x"),
    "kwarg_system_instruction_camel": lambda m: m.LlmAgent(name="a", systemInstruction="x"),
    "kwarg_response_schema": lambda m: m.LlmAgent(name="a", response_schema={}),
    "kwarg_base_url": lambda m: m.LlmAgent(name="a", base_url="http://x"),
    "kwarg_http_options_base_url": lambda m: m.LlmAgent(
        name="a", http_options={"base_url": "http://x"}
    ),
    "kwarg_http_options_camel_base_url": lambda m: m.LlmAgent(
        name="a", httpOptions=types.HttpOptions(base_url="http://x")
    ),
    "kwarg_http_options": lambda m: m.LlmAgent(name="a", http_options={"timeout": 3}),
    "kwarg_unknown": lambda m: m.LlmAgent(name="a", foo=1),
    "kwarg_unknown_and_config": lambda m: m.LlmAgent(name="a", foo=1, temperature=0.2),
    "kwarg_without_name": lambda m: m.LlmAgent(temperature=0.2),
    "kwarg_empty_name": lambda m: m.LlmAgent(name="", temperature=0.2),
    "unknown_without_name": lambda m: m.LlmAgent(foo=1),
    "no_name": lambda m: m.LlmAgent(),
    "everything_at_once": lambda m: m.LlmAgent(
        foo=1,
        temperature=0.2,
        http_options={"baseUrl": "u"},
        system_instruction="s",
        responseSchema={},
        bar=2,
    ),
    "kwarg_via_model_validate": lambda m: m.LlmAgent.model_validate({"name": "a", "top_k": 1}),
    "kwarg_on_sequential_agent": lambda m: m.SequentialAgent(name="s", temperature=1),
    # the thinking config twice (a UserWarning)
    "thinking_config_and_planner": _thinking,
    # names
    "name_not_identifier": lambda m: m.LlmAgent(name="a-b"),
    "name_with_space": lambda m: m.SequentialAgent(name="a b"),
    "name_empty": lambda m: m.LoopAgent(name=""),
    "name_user": lambda m: m.LlmAgent(name="user"),
    "name_user_parallel": lambda m: m.ParallelAgent(name="user"),
    "name_not_str": lambda m: m.LlmAgent(name=3),
    # the tree
    "duplicate_sub_agents": lambda m: m.SequentialAgent(
        name="s", sub_agents=[m.LlmAgent(name="b"), m.LlmAgent(name="b")]
    ),
    "duplicate_deep": lambda m: m.SequentialAgent(
        name="s",
        sub_agents=[
            m.SequentialAgent(name="x", sub_agents=[m.LlmAgent(name="c")]),
            m.ParallelAgent(name="y", sub_agents=[m.LlmAgent(name="c"), m.LlmAgent(name="x")]),
        ],
    ),
    "duplicate_of_self": lambda m: m.SequentialAgent(
        name="c", sub_agents=[m.SequentialAgent(name="x", sub_agents=[m.LlmAgent(name="c")])]
    ),
    "duplicate_of_self_in_two_branches": lambda m: m.SequentialAgent(
        name="c",
        sub_agents=[m.LlmAgent(name="c"), m.LoopAgent(name="d", sub_agents=[m.LlmAgent(name="c")])],
    ),
    "sub_agent_with_a_parent": _twice_parented,
    "same_sub_agent_twice": _same_sub_twice,
    "sub_agent_not_an_agent": lambda m: m.SequentialAgent(name="s", sub_agents=["x"]),
    "parent_agent_given": lambda m: m.LlmAgent(name="a", parent_agent=m.LlmAgent(name="b")),
    # other fields
    "loop_max_iterations_negative": lambda m: m.LoopAgent(name="l", max_iterations=-1),
    "loop_max_iterations_fraction": lambda m: m.LoopAgent(name="l", max_iterations=2.5),
    "loop_unknown_kwarg": lambda m: m.LoopAgent(name="l", foo=1),
    "mode_unknown": lambda m: m.LlmAgent(name="a", mode="x"),
    "include_contents_unknown": lambda m: m.LlmAgent(name="a", include_contents="all"),
    "description_none": lambda m: m.LlmAgent(name="a", description=None),
    "input_schema_not_a_model": lambda m: m.LlmAgent(name="a", input_schema=int),
    "callback_not_callable": lambda m: m.LlmAgent(name="a", before_model_callback=3),
    "base_agent": lambda m: m.BaseAgent(name="a"),
}


def _outcome(build: Build, side: SimpleNamespace, caplog: pytest.LogCaptureFixture) -> Any:
    caplog.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            build(side)
            raised: Any = None
        except pydantic.ValidationError as error:
            raised = (
                type(error).__name__,
                error.title,
                [
                    (
                        e["type"],
                        e["loc"],
                        e["msg"],
                        type(e.get("ctx", {}).get("error")).__name__,
                    )
                    for e in error.errors()
                ],
            )
        except Exception as error:
            raised = (type(error).__name__, str(error))
    # (google-adk 2.13's deprecation of its workflow agents included: ours warn alike)
    warned = [(w.category.__name__, str(w.message)) for w in caught]
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    return raised, warned, logged


@pytest.mark.parametrize("case", CASES)
def test_same_exception_warnings_and_logs(case: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    assert _outcome(CASES[case], OURS, caplog) == _outcome(CASES[case], REF, caplog)


def test_the_checks_do_fire() -> None:
    # the parity above would also hold if neither side refused: pin a few outcomes
    with pytest.raises(pydantic.ValidationError) as info:
        OURS.LlmAgent(name="a", tools=[OURS.LlmAgent(name="b")])
    assert (
        "Agent 'b' cannot be used directly as a tool. Agents should be invoked as sub-agents."
        in str(info.value)
    )
    with pytest.raises(pydantic.ValidationError, match="temperature is a GenerateContentConfig"):
        OURS.LlmAgent(name="a", temperature=0.2)
    with pytest.warns(UserWarning, match="planner's configuration will take precedence"):
        _thinking(OURS)


def test_generate_content_config_none_is_an_empty_config_and_omitted_stays_none() -> None:
    for side in (REF, OURS):
        assert (
            side.LlmAgent(name="a", generate_content_config=None).generate_content_config
            == types.GenerateContentConfig()
        )
        assert side.LlmAgent(name="a").generate_content_config is None


def test_llm_sub_agents_get_the_chat_mode() -> None:
    for side in (REF, OURS):
        b = side.LlmAgent(name="b")
        c = side.LlmAgent(name="c")
        side.LlmAgent(name="a", sub_agents=[b])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            side.SequentialAgent(name="s", sub_agents=[c])
        assert (b.mode, c.mode) == ("chat", None)
