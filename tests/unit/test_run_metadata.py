"""RunConfig.custom_metadata merged into events (adk/events/_internal_metadata.py),
against google-adk 2.13's runner helper.

Runs on: test process only.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents.run_config import RunConfig as RefRunConfig  # noqa: E402
from google.adk.events.event import Event as RefEvent  # noqa: E402
from google.adk.runners import _apply_run_config_custom_metadata  # noqa: E402

from adk.agents.run_config import RunConfig  # noqa: E402
from adk.events._internal_metadata import apply_run_metadata  # noqa: E402
from adk.events.event import Event  # noqa: E402

RUNS: list[dict[str, Any] | None] = [
    None,
    {},
    {"__adk_internal_only": 1},
    {"tenant": "acme", "trace": "run"},
    {"tenant": "acme", "__adk_internal_forged": True},
]
OWN: list[dict[str, Any] | None] = [None, {}, {"trace": "event"}, {"__adk_internal_x": 2}]


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("own", OWN)
def test_merged_as_2_13_merges_it(run: dict[str, Any] | None, own: dict[str, Any] | None) -> None:
    reference = RefEvent(author="a", custom_metadata=own)
    _apply_run_config_custom_metadata(reference, RefRunConfig(custom_metadata=run))
    ours = apply_run_metadata(
        Event(author="a", custom_metadata=own), RunConfig(custom_metadata=run)
    )
    assert ours.custom_metadata == reference.custom_metadata
    assert ("custom_metadata" in ours.model_fields_set) == (
        "custom_metadata" in reference.model_fields_set
    )


def test_stamping_again_changes_nothing() -> None:
    config = RunConfig(custom_metadata={"tenant": "acme", "trace": "run"})
    event = apply_run_metadata(Event(author="a", custom_metadata={"trace": "own"}), config)
    assert apply_run_metadata(event.model_copy(deep=True), config) == event
    assert apply_run_metadata(Event(author="a"), None).custom_metadata is None


def _context(metadata: dict[str, Any] | None) -> Any:
    from adk.agents import LlmAgent
    from adk.agents.invocation_context import InvocationContext
    from adk.sessions import Session

    return InvocationContext(
        invocation_id="i",
        agent=LlmAgent(name="a"),
        session=Session(id="s", app_name="x", user_id="u"),
        run_config=RunConfig(custom_metadata=metadata),
    )


def test_an_activity_carries_what_the_invocations_code_wrote() -> None:
    from temporalio.exceptions import ApplicationError

    from activities import _custom_metadata as carried
    from adk.agents.callback_context import CallbackContext
    from workflows.contracts import StepRef

    ctx = _context({"tenant": "acme", "__adk_internal_x": 1})
    carried.seed(ctx, StepRef(agent_name="a"))  # nothing written yet: the RunConfig's
    before = carried.snapshot(ctx)
    assert before == {"tenant": "acme"}
    assert carried.written(ctx, before) is None
    CallbackContext(ctx).custom_metadata["tags"] = ["x"]
    assert carried.written(ctx, before) == {"tenant": "acme", "tags": ["x"]}

    later = _context({"tenant": "acme"})  # the next activity gets what was written
    carried.seed(later, StepRef(agent_name="a", custom_metadata={"tags": ["x"]}))
    before = carried.snapshot(later)
    CallbackContext(later).custom_metadata["tags"].append("y")  # a nested write counts
    assert carried.written(later, before) == {"tags": ["x", "y"]}

    CallbackContext(later).custom_metadata["client"] = object()
    with pytest.raises(ApplicationError, match="not JSON-serializable") as raised:
        carried.written(later, before)
    assert raised.value.non_retryable
