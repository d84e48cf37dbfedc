"""AgentClient: start invocations and stream their events, like ADK's Runner.run_async.

Runs on: process side (client scripts, the CLI, the Runner).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

from google.genai import types
from temporalio.client import Client, WorkflowFailureError, WorkflowHandle
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.service import RPCError, RPCStatusCode

from adk.agents.run_config import RunConfig
from adk.events.event import Event
from adk.platform import uuid as platform_uuid
from adk.sessions.base_session_service import BaseSessionService
from workflows import names
from workflows.contracts import (
    InvocationInput,
    InvocationResult,
    InvocationStatus,
    PendingRequest,
    SessionRef,
    Submitted,
)

from . import _answers, _busy, _waiting
from ._errors import SessionBusyError, invocation_error
from ._follow import HistoryFollower
from ._outage import KeepTrying
from ._sealing import sealing_client
from ._stream import Reads, Wakes
from ._waiting import give_way

T = TypeVar("T")

_START_TRIES = 5
"""Starts tried while the session's invocation keeps ending between a start and the
message sent to it (each time, the next start finds the session free)."""


@dataclass
class Invocation:
    """A started invocation: where it runs and how to find it in the Web UI."""

    invocation_id: str
    session: SessionRef
    handle: WorkflowHandle[Any, InvocationResult]
    submitted: Submitted | None = None
    """Set when the message reached a running invocation of the session (the app's
    busy policy `queue` or `interrupt`): it runs after it, in a later run of the workflow."""

    @property
    def workflow_id(self) -> str:
        return self.handle.id

    @property
    def run_id(self) -> str | None:
        """Its workflow run's id; None for a message the session's running invocation
        took (its run starts later: the Web UI link lists the workflow's runs)."""
        return None if self.submitted is not None else self.handle.result_run_id

    def web_ui_url(self, ui_base: str, namespace: str) -> str:
        if self.run_id is None:  # attached by workflow id: the UI's list finds its runs
            query = quote(f'WorkflowId="{self.workflow_id}"', safe="")
            return f"{ui_base.rstrip('/')}/namespaces/{quote(namespace, safe='')}/workflows?query={query}"
        return (
            f"{ui_base.rstrip('/')}/namespaces/{quote(namespace, safe='')}/workflows/"
            f"{quote(self.workflow_id, safe='')}/{self.run_id}/history"
        )


def as_content(message: str | types.Content | None) -> types.Content | None:
    if message is None or isinstance(message, types.Content):
        return message
    return types.Content(role="user", parts=[types.Part(text=message)])


def check_message(message: types.Content | None) -> None:
    if message is None:
        return
    if not message.parts or not any(
        (p.text and p.text.strip()) or p.inline_data or p.file_data or p.function_response
        for p in message.parts
    ):
        raise ValueError("The message is empty: send some text.")


class AgentClient:
    """Starts invocation workflows and streams the events they record."""

    def __init__(
        self,
        temporal: Client,
        session_service: BaseSessionService,
        *,
        task_queue: str | None = None,
        give_up_after: float = 300.0,
        on_contact_lost: Callable[[str], None] | None = None,
    ) -> None:
        """give_up_after: seconds without contact with Temporal before a call (a
        start, an answer, a query, a stream) raises TemporalUnreachableError (the
        invocation itself goes on). Until then each call asks again with backoff.
        on_contact_lost: called with the workflow id once a call (not a stream:
        see `events`) has had no contact for ~10 s (default: a logged warning).
        task_queue: one queue for every app (as a worker started with --task-queue);
        by default each app's own (`workflows.names.app_task_queue`)."""
        self.temporal = temporal
        self.session_service = session_service
        self.task_queue = task_queue
        self.give_up_after = give_up_after
        self.on_contact_lost = on_contact_lost
        self._root_agents: dict[str, str] = {}
        """Root agent names the workers published, by app (a stale one costs the
        workflow a search-attribute update, nothing more)."""

    def queue_of(self, app_name: str) -> str:
        """The task queue of the app's invocations."""
        return self.task_queue or names.app_task_queue(app_name)

    async def start(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        new_message: str | types.Content | None,
        state_delta: dict[str, Any] | None = None,
        run_config: RunConfig | None = None,
        expected_agent: str | None = None,
        invocation_id: str | None = None,
        then_wait: InvocationInput | None = None,
    ) -> Invocation:
        """Start an invocation. If the session already runs one, the app's busy policy
        decides (README, *A message while the agent is busy*): SessionBusyError
        (`reject`), or the message runs after it (`queue`, `interrupt`; then
        `Invocation.submitted` says behind what, and `events` streams its own events).

        expected_agent: the agent the starter expects to run (a Runner knows its
        root agent). It is the `AdkAgent` search attribute from the start; the
        workflow corrects it if the session routes elsewhere. When not given, it
        is the root agent the app's workers published to the session store; with
        none published yet, the workflow sets it (one search-attribute update).

        invocation_id: with no message, run the agent again under that (ended)
        invocation, as google-adk 2.13's `run_async(invocation_id=...)` does.
        then_wait: the input of an invocation that gave way for this one: its open calls
        are awaited again once this one has run (InvocationInput.then_wait).
        """
        workflow_id = names.invocation_workflow_id(app_name, user_id, session_id)  # checks them
        content = as_content(new_message)
        check_message(content)
        if expected_agent is None:
            expected_agent = await self._root_agent(app_name)
        ref = SessionRef(app_name=app_name, user_id=user_id, session_id=session_id)
        # a run under an invocation that exists (an answer's, or one asked for by id)
        # goes on there: not a new message, so one waiting meanwhile waits again after
        older = invocation_id is not None or content is None
        # chosen here: a retried start recognises it. A message answering calls goes on
        # under their invocation's id, as google-adk 2.13 resolves it
        invocation_id = (
            invocation_id
            or await _waiting.invocation_of_calls(self.session_service, ref, content)
            or "e-" + platform_uuid.new_uuid()  # 2.13's new_invocation_context_id
        )
        text = "".join(p.text or "" for p in (content.parts or [])) if content else ""
        answers = bool(content and any(p.function_response for p in content.parts or []))
        request = InvocationInput(
            session=ref,
            invocation_id=invocation_id,
            new_message=content,
            state_delta=state_delta,
            run_config=run_config or RunConfig(),
            then_wait=then_wait,
        )

        async def attempt(retried: bool) -> tuple[WorkflowHandle[Any, InvocationResult], Any]:
            # a failed attempt may have started the workflow before its reply was
            # lost: then the session's workflow is this very invocation, not a busy
            # session (and starting again could run the message twice)
            if retried and (ours := await self._started(workflow_id, invocation_id)):
                return ours, None
            for tried in range(_START_TRIES):  # the running one may end meanwhile
                if tried:  # (it was finishing: give it a moment)
                    await asyncio.sleep(0.05 * tried)
                try:
                    return await start(), None
                except WorkflowAlreadyStartedError:
                    pass
                # an invocation that only waits for answers gives way (client/_waiting.py)
                if released := await give_way(self.temporal, workflow_id, ref):
                    if (answers or older) and released.invocation_id != invocation_id:
                        # an answer for an older invocation's call (or a run of one by
                        # its id): the one that gave way waits for its own calls again
                        # once this one has run
                        request.then_wait = released
                    continue
                # the session's invocation runs: its app's busy policy takes the message
                if submitted := await _busy.submit(self.temporal, workflow_id, request):
                    handle = self.temporal.get_workflow_handle(
                        workflow_id, run_id=submitted.run_id, result_type=InvocationResult
                    )
                    return handle, submitted
            raise SessionBusyError(session_id, workflow_id)

        async def start() -> WorkflowHandle[Any, InvocationResult]:
            return await starter.start_workflow(
                names.INVOCATION_WORKFLOW,
                request,
                id=workflow_id,
                task_queue=self.queue_of(app_name),
                result_type=InvocationResult,
                # a worker in this process (Runner, tests) takes the first task with
                # the start reply, one dispatch round trip fewer; else a normal start
                request_eager_start=True,
                static_summary=_summary(app_name, user_id, text),
                static_details=_details(ref, invocation_id, text),
                search_attributes=names.start_search_attributes(
                    app_name, user_id, session_id, expected_agent
                ),
            )

        starter = self._starter(state_delta)
        handle, submitted = await self._keep().call(workflow_id, attempt)
        return Invocation(
            invocation_id=invocation_id, session=ref, handle=handle, submitted=submitted
        )

    async def _started(
        self, workflow_id: str, invocation_id: str
    ) -> WorkflowHandle[Any, InvocationResult] | None:
        """The session's current workflow run if it is the invocation `invocation_id`
        (the client chose it, so no other start carries it); None otherwise."""
        handle = self.temporal.get_workflow_handle(workflow_id)
        try:
            async for first in handle.fetch_history_events(page_size=1):
                started = first.workflow_execution_started_event_attributes
                (sent,) = await self.temporal.data_converter.decode(
                    started.input.payloads, [InvocationInput]
                )
                if sent.invocation_id != invocation_id:
                    return None
                # this run's own id (a run continued from a queued message is not the first)
                run_id = started.original_execution_run_id or started.first_execution_run_id
                return self.temporal.get_workflow_handle(
                    workflow_id,
                    run_id=run_id or None,
                    first_execution_run_id=run_id or None,
                    result_type=InvocationResult,
                )
        except RPCError as error:
            if error.status != RPCStatusCode.NOT_FOUND:
                raise
        return None  # never started: start it

    def _starter(self, state_delta: dict[str, Any] | None) -> Client:
        """The client that starts: one that seals `temp:` values (client/_sealing.py)
        when the start carries some, so they enter history sealed."""
        if state_delta and any(key.startswith("temp:") for key in state_delta):
            self.temporal = sealing_client(self.temporal)
        return self.temporal

    def _keep(self) -> KeepTrying:
        return KeepTrying(self.give_up_after, self.on_contact_lost)

    async def keep_trying(self, what: str, call: Callable[[bool], Awaitable[T]]) -> T:
        """Another call to Temporal, made as this client makes its own: asked again
        through an outage (`call(retried)`), TemporalUnreachableError in the end."""
        return await self._keep().call(what, call)

    async def _root_agent(self, app_name: str) -> str | None:
        known = self._root_agents.get(app_name)
        if known is None:
            try:
                known = await self.session_service.get_app_root_agent(app_name=app_name)
            except Exception:  # best effort: the workflow sets the attribute then
                return None
            if known is not None:
                self._root_agents[app_name] = known
        return known

    async def events(
        self,
        invocation: Invocation,
        after_seq: int = 0,
        *,
        stop_when_waiting: bool = False,
        on_pending: Callable[[list[PendingRequest]], None] | None = None,
        on_contact_lost: Callable[[Invocation], None] | None = None,
    ) -> AsyncIterator[Event]:
        """The invocation's events as they are recorded; raises what the invocation raised.

        Every event recorded after `after_seq` (the session's sequence number of the
        last event the caller has; 0: all of them), in recorded order: a late or a
        second stream misses nothing. It never polls: it reads the store when the
        store notifies an append (PostgreSQL), or the invocation's workflow histories
        show an activity ended (client/_follow.py); an append in this process hands
        its event over (client/_stream.py).

        stop_when_waiting: end once the invocation waits for an answer (after
        yielding everything it recorded before it waits), as an ADK turn ends at a pause.
        on_pending: called with the requests it waits for whenever they are checked.
        on_contact_lost: called once when Temporal has not answered for ~10 s (the
        stream keeps trying; default: a logged warning); after `give_up_after`
        seconds it raises TemporalUnreachableError.
        """
        result = asyncio.ensure_future(self._result(invocation, on_contact_lost))
        wakes = Wakes()
        result.add_done_callback(lambda _: wakes.wake("end"))
        follower = HistoryFollower(self.temporal, wakes.wake)
        follower.follow(invocation.handle)
        watch_status = stop_when_waiting or on_pending is not None
        paused = False  # a recorded call waits for an answer: ask at each root task
        ref = invocation.session
        where = dict(app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id)
        try:
            async with contextlib.AsyncExitStack() as stack:
                recorded = stack.enter_context(self.session_service.watch(**where))
                # a store that tells of appends from anywhere (PostgreSQL): woken at commit
                listening = await stack.enter_async_context(
                    self.session_service.appends_elsewhere(**where, on_append=wakes.notified)
                )
                reads = Reads(invocation.invocation_id, recorded, listening, wakes)
                woken = {"first"}  # the first time: read the store
                while True:
                    done = result.done()
                    batch, read = reads.plan(woken, after_seq, done)
                    if read:
                        batch = await self._recorded(invocation, after_seq)
                    for seq, event in batch:
                        after_seq = seq
                        yield event
                    if done:
                        break
                    paused = paused or any(event.long_running_tool_ids for _, event in batch)
                    # the status query costs the server and the worker a task: ask when the
                    # root's history shows a change, and at each of its tasks while a
                    # recorded call waits (until the invocation waits for it)
                    if watch_status and ("status" in woken or (paused and "task" in woken)):
                        # awaited: what the invocation waits for now, with all it recorded
                        # before stored (a long-running call's request shows while its tool
                        # still runs, before its intermediate response is recorded)
                        known = await self._pending_of(invocation)
                        pending = [r for r in known if r.awaited]
                        # a request still open (another one's answer runs the agent): ask
                        # again at each root task, until the invocation waits again
                        paused = bool(known) and not pending
                        if pending and on_pending is not None:
                            on_pending(pending)
                        if pending and stop_when_waiting:
                            for _seq, event in await self._recorded(invocation, after_seq):
                                yield event
                            return
                    woken = await wakes.next(recorded)
            try:
                result.result()
            except WorkflowFailureError as error:
                raise invocation_error(error, invocation) from error
        finally:
            await follower.close()
            if not result.done():
                result.cancel()

    async def _result(
        self, invocation: Invocation, on_contact_lost: Callable[[Invocation], None] | None
    ) -> InvocationResult:
        """The invocation's result, waiting through outages of Temporal: asking
        again re-polls the history (the invocation goes on without us)."""
        told = (lambda: on_contact_lost(invocation)) if on_contact_lost is not None else None
        return await self._keep().call(
            invocation.workflow_id,
            lambda _: _busy.outcome(self.temporal, invocation.handle, invocation.invocation_id),
            on_lost=told,
        )

    async def _recorded(self, invocation: Invocation, after_seq: int) -> list[tuple[int, Event]]:
        ref = invocation.session
        return await self.session_service.list_events(
            app_name=ref.app_name,
            user_id=ref.user_id,
            session_id=ref.session_id,
            after_seq=after_seq,
            invocation_id=invocation.invocation_id,
        )

    async def _pending_of(self, invocation: Invocation) -> list[PendingRequest]:
        try:  # asked once: the stream's own result poll waits through outages
            status = await _answers.invocation_status(self.temporal, invocation.workflow_id)
        except RPCError:
            return []  # finished (or not started yet): nothing waits
        # (a queued message's own invocation has not started: what waits is another's)
        return status.pending if status.invocation_id == invocation.invocation_id else []

    # ── human in the loop ──────────────────────────────────────────────────

    async def status(self, workflow_id: str) -> InvocationStatus:
        """Invocation id, status and pending requests of a running invocation."""
        return await _answers.invocation_status(self.temporal, workflow_id, self._keep())

    async def list_pending(self, app_name: str | None = None) -> list[tuple[str, PendingRequest]]:
        """(workflow id, request) for everything waiting, across invocations (those
        whose app has no worker answering are left out: `pending_listing` names them)."""
        return (await self.pending_listing(app_name)).requests

    async def pending_listing(self, app_name: str | None = None) -> _answers.PendingListing:
        """What waits, across invocations: `.requests` as `list_pending` gives them, and
        `.unanswered`, the waiting invocations no worker answered for within
        `STATUS_QUERY_SECONDS` (10 s; is a worker of their app running?)."""
        return await _answers.list_pending(self.temporal, self._keep(), app_name=app_name)

    async def approve(self, workflow_id: str, request_id: str, payload: Any = None) -> str:
        return await self._answer(workflow_id, request_id, "approve", payload)

    async def reject(self, workflow_id: str, request_id: str) -> str:
        return await self._answer(workflow_id, request_id, "reject")

    async def respond(self, workflow_id: str, request_id: str, result: Any) -> str:
        return await self._answer(workflow_id, request_id, "respond", result)

    async def progress(self, workflow_id: str, request_id: str, result: Any) -> str:
        return await self._answer(workflow_id, request_id, "progress", result)

    async def _answer(
        self, workflow_id: str, request_id: str, kind: str, *args: Any, **kw: Any
    ) -> str:
        try:
            return await _answers.answer(
                self.temporal, self._keep(), workflow_id, request_id, kind, *args, **kw
            )
        except _answers.InvocationEndedError as ended:
            # its invocation ended with the call open (a new message came first): the
            # answer is ADK's FunctionResponse message, which starts the next invocation
            message = await _waiting.answer_message(
                self.session_service, ended.session, request_id, kind, *args
            )
            session = ended.session
            invocation = await self.start(
                app_name=session.app_name,
                user_id=session.user_id,
                session_id=session.session_id,
                new_message=message,
            )
            return (
                f"{kind} sent as a new message: invocation {invocation.invocation_id} goes on"
                f" (workflow {invocation.workflow_id})"
            )

    async def attach(self, *, app_name: str, user_id: str, session_id: str) -> Invocation:
        """The session's running invocation, to stream its events (see `events`)."""
        workflow_id = names.invocation_workflow_id(app_name, user_id, session_id)
        status = await self.status(workflow_id)
        ref = SessionRef(app_name=app_name, user_id=user_id, session_id=session_id)
        handle = self.temporal.get_workflow_handle(workflow_id, result_type=InvocationResult)
        return Invocation(invocation_id=status.invocation_id, session=ref, handle=handle)

    async def resume(
        self, *, app_name: str, user_id: str, session_id: str, message: types.Content
    ) -> Invocation:
        """ADK's resume style: a message carrying FunctionResponses answers pending calls."""
        invocation = await self.attach(app_name=app_name, user_id=user_id, session_id=session_id)
        workflow_id = invocation.workflow_id
        for part in message.parts or []:
            response = part.function_response
            if response is None or not response.id:
                raise ValueError("A resume message holds only FunctionResponses with ids.")
            if response.name == "adk_request_confirmation":
                data = response.response or {}
                kind = "approve" if data.get("confirmed") else "reject"
                await self._answer(
                    workflow_id,
                    response.id,
                    kind,
                    data.get("payload"),
                    session=invocation.session,
                    adk_message=True,
                    response=dict(data),
                )
            else:
                await self._answer(
                    workflow_id,
                    response.id,
                    "respond",
                    response.response,
                    session=invocation.session,
                )
        return invocation

    async def run(
        self,
        *,
        app_name: str,
        user_id: str,
        session_id: str,
        new_message: str | types.Content | None,
        state_delta: dict[str, Any] | None = None,
        run_config: RunConfig | None = None,
        expected_agent: str | None = None,
        invocation_id: str | None = None,
        then_wait: InvocationInput | None = None,
    ) -> AsyncIterator[Event]:
        """Start an invocation and yield the agents' events as they happen (ADK's run_async).

        Like an ADK turn, it ends when the invocation finishes or starts waiting
        for an answer (a confirmation or a long-running result); answer it, then
        `resume` (or send the FunctionResponse through the Runner).
        """
        after = 0
        content = as_content(new_message)
        if content is None or any(p.function_response for p in content.parts or []):
            # it may go on under an earlier invocation's id: only what happens from now
            ref = SessionRef(app_name=app_name, user_id=user_id, session_id=session_id)
            seen = await _waiting.session_events(self.session_service, ref)
            after = seen[-1][0] if seen else 0
        invocation = await self.start(
            app_name=app_name,
            user_id=user_id,
            session_id=session_id,
            new_message=new_message,
            state_delta=state_delta,
            run_config=run_config,
            expected_agent=expected_agent,
            invocation_id=invocation_id,
            then_wait=then_wait,
        )
        async for event in self.events(invocation, after_seq=after, stop_when_waiting=True):
            if event.author != "user":  # ADK yields what the agents did, not the message
                yield event


def _summary(app_name: str, user_id: str, text: str) -> str:
    message = text if len(text) <= 90 else text[:89] + "…"
    return f"{app_name} · {user_id}: “{message}”"[:200]


def _details(ref: SessionRef, invocation_id: str, text: str) -> str:
    return (
        f"**app** {ref.app_name} · **user** {ref.user_id} · **session** {ref.session_id}\n\n"
        f"**invocation** `{invocation_id}`\n\n**message**\n\n{text[:10000]}"
    )
