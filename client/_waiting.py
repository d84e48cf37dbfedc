"""A new message for a session whose invocation waits for answers: it gives way.

Runs on: process side. google-adk 2.13 starts a new invocation for a new message
and leaves the calls its user did not answer open. Ours keeps one invocation
workflow per session: one that only waits (its run over, or paused in a resumable
app) ends on the `adk_release` update, so the message starts the next one. A
running invocation is not this module's business (SessionBusyError, or the app's
busy-session policy).
"""

from __future__ import annotations

from temporalio.client import Client, WorkflowUpdateFailedError
from temporalio.service import RPCError

from workflows import names
from workflows.contracts import InvocationStatus, SessionRef


async def give_way(temporal: Client, workflow_id: str, session: SessionRef) -> bool:
    """End the session's invocation if it waits for answers (True, once it has ended);
    False if it runs (or cannot be asked)."""
    handle = temporal.get_workflow_handle(workflow_id)
    try:
        status = await handle.query(names.QUERY_STATUS, result_type=InvocationStatus)
    except RPCError:
        return False
    if status.status != "waiting" or not any(r.awaited for r in status.pending):
        return False  # running (a long-running call's request shows while its tool runs)
    try:
        await handle.execute_update(names.UPDATE_RELEASE, session, result_type=str)
    except (WorkflowUpdateFailedError, RPCError):
        return False  # an answer came first: it runs again
    try:
        await handle.result()
    except Exception:  # noqa: BLE001 - ended either way: the session is free
        pass
    return True
