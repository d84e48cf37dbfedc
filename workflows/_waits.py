"""Durable waits for answers: confirmations and long-running results.

Runs on: workflow (Temporal sandbox). `workflow.wait_condition` holds no worker
slot; answers are delivered by the root's validated updates (or forwarded to a child).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.events.event import Event
    from adk.events.event_actions import EventActions

    from . import names
    from ._base import RuntimeBase
    from ._humans import (
        answer_event,
        tool_response_event,
    )
    from ._node_paths import NodePaths
    from ._patches import patched
    from .contracts import (
        AgentRunResult,
        AgentSpec,
        ConfirmedCall,
        HumanAnswer,
        PendingRequest,
    )


class HumanWaits(RuntimeBase):
    """Waiting for answers (a mixin of AgentRuntime)."""

    # ── waiting for humans ──────────────────────────────────────────────────

    def deliver(self, answer: HumanAnswer) -> None:
        """An answer the root validated (called from a handler: no awaits)."""
        if answer.kind == "progress":
            self.progress.setdefault(answer.id, []).append(answer)
        else:
            self.answers[answer.id] = answer

    async def _await_requests(
        self, agent: AgentSpec, branch: str | None, requests: list[PendingRequest]
    ) -> list[EventActions]:
        """Wait (durably, holding no worker) until every request is answered or expires.

        Returns the actions of the tools that ran once approved."""
        await self.flush()  # the client sees the request before anyone can answer it
        for request in requests:  # and a stream stops at the wait only once all is stored
            request.awaited = True
        if self.hub is not None:  # (long-running ones were registered before their tools ran)
            await self.hub.add(requests)
        self.status = "waiting"
        self.show()
        ran = await asyncio.gather(*(self._await_one(agent, branch, r) for r in requests))
        self.status = "running"
        self.show()
        return [actions for actions in ran if actions is not None]

    async def _await_one(
        self, agent: AgentSpec, branch: str | None, request: PendingRequest
    ) -> EventActions | None:
        while True:
            timeout = None
            if request.deadline is not None:
                left = request.deadline - workflow.now().timestamp()
                timeout = timedelta(seconds=max(left, 0.001))
            try:
                await workflow.wait_condition(
                    lambda: request.id in self.answers or bool(self.progress.get(request.id)),
                    timeout=timeout,
                )
            except TimeoutError:
                if request.id not in self.answers:  # an answer in the same activation wins
                    await self._expire(request)
                    return None
            for update in self.progress.pop(request.id, []):
                self._add_pending(tool_response_event(request, _result(update), self.invocation_id))
                await self.flush()
            if request.id in self.answers:
                break
        return await self._answered(agent, branch, request, self.answers[request.id])

    async def _answered(
        self,
        agent: AgentSpec,
        branch: str | None,
        request: PendingRequest,
        answer: HumanAnswer,
    ) -> EventActions | None:
        request.answered = True
        if self.hub is not None:
            await self.hub.resolve([request])
        event, confirmation = answer_event(request, answer, self.invocation_id)
        if self.answer_runs:  # a run of its own for the plugins (workflows/_answer_runs.py)
            event, confirmation, _ = await self.answer_run(request, answer, event)
        else:
            self._add_pending(event)
        actions = None
        if confirmation is not None:  # the approved (or rejected) tool runs now, once
            call = types.FunctionCall(id=request.call_id, name=request.tool, args=request.args)
            output = await self._run_tool_activity(agent, branch, call, None, confirmation)
            self.apply_temp(output.actions.state_delta)
            self._add_pending(
                tool_response_event(
                    request, output.response or {}, self.invocation_id, output.actions
                )
            )
            actions = output.actions
        await self.flush()
        return actions

    async def _expire(self, request: PendingRequest) -> None:
        request.answered = True
        if self.hub is not None:
            await self.hub.resolve([request])
        waited = timedelta(seconds=round((request.deadline or 0) - request.since))
        self._add_pending(
            tool_response_event(
                request,
                {
                    "error": f"No result for {request.tool}() (call {request.call_id}) within {waited}."
                },
                self.invocation_id,
            )
        )
        await self.flush()


class DeferredWaits(HumanWaits):
    """google-adk 2.13's pauses (a mixin of AgentRuntime, used when it `defers()`).

    A pending call does not hold the ReAct loop: its run ends as 2.13's does (the model
    answers a long-running call's intermediate result; a confirmation's pending response
    ends the turn; a resumable app pauses at the call). What is still open then is
    awaited here, durably: each answer is recorded as 2.13 records the user's
    FunctionResponse message (an approved tool runs, once), and the agent that made the
    call runs again, as 2.13's next run_async with that message does, under the same
    invocation id. A resumable app goes on only once every request it paused on is
    answered (2.13 pauses again while one is open), and a pause inside a workflow
    agent's step resumes the workflow agents where they paused (`resume_points`)."""

    after_run_due: bool  # restated for mypy (see _orchestration)
    custom_metadata: dict[str, Any] | None
    node_path: str
    paths: NodePaths | None
    answers_at_top: bool
    """A transfer's target under an LlmAgent root that waits for answers (`_run_alone`)."""
    alone: bool
    """Its answers run their agent alone (PATCH_ANSWERS_RUN_ALONE, once asked)."""

    def defer(self, requests: list[PendingRequest], response: Event | None) -> None:
        """What a step left open (`response`: its function responses, if any)."""
        self.opened += len(requests)
        self.deferred.extend(r for r in requests if r not in self.deferred)
        if response is not None:
            self.responded.update(r.id or "" for r in response.get_function_responses())

    async def await_deferred(self) -> tuple[AgentSpec, str | None, list[EventActions]] | None:
        """Wait for answers to what the runs left open; the agent to run next (the one
        that made the first answered call), its branch, and the actions of the tools
        that ran once approved. None when the invocation was released (a new message for
        the session) before an answer came."""
        requests = list(self.deferred)
        await self.end_run(requests[0].agent)  # (the plugins' after_run, when answers are runs)
        await self.flush()  # the client sees everything before anyone can answer
        for request in requests:
            request.awaited = True
        if self.hub is not None:
            await self.hub.add(requests)
        self.status = "waiting"
        self.show()
        handled: list[PendingRequest] = []
        actions: list[EventActions] = []
        while self.deferred:
            if not await self._until_something_arrives():
                return None
            before = len(handled)
            # 2.13: an answer message is a run_async of its own, whose context's custom
            # metadata starts again from the RunConfig's
            self.custom_metadata = None
            for request in list(self.deferred):
                ready = request.id in self.answers or _past(request.deadline)
                if self.progress.get(request.id) or ready:
                    agent = self.context.tree.find(request.agent) or self.context.tree
                    if ready:
                        self._run_alone(agent)
                    done = await self._await_one(agent, request.branch, request) if ready else None
                    if ready:
                        self.deferred.remove(request)
                        handled.append(request)
                    if done is not None:
                        actions.append(done)
                    elif not ready:  # (progress only: recorded, still open)
                        await self._record_progress(request)
            # 2.13: each answer message is a run of its own; a resumable app's run pauses
            # again (no model call) while a call it paused on has no response at all
            if handled and not (self.context.resumable and any(map(self._holds, self.deferred))):
                await self._report_awaited(self.deferred, False)  # the agent runs meanwhile
                break
            if len(handled) > before:  # paused again: (the root lists a child's as running)
                await self._ended_on_pause(handled[before:])
                await self._report_awaited(self.deferred, True)
            if self.after_run_due:  # an answer's run that paused again ends
                await self.end_run(requests[0].agent)
        self.status = "running"
        self.show()
        self.after_run_due = True  # (the run that follows ends with the plugins' after_run)
        first = handled[0]
        return self.context.tree.find(first.agent) or self.context.tree, first.branch, actions

    def _run_alone(self, agent: AgentSpec) -> None:
        """google-adk 2.13 under an LlmAgent root: an answer is a run_async whose agent
        is the one that made the call (its _find_agent_to_run), run alone as the turn's
        node: at the top (its ancestors' paths at run 1, then its own), not inside the
        workflow agents around it, which are not resumed, even in a resumable app (they
        keep their agent state; the invocation ends with the agent). Here: a transfer's
        target that waits for answers (`answers_at_top`); the root's agent already runs
        at the top. Its answers' runs start a turn there (node paths, transfers followed
        here) and drop the resume points."""
        if not self.answers_at_top:
            return
        paths = NodePaths(self.context.tree)
        path = paths.start_first(agent)
        if not self.alone:
            if path == self.node_path and not self.resume_points:
                return  # (as before: the target itself, on its own path)
            self.alone = patched(names.PATCH_ANSWERS_RUN_ALONE)
            if not self.alone:
                return
        self.paths, self.node_path = paths, path
        self.resume_points.clear()

    async def _report_awaited(self, requests: list[PendingRequest], awaited: bool) -> None:
        """Whether this run waits for `requests` now, for the root's listing (a stream
        stops at an awaited request; a new message releases only a run that waits)."""
        if not requests or self.hub is None:
            return
        if workflow.info().parent is not None:  # (the root's own: nothing to send)
            if not patched(names.PATCH_CHILD_RUNS_AGAIN):
                return
        for request in requests:
            request.awaited = awaited
        await self.hub.add(list(requests))

    async def adopt(self, outcome: AgentRunResult) -> None:
        """What a child's run left open (AgentRunResult.deferred) is this run's to wait
        for now, with the answers that reached the child first."""
        if outcome.deferred:
            await self.take_over(
                outcome.deferred,
                outcome.responded,
                resume=outcome.resume,
                answers=outcome.answers,
            )

    async def take_over(
        self,
        requests: list[PendingRequest],
        responded: list[str],
        *,
        resume: dict[str, dict[str, Any]] | None = None,
        answers: list[HumanAnswer] | None = None,
        tell_root: bool = True,
    ) -> None:
        """Requests another run left open (a child's, or those of an invocation that gave
        way: BeginOutput.reopened) become this run's: it owns them, so answers come here
        (the root is told, unless it never listed them: `tell_root`)."""
        owner = workflow.info().workflow_id
        taken = [r.model_copy(update={"owner_workflow_id": owner}) for r in requests]
        self.defer(taken, None)
        self.responded.update(responded)
        self.resume_points.update(resume or {})
        for answer in answers or []:
            self.deliver(answer)
        if tell_root and self.hub is not None:
            await self.hub.add(taken)

    async def _ended_on_pause(self, answered: list[PendingRequest]) -> None:
        """google-adk 2.13: an answer's run that stops with no model call (another call
        it paused on is open) ends its agent when its last two events do not pause it:
        a confirmation's answer and the approved tool's response do (a long-running
        result alone follows the call that paused). Its end-of-agent marker, at the top
        (under a workflow agent 2.13 goes on past the step: not followed)."""
        if not self.context.resumable:
            return
        agents = {
            r.agent: r.branch
            for r in answered
            if r.kind == "confirmation" and self._at_the_top(r.agent)
        }
        if not agents or not patched(names.PATCH_END_ON_PAUSE_AGAIN):
            return
        for name, branch in agents.items():
            end = EventActions(end_of_agent=True)
            self._add_pending(self.new_event(name, branch, actions=end))
        await self.flush()  # (before the run says it waits: the turn's stream ends there)

    def _at_the_top(self, name: str) -> bool:
        """No workflow agent above `name` (its ancestors are all LlmAgents), or the
        answers run their agent alone, at the top (`_run_alone`)."""
        if self.alone:
            return True
        tree = self.context.tree
        parent = tree.parent_of(name)
        while parent is not None:
            if parent.kind != "llm":
                return False
            parent = tree.parent_of(parent.name)
        return True

    def approved_transfer(
        self, agent: AgentSpec, branch: str | None, actions: list[EventActions]
    ) -> str | None:
        """The transfer an approved tool asked for, as the answer's run follows it
        (google-adk 2.13): at the top; not under a workflow agent (its agent runs again,
        the transfer dropped). A resumable app ends the agent first (its end-of-agent
        marker before the target's run, as after a model's transfer at the top)."""
        transfer = next((a.transfer_to_agent for a in actions if a.transfer_to_agent), None)
        if not transfer or not patched(names.PATCH_APPROVED_TRANSFERS):
            return transfer
        if not self._at_the_top(agent.name):
            return None
        if self.context.resumable:
            end = EventActions(end_of_agent=True)
            self._add_pending(self.new_event(agent.name, branch, actions=end))
        return transfer

    async def run_confirmed(self, confirmed: list[ConfirmedCall]) -> list[EventActions]:
        """The tools a new message's confirmations answer (their invocation had ended):
        each runs once, its response recorded after the message (2.13)."""
        ran = []
        for item in confirmed:
            request = item.request
            agent = self.context.tree.find(request.agent) or self.context.tree
            call = types.FunctionCall(id=request.call_id, name=request.tool, args=request.args)
            output = await self._run_tool_activity(
                agent, request.branch, call, None, item.confirmation
            )
            self.apply_temp(output.actions.state_delta)
            self._add_pending(
                tool_response_event(
                    request, output.response or {}, self.invocation_id, output.actions
                )
            )
            ran.append(output.actions)
        await self.flush()
        return ran

    def _holds(self, request: PendingRequest) -> bool:
        """A resumable app stays paused on it: a confirmation, or a long-running call
        that has no response yet (an intermediate one counts: 2.13's rule)."""
        return request.kind == "confirmation" or request.call_id not in self.responded

    async def _until_something_arrives(self) -> bool:
        """Until an answer, a progress report or a deadline (True), or a release (False)."""
        deadlines = [r.deadline for r in self.deferred if r.deadline is not None]
        timeout = None
        if deadlines:
            timeout = timedelta(seconds=max(min(deadlines) - workflow.now().timestamp(), 0.001))

        def arrived() -> bool:
            return self.released or any(
                r.id in self.answers or self.progress.get(r.id) for r in self.deferred
            )

        try:
            await workflow.wait_condition(arrived, timeout=timeout)
        except TimeoutError:
            pass
        return not self.released or any(r.id in self.answers for r in self.deferred)

    async def _record_progress(self, request: PendingRequest) -> None:
        for update in self.progress.pop(request.id, []):
            self._add_pending(tool_response_event(request, _result(update), self.invocation_id))
            self.responded.add(request.call_id)
        await self.flush()


def _past(deadline: float | None) -> bool:
    return deadline is not None and workflow.now().timestamp() >= deadline


def _result(answer: HumanAnswer) -> dict[str, Any]:
    return answer.payload if isinstance(answer.payload, dict) else {"result": answer.payload}
