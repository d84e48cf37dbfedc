"""Custom agents: a BaseAgent subclass's `_run_async_impl`, run in the workflow.

Runs on: workflow (Temporal sandbox). The one place where app code runs in a
workflow (ARCHITECTURE.md, principle 1's exception): a custom agent's
orchestration. Its generator is driven here, step by step, with a context
(CustomAgentContext) that gives it:

- `ctx.session.state`: the state as the session store had it when the agent
  started (an activity read it), then changed by every event it is handed or
  yields, as google-adk changes it when the Runner appends them;
- `sub_agent.run_async(ctx)`: the sub-agent runs as a child workflow (as a
  Sequential's step does), then the events it recorded are read back from the
  store (an activity) and yielded to the orchestration;
- its own yielded events get their id and time from the workflow (replay is
  exact) and are persisted as every event the workflow decides is.

Replay re-runs the generator: child workflows and activities answer from
history, so the orchestration must be deterministic. While its code runs, the
flag in adk/agents/_orchestrating.py is set and the worker's guard (worker/
_guard.py) refuses clocks, randomness, files and network with a clear error.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Iterator, Mapping
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk._unimplemented import not_implemented
    from adk.agents._agent_states import AgentStates
    from adk.agents._orchestrating import (
        NondeterministicOrchestrationError,
        OrchestrationContext,
        framework,
        live_agent,
        message,
        orchestrating,
    )
    from adk.agents.base_agent import BaseAgent
    from adk.agents.run_config import RunConfig
    from adk.events.event import Event

    from . import names
    from ._base import RuntimeBase
    from ._options import BOOKKEEPING, failure_message
    from .contracts import AgentRunResult, AgentSpec, CustomViewInput, CustomViewOutput, SessionRef
    from .errors import raised_error

TEMP = "temp:"


class CustomAgents(RuntimeBase):
    """Running a custom agent's orchestration (a mixin of AgentRuntime)."""

    async def _run_custom(self, spec: AgentSpec, branch: str | None) -> AgentRunResult:
        agent = live_agent(workflow.info().task_queue, self.session.app_name, spec.name)
        if agent is None:
            raise ApplicationError(
                f"Agent {spec.name} of app {self.session.app_name} is not loaded by the worker"
                f" on task queue {workflow.info().task_queue}.",
                type="UnknownAgent",
                non_retryable=True,
            )
        ctx = CustomAgentContext(self, agent, branch, await self.custom_view(branch, None))
        steps = agent._run_async_impl(ctx)
        if not hasattr(steps, "__anext__"):
            raise ApplicationError(
                f"_run_async_impl of agent {spec.name} must be an async generator (an"
                " `async def` that yields events).",
                type="TypeError",
                non_retryable=True,
            )
        try:
            while True:
                with orchestrating(spec.name) as run:
                    try:
                        event = await steps.__anext__()
                    except StopAsyncIteration:
                        break
                    finally:  # its code may have caught the guard's error: it fails anyway
                        tried = list(run.violations)
                try:
                    if tried:
                        raise NondeterministicOrchestrationError(message(spec.name, tried[0]))
                    self._custom_yielded(ctx, spec, event)
                except Exception:
                    await steps.aclose()  # suspended at its yield: its finally blocks run now
                    raise
        except (ApplicationError, CancelledError, asyncio.CancelledError):
            raise  # a sub-agent's failure (or a cancellation), passed on by its code
        except Exception as error:  # the orchestration's own: the caller gets it (ADK)
            await self.flush()  # what it yielded first is recorded before the error is told
            touched = getattr(error, "qualified_name", None)
            if isinstance(error, workflow.NondeterminismError) and touched:
                # Temporal's sandbox (strict mode) refused it first: say it as the guard does
                error = NondeterministicOrchestrationError(message(spec.name, f"{touched}()"))
            raise raised_error(
                error, f"{type(error).__name__} in _run_async_impl of agent {spec.name}: {error}"
            ) from None
        return self.result(escalated=ctx.escalated, end_invocation=ctx.end_invocation)

    def _custom_yielded(self, ctx: CustomAgentContext, spec: AgentSpec, event: Any) -> None:
        if not isinstance(event, Event):
            raise TypeError(
                f"_run_async_impl of agent {spec.name} yielded a {type(event).__name__}, not"
                " an Event."
            )
        if event.actions.escalate:  # what a LoopAgent around it sees (ADK: yielded events)
            ctx.escalated = True
        if event.id in ctx.handed_out or event.partial:
            return  # a sub-agent's event: its run recorded it
        event = event.model_copy(
            deep=True,
            update={
                "id": str(workflow.uuid4()),
                "timestamp": workflow.now().timestamp(),
                "invocation_id": event.invocation_id or self.invocation_id,
            },
        )
        delta = event.actions.state_delta
        self.apply_temp(delta)  # temp: reaches the invocation, never the store
        for key in [k for k in delta if k.startswith(TEMP)]:
            del delta[key]
        ctx.state.apply(delta)
        ctx.watermark = event.id  # persisted before the next sub-agent starts
        self._add_pending(event)

    async def custom_view(self, branch: str | None, after: str | None) -> CustomViewOutput:
        """The session's state and the events recorded since `after` (None: the state,
        the last event's id and the invocation's user message)."""
        await self.flush()
        # a regular activity: a workflow evicted from the worker's cache while a local
        # one is outstanding waits out its workflow task's timeout (10 s)
        try:
            return await workflow.execute_activity(
                names.CUSTOM_AGENT_VIEW,
                CustomViewInput(
                    session=self.session,
                    invocation_id=self.invocation_id,
                    branch=branch,
                    after_event_id=after,
                    initial=after is None,
                ),
                result_type=CustomViewOutput,
                summary="custom agent: read the session"
                + (" since the last event" if after else ""),
                **BOOKKEEPING,
            )
        except ActivityError as error:  # the engine's read failed, not the user's code
            error_type, message = failure_message(error)
            raise ApplicationError(message, type=error_type, non_retryable=True) from error


class StateView(Mapping[str, Any]):
    """`ctx.session.state` of a custom agent: read-only; changed by events."""

    def __init__(self, values: dict[str, Any], runtime: RuntimeBase) -> None:
        self._values = values
        self._runtime = runtime

    def _all(self) -> dict[str, Any]:
        return {**self._values, **self._runtime.temp_state}

    def __getitem__(self, key: str) -> Any:
        if key.startswith(TEMP):
            return self._runtime.temp_state[key]
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __setitem__(self, key: str, value: Any) -> None:
        raise not_implemented(
            f"ctx.session.state[{key!r}] = ... in a custom agent",
            "writing state directly from a custom agent's orchestration (google-adk changes"
            " the in-memory session without recording it); yield an Event with"
            f" actions=EventActions(state_delta={{{key!r}: ...}}) instead",
        )

    def to_dict(self) -> dict[str, Any]:
        return self._all()

    def has_delta(self) -> bool:
        return False

    def apply(self, delta: dict[str, Any]) -> None:
        for key, value in delta.items():
            if not key.startswith(TEMP):
                self._values[key] = value


class SessionView:
    """`ctx.session` of a custom agent: its identity and state."""

    def __init__(self, ref: SessionRef, state: StateView) -> None:
        self.id = ref.session_id
        self.app_name = ref.app_name
        self.user_id = ref.user_id
        self.state = state

    @property
    def events(self) -> list[Event]:
        raise not_implemented(
            "ctx.session.events in a custom agent",
            "reading the session's events from a custom agent's orchestration (read state,"
            " which its sub-agents write through output_key and tools)",
        )


class CustomAgentContext(AgentStates, OrchestrationContext):
    """The `ctx` a custom agent's `_run_async_impl` gets (InvocationContext's fields
    that orchestration reads, and a resumable app's agent states)."""

    def __init__(
        self, runtime: CustomAgents, agent: BaseAgent, branch: str | None, view: CustomViewOutput
    ) -> None:
        self._runtime = runtime
        self.agent = agent
        self.branch = branch
        self.invocation_id = runtime.invocation_id
        self.state = StateView(dict(view.state), runtime)
        self.session = SessionView(runtime.session, self.state)
        self.user_content: types.Content | None = view.user_content
        self.run_config: RunConfig = runtime.context.run_config
        self.end_invocation = False
        self.escalated = False
        self.watermark = view.last_event_id
        self.handed_out: set[str] = set()
        """Ids of the sub-agents' events handed to the orchestration (recorded already)."""
        self._busy: str | None = None
        """The sub-agent running now (one at a time)."""
        self.agent_states: dict[str, dict[str, Any]] = {}
        self.end_of_agents: dict[str, bool] = {}

    @property
    def is_resumable(self) -> bool:
        return self._runtime.context.resumable

    def populate_invocation_agent_states(self) -> None:
        raise not_implemented(
            "ctx.populate_invocation_agent_states() in a custom agent",
            "reading the invocation's recorded agent states from a custom agent's"
            " orchestration (it reads the session's events)",
        )

    @property
    def app_name(self) -> str:
        return self.session.app_name

    @property
    def user_id(self) -> str:
        return self.session.user_id

    async def _run_sub_agent(self, agent: BaseAgent) -> AsyncGenerator[Event, None]:
        if self._busy:  # the read-back takes what was recorded since the last one
            raise not_implemented(
                f"running {agent.name} while {self._busy} runs, from custom agent"
                f" {self.agent.name}",
                "sub-agents run concurrently by a custom agent (run a ParallelAgent instead)",
            )
        self._busy = agent.name
        try:
            with framework():
                events = await self._run(agent)
        finally:
            self._busy = None
        for event in events:
            yield event

    async def _run(self, agent: BaseAgent) -> list[Event]:
        runtime = self._runtime
        spec = runtime.context.tree.find_anywhere(agent.name)
        if spec is None:
            raise ValueError(
                f"Agent {agent.name} is not in the agent tree: list it in the sub_agents of"
                " the custom agent that runs it (its run is a workflow of the tree)."
            )
        if self.end_invocation:  # google-adk: the sub-agent's run ends before it starts
            return []
        await runtime.run_sub_agent(spec, self.branch)
        view = await runtime.custom_view(self.branch, self.watermark)
        for event in view.events:
            self.state.apply(event.actions.state_delta)
            self.handed_out.add(event.id)
        self.watermark = view.last_event_id or self.watermark
        return view.events
