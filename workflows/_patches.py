"""Which of the workflow changes (names.PATCH_*) a run takes, decided where it starts.

Runs on: workflow (Temporal sandbox). A root run that starts on this code records one
marker first thing in its first workflow task, naming the newest generation of changes
it knows (names.CHANGES_AT_START), and takes those changes without markers of their
own; its child runs are handed the generation in their input (AgentRunInput.changes)
and record nothing. Histories from before record each change's marker where its branch
was first reached, and replay as they ran; a change newer than a run's generation is
decided so too.

Why: a change's marker recorded later, right after a local activity resolved, can land
in a later workflow task than the code that asked (a query arriving meanwhile splits
the task), and its replay then finds no command for it ("Non-deprecated patch marker
encountered"): measured about 1 in 10 runs of an answered-apart confirmation under
load. A marker at the start has nothing before it.
"""

from __future__ import annotations

from temporalio import workflow

from . import names

_DECIDED = "_adk_changes_decided_at_start"


def decide_at_start(handed: int = 0) -> None:
    """The first thing a workflow's run does (before any command of its own). `handed`:
    the generation a parent decided (0: none, decide here)."""
    generations = names.CHANGES_AT_START
    generation = handed or next(
        (n for n in range(len(generations), 0, -1) if workflow.patched(names.changes_marker(n))),
        0,
    )
    taken = frozenset(change for changes in generations[:generation] for change in changes)
    setattr(workflow.instance(), _DECIDED, (generation, taken))


def generation() -> int:
    """The generation of changes this run took at its start (0: none), for its children."""
    return _decided()[0]


def patched(patch_id: str) -> bool:
    """`workflow.patched(patch_id)`, unless the run took the change at its start."""
    if patch_id in _decided()[1]:
        return True
    return workflow.patched(patch_id)


def _decided() -> tuple[int, frozenset[str]]:
    """(generation, the changes it takes) this run decided at its start; none yet: (0, {})."""
    return getattr(workflow.instance(), _DECIDED, (0, frozenset()))
