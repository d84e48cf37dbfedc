"""Answers as runs of their own, for the plugins (google-adk 2.13).

Runs on: workflow (Temporal sandbox). In google-adk 2.13 each answer to a pending
call (the user's FunctionResponse message) is a `run_async` of its own, so the
plugins' run hooks run for it: the run that left the call open ends with
after_run_callback; the answer's message goes through on_user_message_callback
(which may replace it; the replacement is recorded) and before_run_callback (which
may answer instead: then neither the approved tool nor the agent runs), and its run
ends with after_run_callback again. Here the waiting workflow runs those hooks as
activities at the same points (a mixin of AgentRuntime).
"""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.events.event import Event
    from adk.events.tool_confirmation import ToolConfirmation

    from . import names
    from ._base import RuntimeBase
    from ._humans import answer_event
    from ._options import BOOKKEEPING
    from ._patches import patched
    from .contracts import (
        AnswerHookInput,
        AnswerHookOutput,
        HumanAnswer,
        PendingRequest,
        unless_default,
    )

_HOOKS = ("after_run_callback", "on_user_message_callback", "before_run_callback")


class AnswerRuns(RuntimeBase):
    """The plugins' run hooks around each answer (a mixin of AgentRuntime)."""

    answer_runs: bool
    after_run_due: bool
    skip_run: bool

    def start_answer_runs(self) -> None:
        """Before the first wait for answers: whether each answer is a run of its own
        for the plugins (an app with run hooks; histories from before: no)."""
        if any(hook in self.context.run_hooks for hook in _HOOKS):
            self.answer_runs = patched(names.PATCH_RUN_HOOKS_PER_ANSWER)

    async def end_run(self, agent: str) -> None:
        """The run before a wait (or one that paused again) ends: after_run_callback."""
        if not self.answer_runs:
            return
        if self.after_run_due and "after_run_callback" in self.context.run_hooks:
            await self.flush()
            await self.plugin_hook("after_run_callback", agent)
        self.after_run_due = False

    async def answer_run(
        self, request: PendingRequest, answer: HumanAnswer, event: Event
    ) -> tuple[Event, ToolConfirmation | None, bool]:
        """An answer's run begins: on_user_message (its replacement is what is recorded,
        and answers), the answer recorded, before_run. Returns the recorded event, the
        confirmation to run the tool with, and whether a plugin answered instead."""
        hooks = self.context.run_hooks
        _, confirmation = answer_event(request, answer, self.invocation_id)
        if "on_user_message_callback" in hooks:
            out = await self._answer_hook(
                request, "on_user_message_callback", message=event.content
            )
            if out.message is not None:
                answer = _answer_in(request, out.message, answer)
                event, confirmation = answer_event(request, answer, self.invocation_id)
                event.content = out.message
        self._add_pending(event)
        self.after_run_due = True
        early = False
        if "before_run_callback" in hooks:
            await self.flush()  # its session holds the answer, as 2.13's does
            out = await self._answer_hook(request, "before_run_callback", event_id=event.id)
            early = out.early_exit
        self.skip_run = self.skip_run or early
        return event, None if early else confirmation, early

    async def _answer_hook(
        self, request: PendingRequest, hook: Any, **fields: Any
    ) -> AnswerHookOutput:
        return await workflow.execute_activity(
            names.ANSWER_HOOK,
            AnswerHookInput(
                session=self.session,
                invocation_id=self.invocation_id,
                agent_name=request.agent,
                hook=hook,
                temp_state=dict(self.temp_state),
                run_config=unless_default(self.context.run_config),
                **fields,
            ),
            result_type=AnswerHookOutput,
            summary=f"plugins: {hook} · answer for {request.tool}",
            **BOOKKEEPING,
        )


def _answer_in(request: PendingRequest, message: types.Content, sent: HumanAnswer) -> HumanAnswer:
    """The answer a replaced message carries for `request` (2.13 resumes with the
    message's FunctionResponses); the one sent if it carries none for it."""
    wanted = request.id if request.kind == "confirmation" else request.call_id
    for part in message.parts or []:
        response = part.function_response
        if response is None or response.id != wanted:
            continue
        data = dict(response.response or {})
        if request.kind == "confirmation":
            kind = "approve" if data.get("confirmed") else "reject"
            return sent.model_copy(
                update={"kind": kind, "payload": data.get("payload"), "response": data}
            )
        return sent.model_copy(update={"kind": "respond", "payload": data})
    return sent
