"""The agent-run workflow: one sub-agent of an invocation, as a child workflow.

Runs on: workflow (Temporal sandbox). Started by the invocation workflow (or
another agent run) for a transfer target, a step of a Sequential/Parallel/Loop
agent, or an AgentTool call; it runs the agent inline and reports back
(transfer target, escalation, temp state, model calls, state written).
"""

from __future__ import annotations

from temporalio import workflow
from temporalio.exceptions import ApplicationError, CancelledError

with workflow.unsafe.imports_passed_through():
    from . import _specs, names
    from ._node_paths import NodePaths
    from ._options import BOOKKEEPING, FAIL_ON
    from ._patches import decide_at_start
    from ._runtime import AgentRuntime
    from .contracts import (
        AgentRunInput,
        AgentRunResult,
        AgentSpec,
        BeginAgentToolInput,
        FinishAgentToolInput,
        HumanAnswer,
        PendingRequest,
        SessionRef,
        ToolCallOutput,
    )


class _RootHub:
    """A child's requests are registered at the root, which every caller talks to."""

    def __init__(self, root_workflow_id: str) -> None:
        self.root = workflow.get_external_workflow_handle(root_workflow_id)

    async def add(self, requests: list[PendingRequest]) -> None:
        await self.root.signal(names.SIGNAL_REGISTER, requests)

    async def resolve(self, requests: list[PendingRequest]) -> None:
        closed = [r.model_copy(update={"answered": True}) for r in requests]
        await self.root.signal(names.SIGNAL_REGISTER, closed)


def _fill_origin(input: AgentRunInput) -> None:
    """The session, invocation and root workflow the parent left out of the input: this
    run's workflow id names them (names.agent_run_id)."""
    origin = names.agent_run_origin(workflow.info().workflow_id)
    if origin is None:
        raise ApplicationError(
            f"Agent run {workflow.info().workflow_id!r} names no invocation and its input"
            " names none: it was not started by durable-adk.",
            type="UnknownInvocation",
            non_retryable=True,
        )
    root_workflow_id, invocation_id, (app_name, user_id, session_id) = origin
    input.context.root_workflow_id = root_workflow_id
    input.context.invocation_id = invocation_id
    input.context.session = SessionRef(app_name=app_name, user_id=user_id, session_id=session_id)


@workflow.defn(name=names.AGENT_RUN_WORKFLOW, failure_exception_types=FAIL_ON)
class AdkAgentRunWorkflow:
    """Runs one agent for a branch of an invocation and reports the outcome."""

    @workflow.init
    def __init__(self, input: AgentRunInput) -> None:
        self._runtime: AgentRuntime | None = None
        self._early: list[HumanAnswer] = []
        self._stop: str | None = None
        self._released = False

    @workflow.signal(name=names.SIGNAL_DELIVER)
    def deliver(self, answer: HumanAnswer) -> None:
        """An answer the root validated for a request of this run."""
        if self._runtime is None:
            self._early.append(answer)
        else:
            self._runtime.deliver(answer)

    @workflow.signal(name=names.SIGNAL_STOP)
    async def stop(self, reason: str) -> None:
        """The invocation was interrupted by a newer message: stop before the next
        model call (and tell the runs this one started)."""
        self._stop = reason
        if self._runtime is not None:
            await self._runtime.stop(reason)

    @workflow.signal(name=names.SIGNAL_RELEASE)
    def release(self) -> None:
        """A new message for the session: the run's wait for answers ends, its requests
        staying open (google-adk 2.13's invocation had ended there)."""
        self._released = True
        if self._runtime is not None:
            self._runtime.released = True

    def _start(self, runtime: AgentRuntime) -> AgentRuntime:
        self._runtime = runtime
        runtime.released = runtime.released or self._released
        for answer in self._early:
            runtime.deliver(answer)
        if self._stop is not None:
            runtime.stopping = self._stop
        return runtime

    @workflow.run
    async def run(self, input: AgentRunInput) -> AgentRunResult:
        decide_at_start(input.changes)
        if not input.context.root_workflow_id:  # this run's workflow id names them
            _fill_origin(input)
        if input.context.root is None and input.context.root_digest:
            tree = _specs.recall(input.context.root_digest, input.agent_name)
            input.context.root = AgentSpec.model_validate_json(tree)
        agent = input.context.tree.find_anywhere(input.agent_name)
        if agent is None:
            raise ApplicationError(
                f"Agent {input.agent_name} not found in the agent tree.",
                type="UnknownAgent",
                non_retryable=True,
            )
        if input.agent_tool is not None:
            return await self._run_as_tool(input)
        runtime = self._start(
            AgentRuntime(
                input.context,
                temp_state=input.temp_state,
                custom_metadata=input.custom_metadata,
                llm_calls=input.llm_calls,
                session=input.session,
                invocation_id=input.invocation_id,
                hub=_RootHub(input.context.root_workflow_id),
                records_errors=input.records_errors,
                node_path=input.node_path,
                nested_transfers=input.nested_transfers,
                reports_state=input.reports_state,
                resume=input.resume,
            )
        )
        # a transfer's target at the top runs as the root's agent does (google-adk 2.13's
        # pauses, see DeferredWaits); under a shell agent, what its run leaves open goes
        # to whoever ran it (2.13 pauses the workflow agents around it)
        nested = input.nested_transfers
        runtime.may_defer = True
        runtime.answers_at_top = not nested and input.context.tree.kind == "llm"
        try:
            outcome = await runtime.run_agent(agent, input.branch)
            if nested:
                return handed_up(runtime, _with_metadata(runtime, outcome))
            if runtime.deferred and not (outcome.transfer_to or outcome.end_invocation):
                runtime.start_answer_runs()
            while runtime.deferred and not (outcome.transfer_to or outcome.end_invocation):
                answered = await runtime.await_deferred()
                if answered is None:
                    break
                if runtime.skip_run:  # a plugin's before_run answered the answer's run
                    runtime.skip_run = False
                    continue
                again, branch, actions = answered
                if runtime.resume_points:  # a resumable app: resumed where the pause was
                    again, branch, actions = agent, input.branch, []
                transfer = runtime.approved_transfer(again, branch, actions)
                if runtime.alone:  # a turn of its own at the agent: it follows transfers
                    records = runtime.records_errors
                    if transfer:
                        asked = runtime.result(transfer_to=transfer)
                        outcome = await runtime.follow_transfers(again, asked, branch, records)
                    else:
                        outcome = await runtime.run_with_transfers(again, branch)
                    continue
                if transfer:  # the approved tool transferred: the root follows it
                    outcome = runtime.result(transfer_to=transfer)
                    break
                outcome = await runtime.run_agent(again, branch)
        except CancelledError:
            if runtime.stopping is not None:  # stopped: its branches end before it does
                await runtime.settle()
            raise
        finally:
            await runtime.flush()
        return _with_metadata(runtime, outcome)

    async def _run_as_tool(self, input: AgentRunInput) -> AgentRunResult:
        """An AgentTool call: the agent answers in a session of its own."""
        assert input.agent_tool is not None
        call = input.agent_tool
        parent = call.parent.session
        session_id = f"{parent.session_id}:{call.function_call.id}"
        invocation_id = f"e-{workflow.uuid4()}"
        answered = await workflow.execute_activity(  # (None in histories before plugins)
            names.BEGIN_AGENT_TOOL,
            BeginAgentToolInput(
                call=call,
                session_id=session_id,
                invocation_id=invocation_id,
                user_event_id=str(workflow.uuid4()),
                timestamp=workflow.now().timestamp(),
            ),
            summary=f"begin agent tool {call.function_call.name}",
            **BOOKKEEPING,
        )
        runtime = AgentRuntime(
            input.context,
            temp_state=call.parent.temp_state,
            llm_calls=input.llm_calls,
            session=SessionRef(
                app_name=parent.app_name,
                user_id=parent.user_id,
                session_id=session_id,
                artifact_session=parent.artifact_session or parent.session_id,
            ),
            invocation_id=invocation_id,
            hub=_RootHub(input.context.root_workflow_id),
        )
        self._start(runtime)
        # google-adk 2.13 runs the agent in a Runner of its own, which nobody resumes:
        # what its run leaves open stays open, and the caller gets an error result
        runtime.may_defer = True
        agent = input.context.tree.find_anywhere(input.agent_name)
        assert agent is not None
        # ADK runs the agent in a Runner of its own: the root of its own paths
        runtime.paths = NodePaths.for_root(agent)
        runtime.node_path = runtime.paths.start_first(agent) if runtime.paths else ""
        try:
            if not answered:  # (a plugin's before_run_callback answered for the agent)
                await runtime.run_with_transfers(agent, None)
        except Exception as error:
            await runtime.flush()  # what it recorded stays in its session
            if "on_run_error_callback" in input.context.run_hooks:  # its own run failed
                await runtime.plugin_hook("on_run_error_callback", agent.name, error=error)
            raise
        if runtime.deferred and runtime.hub is not None:  # no one can answer them now
            await runtime.hub.resolve(runtime.deferred)
        pending, runtime.pending = runtime.pending, []
        output = await workflow.execute_activity(
            names.FINISH_AGENT_TOOL,
            FinishAgentToolInput(
                call=call,
                session_id=session_id,
                invocation_id=invocation_id,
                final_text=runtime.final_text,
                pending_events=pending,
            ),
            result_type=ToolCallOutput,
            summary=f"finish agent tool {call.function_call.name}",
            **BOOKKEEPING,
        )
        return AgentRunResult(llm_calls=runtime.llm_calls, tool_output=output)


def _with_metadata(runtime: AgentRuntime, outcome: AgentRunResult) -> AgentRunResult:
    """The outcome with the custom metadata as the run left it (an after_agent callback
    may write it after the outcome was made)."""
    outcome.custom_metadata = runtime.custom_metadata
    return outcome


def handed_up(runtime: AgentRuntime, outcome: AgentRunResult) -> AgentRunResult:
    """A step's outcome, with what its run left open for whoever ran it to wait for."""
    if not runtime.deferred:
        return outcome
    ids = {r.id for r in runtime.deferred}
    return outcome.model_copy(
        update={
            "deferred": list(runtime.deferred),
            "answers": [a for i, a in runtime.answers.items() if i in ids]
            + [a for i, sent in runtime.progress.items() if i in ids for a in sent],
            "responded": sorted(runtime.responded),
            "resume": dict(runtime.resume_points),
        }
    )
