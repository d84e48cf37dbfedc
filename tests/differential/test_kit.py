"""The kit itself: it sees a difference when there is one, and only then.

Runs on: process side (reference only: no Temporal needed).
"""

from __future__ import annotations

import pytest

from . import kit

CASE = '''
from google.adk.agents import LlmAgent
import google.adk.tools
from google.genai import types

TURNS = ["hi"]


def shout(text: str) -> dict:
    """Shouts.

    Args:
      text: What to shout.
    """
    return {"shouted": text.upper()}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(types.Part.from_function_call(name="shout", args={"text": "x"}), "REPLY"),
        instruction="INSTRUCTION",
        tools=[shout],
    )
'''


def test_only_import_lines_are_ported() -> None:
    source = 'from google.adk.agents import LlmAgent\nimport google.adk.tools\nx = "google.adk"\n'
    assert (
        kit.to_ours(source)
        == 'from adk.agents import LlmAgent\nimport adk.tools\nx = "google.adk"\n'
    )


async def test_two_runs_of_one_script_agree() -> None:
    """Fresh ids and timestamps on each run: normalised, so no difference."""
    first, second = await kit.run_reference(CASE), await kit.run_reference(CASE)
    assert first["turns"][0]["events"][0]["id"] != second["turns"][0]["events"][0]["id"]
    kit.assert_same(first, second)


@pytest.mark.parametrize(
    "change, to, shows",
    [
        ('"REPLY"', '"REPLY!"', '+        "text": "REPLY!"'),  # an event's text
        ('"INSTRUCTION"', '"INSTRUCTION!"', '+     "system_instruction": "INSTRUCTION!'),
        ("text.upper()", "text.lower()", '+          "shouted": "x"'),  # a tool's result
        ('"shouted"', '"said"', '+          "said": "X"'),  # ...under another key
    ],
)
async def test_a_different_script_shows_a_diff(change: str, to: str, shows: str) -> None:
    reference = await kit.run_reference(CASE)
    altered = await kit.run_reference(CASE.replace(change, to))
    diff = kit.difference(reference, altered)
    assert shows in diff
    with pytest.raises(AssertionError, match="differ"):
        kit.assert_same(reference, altered)


async def test_an_exception_is_compared() -> None:
    reference = await kit.run_reference(CASE)
    raising = await kit.run_reference(CASE.replace("text.upper()", "text.upper(1)"))
    assert raising["turns"][0]["raised"]["class"] == "TypeError"
    assert '"raised"' in kit.difference(reference, raising)


def test_ids_keep_their_shape() -> None:
    """Only the UUID is replaced: an id of another shape still shows."""
    a = {"id": "adk-0b6b6b6e-1111-4222-8333-944444444444"}
    b = {"id": "0b6b6b6e-1111-4222-8333-944444444444"}
    assert kit.difference(a, b)
    assert kit.normalise(a) == kit.normalise({"id": "adk-9b6b6b6e-1111-4222-8333-944444444444"})


def test_branch_runs_keep_each_branch_order() -> None:
    """Only the interleaving of concurrent branches is let go, nothing around it."""
    events = [
        {"id": "u"},
        {"id": "r1", "branch": "p.r"},
        {"id": "l1", "branch": "p.l"},
        {"id": "r2", "branch": "p.r"},
        {"id": "s"},
        {"id": "l2", "branch": "p.l"},
    ]
    ids = [e["id"] for e in kit._by_branch(events)]
    assert ids == ["u", "l1", "r1", "r2", "s", "l2"]


def test_graph_checkpoints_among_branches_compare_by_their_transitions() -> None:
    """Two fan-out lanes ending in either order give the same document; a checkpoint
    missing (its transition folded into the next) does not."""

    def mark(id: str, **nodes: int) -> dict:
        state = {n: {"status": s, "interrupts": []} for n, s in nodes.items()}
        return {"id": id, "author": "wf", "actions": {"agent_state": {"nodes": state}}}

    def out(id: str, branch: str) -> dict:
        return {"id": id, "author": "wf", "branch": branch, "output": branch}

    head = [mark("c1", a=3), mark("c2", a=3, l=2), mark("c3", a=3, l=2, r=2)]
    left_first = [
        *head,
        out("e1", "l@1"),
        mark("c4", a=3, l=3, r=2),
        out("e2", "r@1"),
        mark("c5", a=3, l=3, r=3),
        {"id": "e3", "author": "wf", "output": "join"},
    ]
    right_first = [
        *head,
        out("e2", "r@1"),
        mark("c4", a=3, l=2, r=3),
        out("e1", "l@1"),
        mark("c5", a=3, l=3, r=3),
        {"id": "e3", "author": "wf", "output": "join"},
    ]
    folded = [e for e in left_first if e["id"] != "c4"]

    def normal(events: list) -> list:
        return kit._by_branch(kit._checkpoints_by_transition(events))

    assert normal(left_first) == normal(right_first)
    assert normal(folded) != normal(left_first)
