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

    from adk.events.event_actions import EventActions

    from ._base import RuntimeBase
    from ._humans import (
        answer_event,
        tool_response_event,
    )
    from .contracts import (
        AgentSpec,
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


def _result(answer: HumanAnswer) -> dict[str, Any]:
    return answer.payload if isinstance(answer.payload, dict) else {"result": answer.payload}
