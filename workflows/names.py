"""Names shared by workflows, activities, the worker and clients.

Runs on: both sides (constants, and the search attributes an invocation starts with).
"""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote

from temporalio.common import SearchAttributeKey, SearchAttributePair, TypedSearchAttributes

DEFAULT_TASK_QUEUE = "durable-adk"
"""The prefix of the apps' task queues (and the one queue of a worker told to serve all
its apps on `DEFAULT_TASK_QUEUE` itself)."""


def app_task_queue(app_name: str) -> str:
    """The task queue an app's invocations run on, unless one queue is set for all:
    a worker polls the queues of the apps it loaded, so a worker without the app
    never receives its work. Child workflows and activities stay on their
    invocation's queue."""
    return f"{DEFAULT_TASK_QUEUE}.{app_name}"


INVOCATION_WORKFLOW = "AdkInvocation"

BEGIN_INVOCATION = "adk.begin_invocation"
MODEL_STEP = "adk.model_step"
TOOL_CALL = "adk.tool_call"
PERSIST_EVENTS = "adk.persist_events"
RUN_NODE = "adk.run_node"
EXECUTE_CODE = "adk.execute_code"
"""One execution of the code a model wrote (a code executor that runs it in the worker)."""

SA_APP = SearchAttributeKey.for_keyword("AdkApp")
SA_USER = SearchAttributeKey.for_keyword("AdkUser")
SA_SESSION = SearchAttributeKey.for_keyword("AdkSession")
SA_AGENT = SearchAttributeKey.for_keyword("AdkAgent")
SA_STATUS = SearchAttributeKey.for_keyword("AdkStatus")
SEARCH_ATTRIBUTES = [SA_APP, SA_USER, SA_SESSION, SA_AGENT, SA_STATUS]
"""All Keyword attributes; register them on the server (the dev-server script does)."""


def start_search_attributes(
    app_name: str, user_id: str, session_id: str, agent_name: str | None
) -> TypedSearchAttributes:
    """What an invocation's workflow starts with (the agent, if known)."""
    pairs = [
        SearchAttributePair(SA_APP, app_name),
        SearchAttributePair(SA_USER, user_id),
        SearchAttributePair(SA_SESSION, session_id),
    ]
    if agent_name:
        pairs.append(SearchAttributePair(SA_AGENT, agent_name))
    return TypedSearchAttributes(pairs)


def child_search_attributes(session_id: str, agent_name: str) -> TypedSearchAttributes:
    """What a child agent run starts with: the session, so `AdkSession = "…"` lists a
    session's whole tree, and its own agent. The app and user are the root's only
    (each attribute is recorded twice per child: its parent's start and its own)."""
    return TypedSearchAttributes(
        [SearchAttributePair(SA_SESSION, session_id), SearchAttributePair(SA_AGENT, agent_name)]
    )


MAX_WORKFLOW_ID_BYTES = 1000
"""Temporal's default limit on a workflow id (the server's `limit.maxIDLength`)."""
CHILD_ID_ROOM = 200
"""Bytes an invocation id leaves for its child agent runs' ids, which extend it
(`<id>/<invocation id>/<agent or branch>#n`)."""
_KEPT = frozenset("-_.~@+")
"""Kept as they are in an id part, with letters and digits; anything else is
percent-encoded (':', '%', '/', quotes, spaces...), which makes the id injective."""


def id_part(value: str) -> str:
    """`value` as one part of a workflow id: readable when plain, never ambiguous."""
    return "".join(
        ch if ch.isalnum() or ch in _KEPT else "".join(f"%{b:02X}" for b in ch.encode())
        for ch in value
    )


def invocation_workflow_id(app_name: str, user_id: str, session_id: str) -> str:
    """One running invocation per session: the id is derived from the session.

    `adk:<app>:<user>:<session>`, each part encoded by `id_part`, so two sessions
    never share an id (user `ada:s1` session `x` is `adk:app:ada%3As1:x`, user
    `ada` session `s1:x` is `adk:app:ada:s1%3Ax`). ValueError for ids that cannot
    be one (see `check_session_ids`).
    """
    check_session_ids(app_name, user_id, session_id)
    workflow_id = ":".join(["adk", id_part(app_name), id_part(user_id), id_part(session_id)])
    size = len(workflow_id.encode())
    if size > MAX_WORKFLOW_ID_BYTES - CHILD_ID_ROOM:
        raise ValueError(
            f"The app, user and session ids are too long together: their workflow id would"
            f" be {size} bytes, at most {MAX_WORKFLOW_ID_BYTES - CHILD_ID_ROOM} fit"
            f" (Temporal allows {MAX_WORKFLOW_ID_BYTES}, child agent runs need the rest)."
        )
    return workflow_id


def check_session_ids(app_name: str, user_id: str, session_id: str) -> None:
    """ValueError naming the first of the three ids that cannot name a session."""
    for what, value in (("app name", app_name), ("user id", user_id), ("session id", session_id)):
        if not isinstance(value, str):
            raise ValueError(f"The {what} must be a string, not {type(value).__name__}.")
        if not value.strip():
            raise ValueError(f"The {what} is empty (or blank).")
        bad = next((ch for ch in value if unicodedata.category(ch) in _CONTROL), None)
        if bad is not None:
            raise ValueError(f"The {what} {value!r} contains a control character ({bad!r}).")
        if any(unicodedata.category(ch) == "Cs" for ch in value):
            raise ValueError(f"The {what} {value!r} is not valid Unicode (a lone surrogate).")


_CONTROL = frozenset({"Cc", "Zl", "Zp"})
"""Control characters and line breaks: no id holds one (they would break the CLI's lines)."""


def session_of(workflow_id: str) -> tuple[str, str, str]:
    """(app, user, session) an invocation workflow id was made from; ValueError if
    it is not one (a child agent run's id, an id of another format)."""
    parts = workflow_id.split(":")
    if len(parts) == 4 and parts[0] == "adk":
        try:
            decoded = tuple(unquote(part, errors="strict") for part in parts[1:])
            if invocation_workflow_id(*decoded) == workflow_id:
                return decoded  # type: ignore[return-value]
        except ValueError:  # (UnicodeDecodeError too)
            pass
    root = workflow_id.split("/", 1)[0]
    hint = (
        f" (a child agent run's: answer through the invocation {root!r})"
        if "/" in workflow_id
        else ""
    )
    raise ValueError(
        f"{workflow_id!r} is not an invocation's workflow id{hint}; expected"
        " adk:<app>:<user>:<session>, as `pending` lists them."
    )


def agent_run_id(root_workflow_id: str, invocation_id: str, path: str) -> str:
    """A child agent run's workflow id: `<invocation's workflow id>/<invocation id>/<path>`
    (the path is the runs that started it, then its own `<agent or branch>#n`)."""
    return f"{root_workflow_id}/{invocation_id}/{path}"


def agent_run_origin(workflow_id: str) -> tuple[str, str, tuple[str, str, str]] | None:
    """(invocation's workflow id, invocation id, (app, user, session)) an agent run's
    workflow id names (`agent_run_id`); None when it names none (then its input does)."""
    parts = workflow_id.split("/")
    if len(parts) < 3:
        return None
    try:
        return parts[0], parts[1], session_of(parts[0])
    except ValueError:
        return None


def step_origin(workflow_id: str) -> tuple[tuple[str, str, str], str | None] | None:
    """((app, user, session), invocation id) that a workflow id names: both for an agent
    run's, the session alone (None for the invocation) for an invocation's own; None for
    another id."""
    run = agent_run_origin(workflow_id)
    if run is not None:
        return run[2], run[1]
    try:
        return session_of(workflow_id), None
    except ValueError:
        return None


AGENT_RUN_WORKFLOW = "AdkAgentRun"
AGENT_CALLBACK = "adk.agent_callback"
BEGIN_AGENT_TOOL = "adk.begin_agent_tool"
FINISH_AGENT_TOOL = "adk.finish_agent_tool"
RUN_HOOK = "adk.run_hook"
ANSWER_HOOK = "adk.answer_hook"
COMPACT_EVENTS = "adk.compact_events"
CUSTOM_AGENT_VIEW = "adk.custom_agent_view"

# Human-in-the-loop: updates (validated; nothing is written for a rejected answer),
# signal variants (same checks, invalid ones ignored with a warning), a query.
UPDATE_APPROVE = "approve"
UPDATE_REJECT = "reject"
UPDATE_RESPOND = "respond"
UPDATE_PROGRESS = "progress"
SIGNAL_ANSWER = "answer"
UPDATE_RELEASE = "adk_release"
"""A new message for the session while its invocation waits for answers (after its run,
or paused): the invocation ends, leaving them unanswered, so the message can start the
next invocation (google-adk 2.13: a new message is a new invocation; the calls stay open)."""
PATCH_ANSWER_CHECKS = "answers-name-their-session"
"""The answer signal's checks since answers name their session and must fit their
request (update validators do not replay: only the signal needs the patch)."""
PATCH_ADK_PAUSES = "adk-2.13-pauses"
"""Pending calls no longer hold the loop: the model sees an intermediate result, the run
ends as google-adk 2.13's, and the invocation waits for answers after it (or pauses, in
a resumable app). Histories recorded before wait inside the loop."""
PATCH_HANDED_UP_ANSWERS = "answers-follow-handed-up-requests"
"""An answer sent to a workflow agent's step that ended meanwhile, handing its request
up (AgentRunResult.deferred), goes to the run that took the request over."""
PATCH_END_AFTER_TARGET = "end-of-agent-after-transfer-target"
"""A resumable app's agent that transfers under a shell agent: its end-of-agent marker
comes after the target's run (google-adk 2.13), recorded by the parent. Histories
recorded before record it at the end of the agent's own run."""
PATCH_RUN_HOOKS_PER_ANSWER = "run-hooks-per-answer"
"""Each answer continuing a waiting invocation is a run of its own for the plugins
(google-adk 2.13): after_run before the wait, on_user_message and before_run for the
answer. Histories recorded before run them once per invocation."""
PATCH_CHILD_RUNS_AGAIN = "child-requests-not-awaited-while-it-runs"
"""A transfer's target (a child run) that waits for several requests and runs again
after one's answer: the root lists the others as not awaited meanwhile, and the child
reports them (not awaited while it runs, awaited again when it stays paused).
Histories recorded before left them awaited at the root."""
PATCH_RESUMED_CHAIN_CALLBACKS = "resumed-transfer-chain-callbacks"
"""A resumable app's transfer chain under a shell agent, resumed in its paused target:
the agents before the target run their agent callbacks around it (google-adk 2.13
runs them again). Histories recorded before ran none."""
PATCH_APPROVED_TRANSFERS = "approved-tool-transfers-as-2.13"
"""A transfer an approved tool asks for, in the answer's run: not followed under a
workflow agent (the agent runs again), and a resumable app's agent records its
end-of-agent marker before the target's run (google-adk 2.13). Histories recorded
before followed it everywhere, with no marker."""
PATCH_END_ON_PAUSE_AGAIN = "end-of-agent-on-pause-again"
"""A resumable app's answer run that stops again with no model call (another call it
paused on is open): the agent's end-of-agent marker, at the top (google-adk 2.13).
Histories recorded before have none there."""
PATCH_HELD_RELEASES_TARGETS = "held-message-releases-waiting-targets"
"""A message held by the busy policy (queue, interrupt) while a transfer's target waits
for answers ends the target's wait, as it ends the root's own, so it runs next.
Histories recorded before kept the target waiting."""
PATCH_ANSWERS_RUN_ALONE = "answers-run-their-agent-alone"
"""Under an LlmAgent root, a transfer's target that waits for answers: each answer runs
the agent that made the call alone, at the top (its own node path), not the workflow
agents around it, which a resumable app no longer resumes (google-adk 2.13's
run_async with the answer). Histories recorded before ran it on the target's path, and
a resumable app resumed the target where it paused."""
PATCH_FLUSH_IN_ORDER = "persist-in-order"
"""Concurrent steps (a ParallelAgent's branches) persist the events this workflow holds
one after another: a branch starts its child only once what an earlier flush took is
stored, so the ParallelAgent's own event precedes its branches'. Histories recorded
before let a branch with nothing to persist start at once."""
PATCH_TRANSFER_ENDS_RUN = "transfer-ends-agent-run"
"""Histories from before: the transferring agent's after_agent_callback ran right away."""
PATCH_TRANSFER_FAILURE_AUTHOR = "transfer-failure-by-transferring-agent"
"""Histories from before: a transfer target's failure was recorded by the target itself."""

CHANGES_AT_START: tuple[tuple[str, ...], ...] = (
    (
        PATCH_ANSWER_CHECKS,
        PATCH_ADK_PAUSES,
        PATCH_HANDED_UP_ANSWERS,
        PATCH_END_AFTER_TARGET,
        PATCH_RUN_HOOKS_PER_ANSWER,
        PATCH_CHILD_RUNS_AGAIN,
        PATCH_RESUMED_CHAIN_CALLBACKS,
        PATCH_APPROVED_TRANSFERS,
        PATCH_END_ON_PAUSE_AGAIN,
        PATCH_HELD_RELEASES_TARGETS,
        PATCH_ANSWERS_RUN_ALONE,
        PATCH_FLUSH_IN_ORDER,
        PATCH_TRANSFER_ENDS_RUN,
        PATCH_TRANSFER_FAILURE_AUTHOR,
    ),
)
"""The changes above by generation (workflows/_patches.py). A root run records the
marker of the newest generation n first thing (`changes_marker(n)`) and takes the
changes of generations 1..n without markers of their own; its children are handed n in
their input and record nothing. A new change goes into a new generation, never an old
one (runs that recorded an old one did not take it)."""


def changes_marker(generation: int) -> str:
    return f"adk-changes-{generation}"


QUERY_STATUS = "status"
SIGNAL_REGISTER = "adk_register_requests"
"""Child → root: requests a child waits for (and their resolution)."""
SIGNAL_DELIVER = "adk_deliver_answer"
"""Root → child: an answer validated by the root."""

# A message for a session whose invocation runs (the app's busy policy, workflows/_busy.py)
UPDATE_SUBMIT = "adk_submit"
"""Client → running invocation: a new message, queued or interrupting per the policy."""
SIGNAL_STOP = "adk_stop"
"""Root → child agent run: stop before the next model call (an interrupting message)."""
SIGNAL_RELEASE = "adk_release_wait"
"""Root → child agent run that waits for answers after its run (a transfer's target):
end the wait, the requests staying open (the root got UPDATE_RELEASE)."""
BUSY_ERROR = "SessionBusy"
"""The ApplicationError type of a message refused because the session is busy."""
ENDED_ERROR = "InvocationEnded"
"""The ApplicationError type of a message that reached an invocation as it ended
without learning its policy: the client starts it as a new invocation instead."""
