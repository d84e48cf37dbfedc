"""The invocation workflow: one ADK invocation, from the user's message to the last event.

Runs on: workflow (Temporal sandbox). The begin activity records the user
event and the agent spec; the entry agent runs inline (AgentRuntime), its
sub-agents and transfer targets in child workflows; everything the workflow
still holds is persisted before it returns. Ids and timestamps come from
workflow.uuid4()/workflow.now(), so replay is exact and writes idempotent.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from temporalio import workflow
from temporalio.exceptions import ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import MODEL_DEFAULTS
    from adk.events.event_actions import EventActions

    from . import _specs, names
    from ._busy import HeldMessages, completed, ended_by
    from ._graph import run_graph
    from ._humans import check_answer, check_fit, check_session
    from ._node_paths import NodePaths
    from ._options import BOOKKEEPING, FAIL_ON, activity_kwargs
    from ._patches import decide_at_start, patched
    from ._runtime import TEMP_PREFIX, AgentRuntime
    from ._ui import pending_markdown, short
    from .contracts import (
        AgentSpec,
        BeginInput,
        BeginOutput,
        CompactionInput,
        CompactionOutput,
        HumanAnswer,
        InvocationInput,
        InvocationResult,
        InvocationStatus,
        PendingRequest,
        RunContext,
        SessionRef,
        Submitted,
    )


_RELEASE_LIMIT = timedelta(seconds=60)
"""How long a release waits for a transfer's target to end its wait and the invocation
to end (its after_run hooks, its compaction): beyond it the message is told it is busy."""


@workflow.defn(name=names.INVOCATION_WORKFLOW, failure_exception_types=FAIL_ON)
class AdkInvocationWorkflow:
    """Runs one invocation: begin → the entry agent (and its sub-agents) → finish."""

    @workflow.init
    def __init__(self, input: InvocationInput) -> None:
        self._input = input
        self._runtime: AgentRuntime | None = None
        self._requests: dict[str, PendingRequest] = {}
        """Everything the tree waits for (own requests and children's), by request id."""
        self._done = False
        self._status = "running"
        self._held = HeldMessages(input)
        """Messages sent while this invocation runs (workflows/_busy.py)."""

    @workflow.run
    async def run(self, input: InvocationInput) -> InvocationResult:
        """The invocation; then, if messages arrived meanwhile (busy policy `queue` or
        `interrupt`), continue as new with the next one, however this one ended."""
        decide_at_start()
        try:
            result = await self._invoke(input)
        except GeneratorExit:
            raise
        except BaseException as error:
            # (cancelled by hand: no wait again; interrupted by a newer message: it does,
            # after that message, as it would after one queued)
            cancelled = isinstance(error, (asyncio.CancelledError, CancelledError))
            if not cancelled or self._held.interrupted_by is not None:
                self._wait_again(input)
            self._held.hand_over(ended_by(input.invocation_id, error, self._held.interrupted_by))
            raise
        self._wait_again(input)
        self._held.hand_over(completed(result))
        return result

    def _wait_again(self, input: InvocationInput) -> None:
        """InvocationInput.then_wait: the invocation this message made give way waits for
        its open calls again, as the next run (after any message queued meanwhile)."""
        if input.then_wait is not None:
            self._held.queue.append(
                input.then_wait.model_copy(
                    update={
                        "new_message": None,
                        "state_delta": None,
                        "rewait": True,
                        "queued": None,
                        "handed_over": None,
                        "then_wait": None,
                    }
                )
            )

    async def _invoke(self, input: InvocationInput) -> InvocationResult:
        runtime: AgentRuntime | None = None
        status = "failed"
        try:
            # begin inside the try: a failed begin (unknown app, ...) still ends `failed`.
            # A local activity: no server round trip; its result is recorded (a marker).
            begin = await workflow.execute_local_activity(
                names.BEGIN_INVOCATION,
                BeginInput(
                    # (the messages queued behind it are not the begin's business)
                    invocation=input.model_copy(update={"queued": None, "handed_over": None}),
                    user_event_id=str(workflow.uuid4()),
                    timestamp=workflow.now().timestamp(),
                ),
                result_type=BeginOutput,
                summary="begin: load session, record the user message, pick the agent",
                **BOOKKEEPING,
            )
            runtime = self._runtime = self._new_runtime(input, begin)
            runtime.may_defer = True
            self._held.policy = begin.busy_policy
            newer = self._held.newer()
            if newer is not None and begin.busy_policy == "interrupt":  # a newer one waits
                self._held.interrupted_by = newer
                await runtime.stop(self._held.interrupt_reason())
            runtime.temp_state.update(begin.invocation_state)
            runtime.event_count += int(begin.user_event_recorded)
            if begin.graph is not None:  # a google.adk.workflow Workflow root (a new shape)
                runtime.entry = begin.graph.name
                await run_graph(runtime, begin.graph, input.new_message)
            else:
                await self._run_agents(input, begin, runtime)
            if "after_run_callback" in begin.run_hooks and runtime.after_run_due:
                await runtime.flush()
                await runtime.plugin_hook("after_run_callback", runtime.entry)
            if begin.compaction:  # google-adk 2.13: after the run, before run_async ends
                await runtime.flush()
                await self._compact(input, begin.root, runtime)
            status = "completed"
        except (asyncio.CancelledError, CancelledError):
            status = "cancelled"
            if runtime is not None and runtime.stopping is not None:
                status = "interrupted"
                await runtime.settle()  # a stopped Parallel's other branches end first
            raise
        except GeneratorExit:  # evicted from the worker's cache: nothing to finish here
            status = "evicted"
            raise
        except Exception as error:
            if runtime is not None and "on_run_error_callback" in runtime.context.run_hooks:
                await runtime.flush()
                await runtime.plugin_hook("on_run_error_callback", runtime.entry, error=error)
            raise
        finally:
            if status != "evicted":
                self._done = True
                await self._finish(runtime, status)
                await workflow.wait_condition(workflow.all_handlers_finished)
        assert runtime is not None
        return InvocationResult(
            invocation_id=input.invocation_id,
            final_text=runtime.final_text,
            last_author=runtime.last_author,
            event_count=runtime.event_count,
        )

    async def _run_agents(
        self, input: InvocationInput, begin: BeginOutput, runtime: AgentRuntime
    ) -> None:
        agent = begin.root.find(begin.agent_to_run) or begin.root
        runtime.entry = agent.name
        runtime.paths = NodePaths.for_root(begin.root)
        runtime.node_path = runtime.paths.start_first(agent) if runtime.paths else ""
        if workflow.info().typed_search_attributes.get(names.SA_AGENT) != agent.name:
            workflow.upsert_search_attributes([names.SA_AGENT.value_set(agent.name)])
        if not begin.early_exit:  # (a plugin's before_run answered instead)
            if input.rewait:  # no run: its open calls are awaited again
                await runtime.take_over(begin.reopened, begin.responded, tell_root=False)
                runtime.after_run_due = False  # (nothing ran: no after_run for this run)
            else:
                ran = await runtime.run_confirmed(begin.confirmed) if begin.confirmed else []
                await _go_on(runtime, agent, begin.branch, ran)
            await self._run_after_answers(runtime)

    async def _compact(
        self, input: InvocationInput, root: AgentSpec, runtime: AgentRuntime
    ) -> None:
        """The app's post-invocation compaction: the summarizer's model call is this
        activity's, with the root agent's model activity options (the default summarizer
        uses its model); the event, if any, only in the store."""
        compacted = await workflow.execute_activity(
            names.COMPACT_EVENTS,
            CompactionInput(
                session=input.session,
                invocation_id=input.invocation_id,
                event_id=str(workflow.uuid4()),
            ),
            result_type=CompactionOutput,
            summary="compaction: summarize earlier invocations, if due",
            **activity_kwargs(root.model_activity_options, MODEL_DEFAULTS),
        )
        if compacted.recorded:  # the live details tell it (the event is not yielded)
            runtime.transcript.lines.append("_earlier events compacted into a summary_")
            runtime.show()

    def _new_runtime(self, input: InvocationInput, begin: BeginOutput) -> AgentRuntime:
        text = _text(input.new_message) if input.new_message else ""
        root = begin.root
        context = RunContext(
            session=input.session,
            invocation_id=input.invocation_id,
            run_config=input.run_config,
            root=root,
            # the children's inputs name the tree by digest (workflows/_specs.py)
            root_digest=_specs.remember(root.model_dump_json()),
            root_workflow_id=workflow.info().workflow_id,
            run_hooks=begin.run_hooks,
            inline_workflow_agents=begin.inline_workflow_agents,
            resumable=begin.resumable,
        )
        temp = {k: v for k, v in (input.state_delta or {}).items() if k.startswith(TEMP_PREFIX)}
        # its result is not reported: the state it wrote stays out of it
        runtime = AgentRuntime(context, temp_state=temp, hub=self, reports_state=False)
        runtime.details = self._pending_details
        if text:
            runtime.transcript.lines.append(f"**user**: {short(text, 300)}")
        return runtime

    async def _run_after_answers(self, runtime: AgentRuntime) -> None:
        """What the runs left open, answered: the calling agent runs again (google-adk
        2.13's run_async with the user's FunctionResponse), until nothing is open."""
        if runtime.deferred:
            runtime.start_answer_runs()
        while runtime.deferred:
            if self._held.queue:  # a message queued while it ran goes next, as a new one would
                runtime.released = True
            answered = await runtime.await_deferred()
            if answered is None:  # released: a new message for the session starts next
                return
            if runtime.skip_run:  # a plugin's before_run answered the answer's run
                runtime.skip_run = False
                continue
            if runtime.resume_points:  # a resumable app: resumed where the pause was
                entry = runtime.context.tree.find(runtime.entry) or runtime.context.tree
                answered = (entry, None, [])
            await _go_on(runtime, *answered)

    async def _finish(self, runtime: AgentRuntime | None, status: str) -> None:
        if runtime is not None:
            runtime.status = status
            await runtime.flush()
            runtime.show()
        self._set_status(status)

    # ── what the tree waits for (RequestHub) ────────────────────────────────

    async def add(self, requests: list[PendingRequest]) -> None:
        for request in requests:
            known = self._requests.setdefault(request.id, request)
            # its owner's latest report: awaited once it waits for it, not while it runs
            # again after another request's answer (DeferredWaits.await_deferred)
            known.awaited = request.awaited
            # a run that ran the child now waits for it (AgentRunResult.deferred)
            known.owner_workflow_id = request.owner_workflow_id
        self._sync_waiting()
        await self._release_for_held()

    async def _release_for_held(self) -> None:
        """A message held (busy policy queue or interrupt) while a transfer's target now
        waits for answers: the target's wait ends, as the root's own does
        (`_run_after_answers`), so the invocation ends and the message runs next."""
        runtime = self._runtime
        if runtime is None or runtime.released or self._done or self._held.newer() is None:
            return
        owners = sorted({r.owner_workflow_id for r in self._waits_in_children()})
        if not owners or not patched(names.PATCH_HELD_RELEASES_TARGETS):
            return
        runtime.released = True
        for owner in owners:
            try:
                await workflow.get_external_workflow_handle(owner).signal(names.SIGNAL_RELEASE)
            except Exception:  # noqa: BLE001 - it ended meanwhile: nothing to end
                pass

    async def resolve(self, requests: list[PendingRequest]) -> None:
        for request in requests:
            if known := self._requests.get(request.id):
                known.answered = True
        self._sync_waiting()

    def _not_awaited_while_it_runs(self, answered: PendingRequest) -> None:
        """The answer makes the agent run again: the other requests it waits for are not
        waited for meanwhile (a stream of the run goes on until it waits again)."""
        runtime = self._runtime
        if runtime is None:
            return
        if answered.owner_workflow_id != workflow.info().workflow_id:
            self._child_runs_again(answered)
            return
        if runtime.status != "waiting":
            return
        # (a resumable app's run that pauses again on another says so: _report_awaited)
        for request in runtime.deferred:
            if request.id != answered.id and (known := self._requests.get(request.id)):
                known.awaited = False

    def _child_runs_again(self, answered: PendingRequest) -> None:
        """... and so does a child run's answer (a transfer's target that waits): its
        other requests, until it reports them awaited again (a resumable app's run that
        stays paused on one) or waits again after its run."""
        if not patched(names.PATCH_CHILD_RUNS_AGAIN):
            return
        for request in self._pending():
            if (
                request.id != answered.id
                and request.owner_workflow_id == answered.owner_workflow_id
            ):
                request.awaited = False

    def _pending(self) -> list[PendingRequest]:
        return [r for r in self._requests.values() if not r.answered]

    def _waits_in_children(self) -> list[PendingRequest]:
        """The requests a child run waits for after its run (a transfer's target), when
        nothing else is open: the invocation then waits as a whole."""
        pending = self._pending()
        ours = workflow.info().workflow_id
        if not pending or any(not r.awaited or r.owner_workflow_id == ours for r in pending):
            return []
        return pending

    def _sync_waiting(self) -> None:
        if not self._done:
            self._set_status("waiting" if self._pending() else "running")
        if self._runtime is not None:
            self._runtime.show()

    def _set_status(self, status: str) -> None:
        """The status query tells every status; the AdkStatus search attribute only
        `waiting` (unset otherwise: ExecutionStatus tells running, completed, failed),
        so an invocation that never waits costs no search-attribute update."""
        if status == self._status:
            return
        if status == "waiting":
            workflow.upsert_search_attributes([names.SA_STATUS.value_set("waiting")])
        elif self._status == "waiting":
            workflow.upsert_search_attributes([names.SA_STATUS.value_unset()])
        self._status = status

    def _pending_details(self) -> str:
        return pending_markdown(self._pending(), workflow.info().workflow_id)

    def _find(self, request_id: str) -> PendingRequest | None:
        """By request id, or (for a confirmation) by the original call's id."""
        if request_id in self._requests:
            return self._requests[request_id]
        by_call = [
            r
            for r in self._requests.values()
            if r.kind == "confirmation" and r.call_id == request_id
        ]
        # an open request first; else the answered one (so the error says "already answered")
        return next((r for r in by_call if not r.answered), by_call[-1] if by_call else None)

    def _check(self, answer: HumanAnswer, *, strict: bool = True, updating: bool = True) -> None:
        """strict: the checks added with answers naming their session (a signal
        handled before them replays without). updating: an update's validator, which
        also refuses an answer while the invocation ends after a release (nothing
        would read it); the signal keeps its checks as they were (its handling
        replays)."""
        if strict:  # first: a stranger learns nothing about this invocation
            check_session(answer, self._input.session)
        if self._done:
            raise ValueError(
                f"Invocation {self._input.invocation_id} has finished; nothing is waiting."
            )
        if updating and self._runtime is not None and self._runtime.released:
            raise ValueError(
                f"Invocation {self._input.invocation_id} is ending (a new message came"
                " first); answer again once it has ended."
            )
        request = self._find(answer.id)
        check_answer(request, answer, [r.id for r in self._pending()])
        if strict and request is not None:
            check_fit(request, answer)
        if request and request.deadline and workflow.now().timestamp() >= request.deadline:
            raise ValueError(f"The deadline for {request.tool} ({request.id}) has passed.")

    async def _accept(self, answer: HumanAnswer) -> str:
        request = self._find(answer.id)
        assert request is not None and self._runtime is not None
        answer = answer.model_copy(update={"id": request.id})
        if answer.kind != "progress":
            request.answered = True
            self._not_awaited_while_it_runs(request)
            self._sync_waiting()
        tried = request.owner_workflow_id
        try:
            await self._deliver(tried, answer)
        except Exception as error:  # the child ended meanwhile: refuse, don't fail
            # ... unless it handed the request up (AgentRunResult.deferred) meanwhile
            if not await self._deliver_to_new_owner(request, tried, answer):
                request.answered = False
                self._sync_waiting()
                raise ApplicationError(
                    f"The agent run waiting for {request.id} is gone: {error}",
                    type="AnswerNotDelivered",
                ) from error
        return f"{answer.kind} recorded for {request.tool} ({request.id})"

    async def _deliver_to_new_owner(
        self, request: PendingRequest, tried: str, answer: HumanAnswer
    ) -> bool:
        if request.owner_workflow_id == tried:
            return False
        if not patched(names.PATCH_HANDED_UP_ANSWERS):
            return False
        try:
            await self._deliver(request.owner_workflow_id, answer)
        except Exception:  # gone too
            return False
        return True

    async def _deliver(self, owner: str, answer: HumanAnswer) -> None:
        assert self._runtime is not None
        if owner == workflow.info().workflow_id:
            self._runtime.deliver(answer)
        else:
            child = workflow.get_external_workflow_handle(owner)
            await child.signal(names.SIGNAL_DELIVER, answer)

    # ── answers: updates (validated before anything is written), a signal, a query ──

    @workflow.update(name=names.UPDATE_APPROVE)
    async def approve(self, answer: HumanAnswer) -> str:
        """Approve a tool call waiting for confirmation (optional payload)."""
        return await self._accept(_as(answer, "approve"))

    @approve.validator
    def _validate_approve(self, answer: HumanAnswer) -> None:
        self._check(_as(answer, "approve"))

    @workflow.update(name=names.UPDATE_REJECT)
    async def reject(self, answer: HumanAnswer) -> str:
        """Reject a tool call waiting for confirmation."""
        return await self._accept(_as(answer, "reject"))

    @reject.validator
    def _validate_reject(self, answer: HumanAnswer) -> None:
        self._check(_as(answer, "reject"))

    @workflow.update(name=names.UPDATE_RESPOND)
    async def respond(self, answer: HumanAnswer) -> str:
        """Give a long-running call its final result."""
        return await self._accept(_as(answer, "respond"))

    @respond.validator
    def _validate_respond(self, answer: HumanAnswer) -> None:
        self._check(_as(answer, "respond"))

    @workflow.update(name=names.UPDATE_PROGRESS)
    async def progress(self, answer: HumanAnswer) -> str:
        """Record an intermediate result of a long-running call (it stays pending)."""
        return await self._accept(_as(answer, "progress"))

    @progress.validator
    def _validate_progress(self, answer: HumanAnswer) -> None:
        self._check(_as(answer, "progress"))

    @workflow.update(name=names.UPDATE_RELEASE)
    async def release(self, session: SessionRef) -> str:
        """End the wait (a new message for the session starts the next invocation); the
        requests stay unanswered, as 2.13 leaves a call its user did not answer."""
        assert self._runtime is not None
        if self._runtime.deferred:
            self._runtime.released = True
            await workflow.wait_condition(lambda: self._done)
        else:  # a transfer's target waits in its own workflow: it ends its wait
            owners = sorted({r.owner_workflow_id for r in self._waits_in_children()})
            told = 0
            for owner in owners:
                try:
                    handle = workflow.get_external_workflow_handle(owner)
                    await handle.signal(names.SIGNAL_RELEASE)
                    told += 1
                except Exception:  # noqa: BLE001 - it ended meanwhile: nothing to end
                    pass
            if not told:
                raise ApplicationError("The waiting run ended meanwhile; nothing to release.")
            self._runtime.released = True
            try:  # a run that cannot end its wait (from before this release existed)
                await workflow.wait_condition(lambda: self._done, timeout=_RELEASE_LIMIT)
            except TimeoutError:
                raise ApplicationError(
                    f"Invocation {self._input.invocation_id} did not end its wait."
                ) from None
        return f"Invocation {self._input.invocation_id} ended; its requests stay unanswered."

    @release.validator
    def _validate_release(self, session: SessionRef) -> None:
        if session != self._input.session:
            raise ValueError("This invocation does not work on that session.")
        runtime = self._runtime
        waits = runtime is not None and bool(runtime.deferred) and runtime.status == "waiting"
        waits = waits or bool(self._waits_in_children())
        if self._done or not waits:
            raise ValueError(
                f"Invocation {self._input.invocation_id} is running, not waiting for answers."
            )

    @workflow.signal(name=names.SIGNAL_ANSWER)
    async def answer(self, answer: HumanAnswer) -> None:
        """For callers that cannot wait (webhooks): same checks; a bad answer is ignored."""
        try:
            self._check(answer, strict=patched(names.PATCH_ANSWER_CHECKS), updating=False)
            await self._accept(answer)
        except (ValueError, ApplicationError) as error:  # a signal can't fail the invocation
            workflow.logger.warning("ignored answer %s: %s", answer.id, error)

    @workflow.signal(name=names.SIGNAL_REGISTER)
    async def register(self, requests: list[PendingRequest]) -> None:
        """A child agent run reports what it waits for (or that it stopped waiting)."""
        ours = f"{workflow.info().workflow_id}/{self._input.invocation_id}/"
        requests = [r for r in requests if r.owner_workflow_id.startswith(ours)]
        opened = [r for r in requests if not r.answered]
        await self.add(opened)
        await self.resolve([r for r in requests if r.answered])

    # ── a message while this invocation runs (workflows/_busy.py) ───────────

    @workflow.update(name=names.UPDATE_SUBMIT)
    async def submit(self, message: InvocationInput) -> Submitted:
        """A new message for this session: queued, or interrupting, by the app's policy."""
        answer, interrupt = await self._held.submit(message, self._busy_status, lambda: self._done)
        if interrupt and self._runtime is not None:
            await self._runtime.stop(self._held.interrupt_reason())
        await self._release_for_held()
        return answer

    @submit.validator
    def _validate_submit(self, message: InvocationInput) -> None:
        self._held.check(message, self._busy_status(), self._done)

    def _busy_status(self) -> str:
        """The status the busy policy sees: `waiting` only while the invocation waits
        for a request (one that is listed while its agent runs again, or while its
        long-running tool runs, does not make it wait: the message meets the policy)."""
        if self._status == "waiting" and not any(r.awaited for r in self._pending()):
            return "running"
        return self._status

    @workflow.query(
        name=names.QUERY_STATUS, description="Invocation id, status and pending requests"
    )
    def status(self) -> InvocationStatus:
        return InvocationStatus(
            invocation_id=self._input.invocation_id, status=self._status, pending=self._pending()
        )


async def _go_on(
    runtime: AgentRuntime, agent: AgentSpec, branch: str | None, actions: list[EventActions]
) -> None:
    """`agent` runs on `branch` (after the tools an answer ran), or the target an
    approved tool transferred to."""
    transfer = runtime.approved_transfer(agent, branch, actions)
    if transfer:
        outcome = runtime.result(transfer_to=transfer)
        await runtime.follow_transfers(agent, outcome, branch, runtime.records_errors)
    else:
        await runtime.run_with_transfers(agent, branch=branch)


def _as(answer: HumanAnswer, kind: str) -> HumanAnswer:
    return answer.model_copy(update={"kind": kind})


def _text(content: types.Content) -> str:
    return "".join(p.text or "" for p in content.parts or [])
