"""AgentRuntime: runs agents of one invocation inside a workflow (root or child).

Runs on: workflow (Temporal sandbox). One clear mechanism for every agent kind:
an agent runs *inline* in the workflow that holds the runtime (an LLM agent's
ReAct loop, or a shell agent's orchestration); a *sub-agent* runs in a child
workflow (`AdkAgentRun`) holding a runtime of its own. Transfers are tail
calls: a run that ends with `transfer_to_agent` reports the target, and the
workflow that started the run starts the target next (so chains stay flat).
"""

from __future__ import annotations

import asyncio
from typing import Any

from temporalio import workflow
from temporalio.exceptions import CancelledError

with workflow.unsafe.imports_passed_through():
    from adk.events.event import Event
    from adk.flows.llm_flows.functions import own_text

    from . import names
    from ._answer_runs import AnswerRuns
    from ._custom import CustomAgents
    from ._humans import (
        RequestHub,
    )
    from ._node_paths import NodePaths
    from ._options import BOOKKEEPING, failure_message
    from ._orchestration import Orchestration
    from ._patches import patched
    from ._react import ReactLoop
    from ._ui import Transcript
    from ._waits import DeferredWaits
    from .contracts import (
        AgentRunResult,
        AgentSpec,
        HumanAnswer,
        PendingRequest,
        PersistEventsInput,
        RunContext,
        SessionRef,
        StepRef,
        named_by_id,
        unless_default,
    )
    from .errors import find_raised

TEMP_PREFIX = "temp:"


class AgentRuntime(Orchestration, ReactLoop, DeferredWaits, CustomAgents, AnswerRuns):
    """The state one workflow keeps while it runs agents of an invocation."""

    def __init__(
        self,
        context: RunContext,
        *,
        temp_state: dict[str, Any] | None = None,
        custom_metadata: dict[str, Any] | None = None,
        llm_calls: int = 0,
        session: SessionRef | None = None,
        invocation_id: str | None = None,
        hub: RequestHub | None = None,
        records_errors: bool = True,
        node_path: str = "",
        paths: NodePaths | None = None,
        nested_transfers: bool = False,
        reports_state: bool = True,
        resume: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.context = context
        self.records_errors = records_errors
        """See AgentRunInput.records_errors."""
        self.nested_transfers = nested_transfers
        """See AgentRunInput.nested_transfers."""
        self.reports_state = reports_state
        """See AgentRunInput.reports_state."""
        self.node_path = node_path
        """The node path of the agent this workflow runs (its sub-agents' runs: see paths)."""
        self.paths = paths
        """Run counters, in the workflow that follows an invocation's transfers (else None:
        runs started here share this run's path, as inside a Sequential/Loop/Parallel)."""
        self.hub = hub
        self.answers: dict[str, HumanAnswer] = {}
        self.progress: dict[str, list[HumanAnswer]] = {}
        self.may_defer = False
        """google-adk 2.13's pauses: a pending call does not hold the loop; what is still
        open when the run ends is awaited after it (`await_deferred`: the root, a transfer
        target), handed to whoever ran it (a workflow agent's step: AgentRunResult.deferred)
        or left open (an AgentTool's run). Else (a history from before PATCH_ADK_PAUSES)
        the loop waits."""
        self.deferred: list[PendingRequest] = []
        """Requests the runs opened and nobody has answered yet (when `defers`)."""
        self.responded: set[str] = set()
        """Call ids of deferred requests that have a response (an intermediate one)."""
        self.opened = 0
        """How many requests the runs have opened (an LLM agent's run that opened none
        ran to its end: a resumable app records its end-of-agent marker)."""
        self.resume_points: dict[str, dict[str, Any]] = dict(resume or {})
        """A resumable app: where the workflow agents a pause stopped resume, by name
        (AgentRunResult.resume); each takes its own when it runs again."""
        self.released = False
        """A new message for the session arrived while the invocation waits: it ends."""
        self.answer_runs = False
        """Each answer is a run of its own for the plugins (workflows/_answer_runs.py)."""
        self.after_run_due = True
        """A run ended whose after_run_callback has not run yet."""
        self.skip_run = False
        """A plugin's before_run answered for an answer's run: no agent runs for it."""
        self.answers_at_top = False
        self.alone = False
        self.session = session or context.session
        self.invocation_id = invocation_id or context.invocation_id
        self.temp_state: dict[str, Any] = dict(temp_state or {})
        self.custom_metadata = custom_metadata
        """The invocation's `ctx.custom_metadata` as its code wrote it (None: untouched,
        as RunConfig.custom_metadata has it): StepRef.custom_metadata."""
        self.llm_calls = llm_calls
        self.pending: list[Event] = []
        self._flushing = asyncio.Lock()
        """Held while a flush's events are being stored (see `flush`)."""
        self.run_texts: dict[str | None, tuple[str, str]] = {}
        """branch -> (the agent whose run it is, its text so far)."""
        self.state_delta: dict[str, Any] = {}
        self.event_count = 0
        self.final_text: str | None = None
        self.last_author: str | None = None
        self.status = "running"
        self.entry = context.tree.name
        """The agent the invocation started with (plugin run hooks name it)."""
        self.children = 0
        self.running_children: list[str] = []
        """Ids of the child agent runs started and not ended yet (a stop reaches them)."""
        self.stopping: str | None = None
        """Why this run stops before its next model call (an interrupting message)."""
        self.details: Any = None
        """A callable adding a section to the live details (the root lists pending requests)."""
        self.transcript = Transcript(
            f"**{self.session.app_name}** · user `{self.session.user_id}` · "
            f"session `{self.session.session_id}` · invocation `{self.invocation_id}`"
        )

    def defers(self) -> bool:
        """`may_defer`, and the history is one of PATCH_ADK_PAUSES: asked where a call
        first opens a request (an invocation that never needs a human records no patch
        marker, and no TemporalChangeVersion search-attribute update)."""
        return self.may_defer and patched(names.PATCH_ADK_PAUSES)

    def ref(self, agent: AgentSpec, branch: str | None, *, whole: bool = False) -> StepRef:
        """An activity's reference to its step: without the session and invocation this
        workflow's id names (the activity fills them in), unless `whole` (a reference
        another workflow receives: an AgentTool call's)."""
        session, invocation_id = self.session, self.invocation_id
        named = None if whole else names.step_origin(workflow.info().workflow_id)
        if named and session.artifact_session is None and named[0] == session.key():
            session = named_by_id()
            if named[1] == invocation_id:
                invocation_id = ""
        return StepRef(
            session=session,
            invocation_id=invocation_id,
            agent_name=agent.name,
            branch=branch,
            temp_state=dict(self.temp_state),
            run_config=unless_default(self.context.run_config),
            custom_metadata=self.custom_metadata,
            node_path=self.node_path,
        )

    # ── bookkeeping ─────────────────────────────────────────────────────────

    def result(self, **fields: Any) -> AgentRunResult:
        return AgentRunResult(
            temp_state=dict(self.temp_state),
            custom_metadata=self.custom_metadata,
            llm_calls=self.llm_calls,
            state_delta=dict(self.state_delta) if self.reports_state else {},
            final_text=self.final_text,
            last_author=self.last_author,
            event_count=self.event_count,
            **fields,
        )

    def _add_pending(self, event: Event) -> None:
        self.pending.append(event)
        self.record(event)

    async def flush(self) -> None:
        """Persist the events this workflow still holds, where no model step follows
        to carry them (before a wait, a child, an agent callback, the end).

        A local activity: its input (the events) is not recorded in history. Flushes
        run one after another: one with nothing left to store still waits until what an
        earlier one took is stored (a ParallelAgent's branches start their children
        after its own event)."""
        if self._flushing.locked() and not patched(names.PATCH_FLUSH_IN_ORDER):
            await self._persist()  # histories from before: nothing waited
            return
        async with self._flushing:
            await self._persist()

    async def _persist(self) -> None:
        pending, self.pending = self.pending, []
        if not pending:
            return
        await workflow.execute_local_activity(
            names.PERSIST_EVENTS,
            PersistEventsInput(
                session=self.session,
                invocation_id=self.invocation_id,
                pending_events=pending,
                run_config=unless_default(self.context.run_config),
            ),
            summary=f"persist {len(pending)} event(s)",
            **BOOKKEEPING,
        )

    def apply_temp(self, delta: dict[str, Any]) -> None:
        # None is a value like any other (google-adk 2.13 keeps it in state)
        self.temp_state.update((k, v) for k, v in delta.items() if k.startswith(TEMP_PREFIX))

    def adopt_metadata(self, written: dict[str, Any] | None) -> None:
        """What an activity's code (or a child run) left in `ctx.custom_metadata`."""
        if written is not None:
            self.custom_metadata = written

    def record(self, event: Event, *, ongoing: bool = False) -> None:
        """`ongoing`: the agent's run goes on after this event though it looks final (the
        code a code executor runs next: google-adk 2.13's loop looks at the result)."""
        if event.author != "user" and not event.node_info.path:  # built in the workflow
            event.node_info.path = self.node_path
        self.event_count += 1
        self.transcript.add(event)
        for key, value in event.actions.state_delta.items():
            if not key.startswith(TEMP_PREFIX) and key in self.temp_state:
                self.temp_state[key] = value  # a key of BeginOutput.invocation_state, written
            if not key.startswith(TEMP_PREFIX):
                self.state_delta[key] = value
        final = event.is_final_response() and not ongoing
        if final and event.content and event.content.parts:
            text = "".join(p.text or "" for p in event.content.parts if not p.thought)
            if text:
                self.final_text = text
        self.last_author = event.author
        self._track_run_text(event, final)
        self.show()

    def _track_run_text(self, event: Event, final: bool) -> None:
        """The text of the run each branch's current agent is in (google-adk 2.13's
        output accumulation: a run ends at another author's event or a final response)."""
        author, text = self.run_texts.get(event.branch, ("", ""))
        if final:
            self.run_texts[event.branch] = ("", "")
        elif not event.partial:
            earlier = text if author == event.author else ""
            self.run_texts[event.branch] = (event.author, earlier + own_text(event))

    def run_text(self, author: str, branch: str | None) -> str:
        """What `author` said so far in its current run on `branch`."""
        who, text = self.run_texts.get(branch, ("", ""))
        return text if who == author else ""

    def new_event(self, author: str, branch: str | None, **fields: Any) -> Event:
        """An event this workflow decides (its id and time replay exactly)."""
        return Event(
            id=str(workflow.uuid4()),
            timestamp=workflow.now().timestamp(),
            invocation_id=self.invocation_id,
            author=author,
            branch=branch,
            **fields,
        )

    def record_error(
        self,
        agent: AgentSpec,
        branch: str | None,
        error: BaseException,
        node_path: str | None = None,
    ) -> None:
        """The error event google-adk records when an exception ends `agent`'s run
        (error_code: the class name, error_message: its text); once per exception,
        by the LLM agent it ended (the agents around it only pass it on), and only
        for an agent run at the top (see AgentRunInput.records_errors). `node_path`:
        the failed run's, when not this one's (a transfer target's failure)."""
        if getattr(error, "_adk_recorded", False):
            return
        if agent.kind != "llm" or not self.records_errors:  # 2.13 records none there
            return
        raised = find_raised(error)
        if raised is not None:
            code, message = raised.name, raised.message
        else:
            code, message = failure_message(error)
        event = self.new_event(agent.name, branch, error_code=code, error_message=message)
        if node_path is not None:
            event.node_info.path = node_path
        self._add_pending(event)
        error._adk_recorded = True  # type: ignore[attr-defined]

    # ── stopping at the next step (busy policy `interrupt`, workflows/_busy.py) ──

    async def stop(self, reason: str) -> None:
        """Stop before the next model call or child run, here and in the running child
        runs: what runs now (a model step, tool calls) finishes and is recorded first,
        so nothing is half-written and no call is left without its response."""
        if self.stopping is not None:
            return
        self.stopping = reason
        for child_id in list(self.running_children):
            try:
                await workflow.get_external_workflow_handle(child_id).signal(
                    names.SIGNAL_STOP, reason
                )
            except Exception:  # it ended meanwhile: nothing to stop
                pass

    def check_stop(self) -> None:
        """Raise the cancellation an interrupting message asked for (see `stop`)."""
        if self.stopping is not None:
            raise CancelledError(self.stopping)

    async def settle(self) -> None:
        """Until the child runs still going have ended (a stopped Parallel's branches)."""
        await workflow.wait_condition(lambda: not self.running_children)

    def show(self) -> None:
        extra = self.details() if self.details else ""
        workflow.set_current_details(self.transcript.render(self.status) + extra)
