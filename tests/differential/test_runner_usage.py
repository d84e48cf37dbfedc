"""Runner and session-service usage, on google-adk 2.13 and on ours: must agree.

Runs on: process side (the tests' process; ours on the session's local Temporal).
A scenario (scenarios/NAME.py, imports from `google.adk` as users write them)
builds its agent with the kit's scripted model, then drives the Runner and its
session service itself and records what a user would look at (events,
sessions, listings, errors); both sides' records are compared as the cases are.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from . import kit

SCENARIOS = Path(__file__).parent / "scenarios"

DIFFERENCES: dict[str, str | None] = {
    "app_runner": None,
    "break_at_final": "by design: breaking out of run_async at the final response, 2.13"
    " cancels the rest of the invocation (its after_agent_callback never runs); ours runs to"
    " its end (after_agent runs, its event and state are stored), and the Runner's next"
    " message to the session waits for it instead of raising SessionBusyError",
    "llm_calls_limit": None,
    "rewind": None,
    "rewind_pending": None,
    "run_debug": None,
    "session_lifecycle": None,
    "session_user_state": None,
    "sync_run_and_limits": None,
}


def test_every_scenario_is_listed() -> None:
    assert sorted(DIFFERENCES) == sorted(p.stem for p in SCENARIOS.glob("[!_]*.py"))


def _dump(value: Any) -> Any:
    if isinstance(value, BaseException):
        return {"raised": type(value).__name__, "message": str(value)}
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if type(value).__name__ == "Session":
        data = kit._jsonable(value)
        data.pop("last_update_time", None)
        data["events"] = [kit.dump_event(e) for e in value.events]
        return data
    if isinstance(value, BaseModel) and hasattr(value, "author"):  # an Event
        return kit.dump_event(value)
    if isinstance(value, BaseModel):  # e.g. ListSessionsResponse
        return {k: _dump(getattr(value, k)) for k in type(value).model_fields}
    return kit._jsonable(value)


async def _run(name: str, side: str, options: dict[str, Any]) -> Any:
    recorder = kit.Recorder()
    source = (SCENARIOS / f"{name}.py").read_text()
    records: list[Any] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        module = kit.load_case(source, side)
        agent = module.build(kit._model_factory(side, recorder))
        await module.scenario(agent, lambda what, v: records.append([what, _dump(v)]), options)
    document = {"records": records, "requests": dict(recorder.requests)}
    return kit.without_gaps_everywhere(document)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=[pytest.mark.xfail(strict=True, reason=d)] if d else [], id=n)
        for n, d in DIFFERENCES.items()
    ],
)
async def test_same_as_reference(name: str, temporal_env: Any) -> None:
    reference = await _run(name, kit.REFERENCE, {})
    ours = await _run(name, kit.OURS, {"temporal_client": temporal_env.client})
    kit.assert_same(reference, ours, ignore_gaps=False)
