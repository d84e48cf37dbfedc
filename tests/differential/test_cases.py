"""The differential cases: each runs on google-adk 2.13 and on ours and must agree.

Runs on: process side (the tests' process; ours on the session's local Temporal).
A case where ours differs today is a strict xfail naming the difference: the
fix makes it XPASS, which fails, so the mark is removed with the fix. The
differences every case shows (kit.GAPS) are checked apart, in test_gaps.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import kit

_ERROR_EVENT = (
    "ADK records an event with error_code/error_message and raises the error itself; ours"
    " records none and raises InvocationFailedError wrapping it"
)

CASES: dict[str, str | None] = {
    "tools_state_two_turns": None,
    "node_paths_transfers": None,
    "node_paths_workflow_agents": None,
    "parallel_calls_one_list": "four parallel calls of one tool: in ADK each sees the"
    " state writes of the calls before it (sizes 1-4, items a-d); ours gives each the same"
    " snapshot (sizes 1,1,1,1, items ['d'])",
    "output_schema_no_tools": None,
    "output_schema_with_tools": "ours declares no set_model_response tool and lacks ADK's"
    " 'IMPORTANT: ... set_model_response ...' instruction; the model's set_model_response"
    " call gets an error response ('...failed as no tool...'), the model is asked again; no"
    " final JSON event, no output_key state, no actions.set_model_response",
    "transfer_round_trip": None,
    "sequential_parallel_skip": "after ParallelAgent[x, y] whose y's before_agent_callback"
    " returns Content, ours never runs the next agent of the SequentialAgent (ADK does: its"
    " request, its event)",
    "parallel_branches_isolated": None,
    "loop_exit_include_none": None,
    "agent_tool_summarization": "AgentTool with skip_summarization: ADK's function-response"
    " event also carries the agent's reply as a text Part; ours has the response only",
    "instruction_templating": None,
    "instruction_escaped_braces": f"{{{{literal}}}} raises KeyError as in ADK, but {_ERROR_EVENT};"
    " ours' message lacks \" in agent 'root'\"",
    "instruction_missing_key": f"{_ERROR_EVENT}; ours' message lacks \" in agent 'root'\"",
    "instruction_artifact": f"{{artifact.x}} without an artifact service: {_ERROR_EVENT}",
    "tool_raises": "a tool's exception: ADK records an error event and raises it"
    " (DivisionProblem); ours sends the model an error function response and goes on",
    "model_raises": "a custom BaseLlm raising QuotaProblem: ADK records an error event and"
    " raises QuotaProblem at once; ours retries the model call (a second request) and raises"
    " InvocationFailedError (here wrapping the script's end)",
    "callbacks_model_and_tool": None,
    "long_running_none": "a long-running tool returning None: ours' ToolCallOutput drops"
    " `response` (None, the converter's exclude_none) and the required field fails to decode:"
    " every workflow task fails ('Failed decoding arguments'), so answering the call raises"
    " WorkflowQueryFailedError or hangs (the kit's 10 s); ADK: the answer resumes, the model"
    " replies",
}


def test_every_case_is_listed() -> None:
    assert sorted(CASES) == sorted(p.stem for p in kit.CASES.glob("*.py"))


def _param(name: str, difference: str | None) -> Any:
    marks = [pytest.mark.xfail(strict=True, reason=difference)] if difference else []
    return pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("case", [_param(n, d) for n, d in CASES.items()])
async def test_same_as_reference(case: str, temporal_env: Any) -> None:
    reference = await kit.run_reference(case)
    ours = await kit.run_ours(case, temporal_env)
    kit.assert_same(reference, ours)
