"""Which of the workflow changes (names.PATCH_*) a run takes, decided where it starts.

Runs on: workflow (Temporal sandbox). A run that starts on this code records one
marker, `names.PATCH_DECIDED_AT_START`, first thing in its first workflow task, and
takes every change without a marker of its own. Histories from before record each
change's marker where its branch was first reached, and replay as they ran.

Why: a change's marker recorded later, right after a local activity resolved, can
land in a later workflow task than the code that asked (a query or a rejected update
arriving meanwhile splits the task), and its replay then finds no command for it
("Non-deprecated patch marker encountered"): measured about 1 in 10 runs of an
answered-apart confirmation under load. A marker at the start has nothing before it.
"""

from __future__ import annotations

from temporalio import workflow

from . import names

_DECIDED = "_adk_patches_decided_at_start"


def decide_at_start() -> None:
    """The first thing a workflow's run does (before any command of its own)."""
    setattr(workflow.instance(), _DECIDED, workflow.patched(names.PATCH_DECIDED_AT_START))


def patched(patch_id: str) -> bool:
    """`workflow.patched(patch_id)`, unless the run decided every change at its start."""
    if getattr(workflow.instance(), _DECIDED, False):
        return True
    return workflow.patched(patch_id)
