"""What the parts of AgentRuntime share: its state and the methods they call on each other.

Runs on: workflow (Temporal sandbox). A Protocol the mixins (_orchestration,
_react, _waits) subclass, so each module type-checks on its own.
"""

from __future__ import annotations

from typing import Any, Protocol

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.events.event import Event
    from adk.events.event_actions import EventActions

    from ._humans import RequestHub
    from ._ui import Transcript
    from .contracts import (
        AgentRunResult,
        AgentSpec,
        AgentToolCall,
        CallPlan,
        HumanAnswer,
        PendingRequest,
        RunContext,
        SessionRef,
        StepRef,
        ToolCallOutput,
    )
    from .errors import RaisedError


class RuntimeBase(Protocol):
    context: RunContext
    session: SessionRef
    invocation_id: str
    temp_state: dict[str, Any]
    custom_metadata: dict[str, Any] | None
    llm_calls: int
    pending: list[Event]
    state_delta: dict[str, Any]
    event_count: int
    final_text: str | None
    last_author: str | None
    status: str
    children: int
    running_children: list[str]
    stopping: str | None
    records_errors: bool
    nested_transfers: bool
    reports_state: bool
    hub: RequestHub | None
    answers: dict[str, HumanAnswer]
    may_defer: bool
    deferred: list[PendingRequest]
    released: bool
    opened: int
    resume_points: dict[str, dict[str, Any]]
    responded: set[str]
    progress: dict[str, list[HumanAnswer]]
    transcript: Transcript
    answer_runs: bool
    after_run_due: bool
    skip_run: bool

    # bookkeeping (_runtime)
    def defers(self) -> bool: ...
    def result(self, **fields: Any) -> AgentRunResult: ...
    def ref(self, agent: AgentSpec, branch: str | None, *, whole: bool = False) -> StepRef: ...
    def _add_pending(self, event: Event) -> None: ...
    async def flush(self) -> None: ...
    def apply_temp(self, delta: dict[str, Any]) -> None: ...
    def adopt_metadata(self, written: dict[str, Any] | None) -> None: ...
    def record(self, event: Event, *, ongoing: bool = False) -> None: ...
    def new_event(self, author: str, branch: str | None, **fields: Any) -> Event: ...
    def run_text(self, author: str, branch: str | None) -> str: ...
    def record_error(
        self,
        agent: AgentSpec,
        branch: str | None,
        error: BaseException,
        node_path: str | None = None,
    ) -> None: ...
    def show(self) -> None: ...
    def check_stop(self) -> None: ...

    # orchestration (_orchestration)
    async def run_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult: ...
    async def run_sub_agent(
        self, agent: AgentSpec, branch: str | None, *, report_state: bool = False
    ) -> AgentRunResult: ...
    async def _child(
        self,
        agent: AgentSpec,
        branch: str | None,
        agent_tool: AgentToolCall | None = None,
        *,
        records_errors: bool = True,
        node_path: str | None = None,
        nested: bool = False,
        report_state: bool = False,
    ) -> AgentRunResult: ...

    # custom agents (_custom)
    async def _run_custom(self, agent: AgentSpec, branch: str | None) -> AgentRunResult: ...

    # the ReAct loop (_react)
    async def _run_llm_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult: ...
    async def _run_tool_activity(
        self,
        agent: AgentSpec,
        branch: str | None,
        call: types.FunctionCall,
        plan: CallPlan | None,
        confirmation: Any,
        record_as: str | None = None,
        written: dict[str, Any] | None = None,
        failed: RaisedError | None = None,
    ) -> ToolCallOutput: ...

    # waiting (_waits)
    async def _await_requests(
        self, agent: AgentSpec, branch: str | None, requests: list[PendingRequest]
    ) -> list[EventActions]: ...
    def defer(self, requests: list[PendingRequest], response: Event | None) -> None: ...
    async def adopt(self, outcome: AgentRunResult) -> None: ...
    def _holds(self, request: PendingRequest) -> bool: ...

    # answers as runs of their own (_answer_runs)
    async def end_run(self, agent: str) -> None: ...
    async def answer_run(
        self, request: PendingRequest, answer: HumanAnswer, event: Event
    ) -> tuple[Event, Any, bool]: ...
    async def plugin_hook(
        self,
        hook: Any,
        agent: str,
        branch: str | None = None,
        error: BaseException | None = None,
    ) -> None: ...
