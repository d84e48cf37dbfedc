"""How a runtime runs an agent of each kind: shell agents, child workflows, transfers.

Runs on: workflow (Temporal sandbox). An agent runs *inline* in the workflow
that holds the runtime; a *sub-agent* runs in an `AdkAgentRun` child workflow.
Transfers are tail calls: the workflow that ran the transferring agent starts
the target next, so chains stay flat.
"""

from __future__ import annotations

import asyncio
from typing import Any

from temporalio import workflow
from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
    CancelledError,
    ChildWorkflowError,
)

with workflow.unsafe.imports_passed_through():
    from adk.events._internal_metadata import without_internal_metadata
    from adk.events.event import Event
    from adk.events.event_actions import EventActions

    from . import names
    from ._base import RuntimeBase
    from ._node_paths import NodePaths
    from ._options import BOOKKEEPING, failure_message
    from ._patches import generation, patched
    from ._transfers import checked_target
    from .contracts import (
        AgentCallbackInput,
        AgentCallbackOutput,
        AgentRunInput,
        AgentRunResult,
        AgentSpec,
        AgentToolCall,
        RunContext,
        RunHook,
        RunHookInput,
        named_by_id,
        unless_default,
    )
    from .errors import RaisedError, find_raised


_WORKFLOW_AGENTS = ("sequential", "parallel", "loop")

TRANSFERRED = "transferred:"
"""The resume point of a workflow agent's step whose transfer's target paused."""


class Orchestration(RuntimeBase):
    """Agent kinds, children and agent callbacks (a mixin of AgentRuntime)."""

    # restated for mypy, which cannot infer them through the package's import cycle
    temp_state: dict[str, Any]
    final_text: str | None
    last_author: str | None
    pending: list[Event]
    node_path: str
    paths: NodePaths | None

    # ── running agents ──────────────────────────────────────────────────────

    async def run_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Run `agent` here: agent callbacks around its kind's behaviour.

        end_invocation (a before_agent_callback's content, or set by a callback or
        tool) ends this agent only, skipping its after_agent_callback: in google-adk
        each agent runs in a copy of the invocation context, so the agents around it
        go on (a Sequential's next step, a Parallel's other branches)."""
        try:
            return await self._run_agent(agent, branch)
        except (asyncio.CancelledError, CancelledError):
            raise
        except Exception as error:  # google-adk 2.13: each agent's level is told, then it goes on
            if "on_agent_error_callback" in self.context.run_hooks:
                await self.plugin_hook("on_agent_error_callback", agent.name, branch, error)
            raise

    async def plugin_hook(
        self,
        hook: RunHook,
        agent: str,
        branch: str | None = None,
        error: BaseException | None = None,
    ) -> None:
        """One of the plugins' hooks the workflow runs (RunContext.run_hooks), for this
        run's session: after_run, or a notification of `error`."""
        raised = None
        if error is not None:
            error_type, message = failure_message(error)
            raised = find_raised(error) or RaisedError(
                module="builtins", qualname="Exception", message=f"{error_type}: {message}"
            )
        await workflow.execute_activity(
            names.RUN_HOOK,
            RunHookInput(
                session=self.session,
                invocation_id=self.invocation_id,
                agent_name=agent,
                hook=hook,
                error=raised,
                branch=branch,
                temp_state=dict(self.temp_state),
                run_config=unless_default(self.context.run_config),
            ),
            summary=f"plugins: {hook} · {agent}",
            **BOOKKEEPING,
        )

    async def _run_agent(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        if agent.has_agent_callbacks:
            before = await self._agent_callback(agent, branch, "before")
            if before.end_invocation:
                return self.result(end_invocation=True)
        if agent.kind == "llm":
            outcome = await self._run_llm_agent(agent, branch)
        elif agent.kind == "sequential":
            outcome = await self._run_sequential(agent, branch)
        elif agent.kind == "parallel":
            outcome = await self._run_parallel(agent, branch)
        elif agent.kind == "loop":
            outcome = await self._run_loop(agent, branch)
        else:  # a BaseAgent subclass: its _run_async_impl runs here (workflows/_custom.py)
            outcome = await self._run_custom(agent, branch)
        if agent.has_agent_callbacks and not outcome.end_invocation:
            if outcome.transfer_to and patched(names.PATCH_TRANSFER_ENDS_RUN):
                # google-adk 2.13: at the top a transfer ends the agent's run (no callback);
                # under a shell agent the callback follows the target's run
                outcome.after_callback_deferred = self.nested_transfers
            else:
                await self._agent_callback(agent, branch, "after")
        return outcome

    async def run_with_transfers(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Run `agent` inline, then follow transfers (each target in a child workflow)."""
        outcome = await self.run_agent(agent, branch)
        return await self._follow_transfers(agent, outcome, branch, self.records_errors)

    async def follow_transfers(
        self, agent: AgentSpec, outcome: AgentRunResult, branch: str | None, records: bool
    ) -> AgentRunResult:
        """The transfers `agent`'s run (`outcome`) asked for (an approved tool's, say)."""
        return await self._follow_transfers(agent, outcome, branch, records)

    async def run_sub_agent(
        self, agent: AgentSpec, branch: str | None, *, report_state: bool = False
    ) -> AgentRunResult:
        """Run `agent` in a child workflow, then follow its transfers (a step of a
        shell agent). google-adk 2.13 records an error event for a failure under a
        shell agent only when an LlmAgent is the root (the shell then runs as a node
        of its workflow); under a shell root, none."""
        records = self.context.tree.kind == "llm"
        if (
            self.context.inline_workflow_agents
            and agent.kind in _WORKFLOW_AGENTS
            and not report_state  # a ParallelAgent's branch: a workflow of its own
        ):
            return await self._run_inline(agent, branch)
        point = self.resume_points.pop(TRANSFERRED + agent.name, None)
        chain = point["chain"] if point else [agent.name]
        # resumed: the paused target (else `agent` itself: an AgentTool's agents are not
        # in the tree, and may share a name with one that is)
        first = (self.context.tree.find(chain[-1]) or agent) if point else agent
        # 2.13 runs each agent of a resumed chain again (its callbacks around its target's)
        around = self._chain_agents(agent, chain) if point else []
        for transferring in around:
            before = await self._agent_callback(transferring, branch, "before")
            if before.end_invocation:  # it ends there: nothing after it resumes
                return self.result(end_invocation=True)
        opened = self.opened
        outcome = await self._child(
            first, branch, records_errors=records, nested=True, report_state=report_state
        )
        outcome = await self._follow_transfers(
            first, outcome, branch, records, nested=True, report_state=report_state
        )
        if point is not None:
            again = self.resume_points.pop(TRANSFERRED + first.name, None)
            paused = self.opened > opened
            if paused:  # paused again: the whole chain resumes next time
                longer = chain[:-1] + (again["chain"] if again else [first.name])
                self.resume_points[TRANSFERRED + agent.name] = {"chain": longer}
            # 2.13: each agent of the chain ends once its target's run has ended
            for name in reversed(chain[:-1]):
                if not paused:
                    end = EventActions(end_of_agent=True)
                    self._add_pending(self.new_event(name, branch, actions=end))
                for called in (a for a in around if a.name == name):
                    await self._agent_callback(called, branch, "after")
        return outcome

    def _chain_agents(self, agent: AgentSpec, chain: list[str]) -> list[AgentSpec]:
        """The agents of a resumed transfer chain before its target that have agent
        callbacks (histories from before ran none of them on the resume)."""
        found = [agent] + [self.context.tree.find(name) for name in chain[1:-1]]
        called = [a for a in found if a is not None and a.has_agent_callbacks]
        if not called or not patched(names.PATCH_RESUMED_CHAIN_CALLBACKS):
            return []
        return called

    async def _run_inline(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """A workflow agent run here, as its child workflow would run it: its sub-agents
        see transfers as a child's runtime does (no node-path counters of their own).
        Nothing else runs in this workflow meanwhile (not under a ParallelAgent)."""
        paths, self.paths = self.paths, None
        try:
            return await self.run_agent(agent, branch)
        finally:
            self.paths = paths

    async def _follow_transfers(
        self,
        agent: AgentSpec,
        outcome: AgentRunResult,
        branch: str | None,
        records_errors: bool,
        *,
        nested: bool = False,
        report_state: bool = False,
    ) -> AgentRunResult:
        """Run each transfer's target in a child workflow until one does not transfer.
        `nested`: under a shell agent, where each transferring agent's after_agent_callback
        runs once its target's run is over, the innermost first (google-adk 2.13)."""
        escalated = outcome.escalated
        chain = [agent.name]
        deferred: list[tuple[AgentSpec, str, AgentRunResult]] = []
        if outcome.after_callback_deferred or outcome.end_deferred:
            deferred.append((agent, self.node_path, outcome))
        while outcome.transfer_to and not outcome.end_invocation:
            # 2.13's checks and exceptions; `agent` made the transfer
            root = self.paths.root if self.paths else self.context.tree
            try:
                target = checked_target(root, agent, outcome.transfer_to, as_node=bool(self.paths))
            except ApplicationError as error:
                if records_errors and not self.paths:  # the legacy check fails agent's run
                    self.record_error(agent, branch, error)
                raise
            path = self.paths.transfer(target) if self.paths else self.node_path
            # google-adk 2.13 records an LLM target's failure as the failure of the agent
            # that transferred to it (the target runs inside its run); inside a
            # Sequential, Parallel or Loop target, the failing agent records it
            by_transferrer = target.kind == "llm" and patched(names.PATCH_TRANSFER_FAILURE_AUTHOR)
            try:
                outcome = await self._child(
                    target,
                    branch,
                    records_errors=records_errors and not by_transferrer,
                    node_path=path,
                    nested=nested,
                    report_state=report_state,
                )
            except Exception as error:
                if records_errors and by_transferrer:
                    self.record_error(agent, branch, error, node_path=path)
                raise
            if outcome.after_callback_deferred or outcome.end_deferred:
                deferred.append((target, path, outcome))
            escalated = escalated or outcome.escalated
            agent = target
            chain.append(target.name)
        for transferred, path, ran in reversed(deferred):
            # (AgentRunResult.end_deferred; a paused target: at the resume, see run_sub_agent)
            if ran.end_deferred and not outcome.deferred:
                self._add_pending(
                    self.new_event(
                        transferred.name, branch, actions=EventActions(end_of_agent=True)
                    )
                )
            if ran.after_callback_deferred:
                await self._agent_callback(transferred, branch, "after", node_path=path)
        if nested and outcome.deferred and len(chain) > 1:  # a target paused: see run_sub_agent
            self._paused_at_transfer(chain)
        outcome.escalated = escalated
        return outcome

    async def _run_sequential(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        escalated = False
        point = self.resume_points.pop(agent.name, None)  # a resumed pause: its step
        start = point["index"] if point else 0
        for index in range(start, len(agent.sub_agents)):
            sub_agent = agent.sub_agents[index]
            if point is None or index != start:  # (2.13 records a resumed step's state once)
                self._shell_state(agent, branch, current_sub_agent=sub_agent.name)
            opened = self.opened
            outcome = await self.run_sub_agent(sub_agent, branch)
            escalated = escalated or outcome.escalated
            if self.opened > opened:  # google-adk 2.13: the step paused; the rest waits
                self._paused_at(agent, index=index)
                return self.result(escalated=escalated)
        self._shell_end(agent, branch)
        return self.result(escalated=escalated)

    async def _run_loop(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        point = self.resume_points.pop(agent.name, None)  # a resumed pause: its round, step
        times_looped = point["times_looped"] if point else 0
        start = point["index"] if point else 0
        while agent.max_iterations is None or times_looped < agent.max_iterations:
            for index in range(start, len(agent.sub_agents)):
                sub_agent = agent.sub_agents[index]
                if point is None:  # (2.13 records a resumed step's state once)
                    self._shell_state(
                        agent, branch, current_sub_agent=sub_agent.name, times_looped=times_looped
                    )
                point = None
                opened = self.opened
                outcome = await self.run_sub_agent(sub_agent, branch)
                if self.opened > opened:  # google-adk 2.13: the step paused, so does the loop
                    self._paused_at(agent, index=index, times_looped=times_looped)
                    return self.result(escalated=outcome.escalated)
                if outcome.escalated:  # exit_loop ends every enclosing loop (ADK 2.x)
                    self._shell_end(agent, branch)
                    return self.result(escalated=True)
            start = 0
            times_looped += 1
        self._shell_end(agent, branch)
        return self.result()

    def _paused_at(self, agent: AgentSpec, **point: Any) -> None:
        """A resumable app resumes `agent` there once the pause is answered."""
        if self.context.resumable:
            self.resume_points[agent.name] = point

    def _paused_at_transfer(self, chain: list[str]) -> None:
        """A step that transferred (`chain`: it, then its targets) paused in its last
        target: a resumable app resumes that target (2.13's agent that transferred
        resumes its sub-agent), then ends the agents before it."""
        if self.context.resumable:
            self.resume_points[TRANSFERRED + chain[0]] = {"chain": chain}

    def _resume_points_of(self, agent: AgentSpec) -> dict[str, dict[str, Any]]:
        """The resume points of `agent`'s subtree, for the child that runs it."""
        names = [n for n in self.resume_points if agent.find(n.removeprefix(TRANSFERRED))]
        return {name: self.resume_points.pop(name) for name in names}

    def _shell_state(self, agent: AgentSpec, branch: str | None, **state: Any) -> None:
        """A resumable app's shell agent records where it is (google-adk 2.13's
        agent-state event: the sub-agent it starts, and the loop's round)."""
        if self.context.resumable and agent.sub_agents:
            self._add_pending(
                self.new_event(agent.name, branch, actions=EventActions(agent_state=state))
            )

    def _shell_end(self, agent: AgentSpec, branch: str | None) -> None:
        """... and that it ran to its end (2.13's end-of-agent marker)."""
        if self.context.resumable and agent.sub_agents:
            self._add_pending(
                self.new_event(agent.name, branch, actions=EventActions(end_of_agent=True))
            )

    async def _run_parallel(self, agent: AgentSpec, branch: str | None) -> AgentRunResult:
        """Branches run concurrently; state written by several: the later sub-agent wins."""
        start_temp = dict(self.temp_state)
        start_metadata = self.custom_metadata
        point = self.resume_points.pop(agent.name, None)  # a resumed pause: branches ended
        ended = set(point["ended"]) if point else set()
        if point is None:
            self._shell_state(agent, branch)
        opened = self.opened
        subs = [sub for sub in agent.sub_agents if sub.name not in ended]
        outcomes = await asyncio.gather(
            *(
                self.run_sub_agent(
                    sub,
                    f"{branch}.{agent.name}.{sub.name}" if branch else f"{agent.name}.{sub.name}",
                    report_state=True,  # the keys several branches wrote: see below
                )
                for sub in subs
            )
        )
        writers: dict[str, set[str]] = {}
        merged: dict[str, Any] = {}
        for outcome in outcomes:
            for key, value in outcome.state_delta.items():
                writers.setdefault(key, set()).add(repr(value))
                merged[key] = value
            for key, value in outcome.temp_state.items():
                if start_temp.get(key) != value:
                    self.temp_state[key] = value
        self._merge_metadata(start_metadata, outcomes)
        conflicts = {k: merged[k] for k, values in writers.items() if len(values) > 1}
        if conflicts:
            self._add_pending(
                self.new_event(agent.name, branch, actions=EventActions(state_delta=conflicts))
            )
        if self.opened == opened:
            self._shell_end(agent, branch)
        else:  # a branch paused: 2.13 records no end, and resumes only the paused ones
            ran = {sub.name for sub, o in zip(subs, outcomes, strict=True) if not o.deferred}
            self._paused_at(agent, ended=sorted(ended | ran))
        return self.result(escalated=any(o.escalated for o in outcomes))

    def _merge_metadata(self, start: dict[str, Any] | None, outcomes: list[AgentRunResult]) -> None:
        """The custom metadata after parallel branches: each branch's changes to what
        they were given, in branch order (google-adk 2.13's branches write one dict)."""
        given = (
            start
            if start is not None
            else without_internal_metadata(self.context.run_config.custom_metadata) or {}
        )
        merged, changed = dict(given), False
        for outcome in outcomes:
            written = outcome.custom_metadata
            if written is None or written == given:
                continue
            changed = True
            for key in given.keys() - written.keys():
                merged.pop(key, None)
            merged.update((k, v) for k, v in written.items() if k not in given or given[k] != v)
        self.custom_metadata = merged if changed else start

    # ── child workflows ─────────────────────────────────────────────────────

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
    ) -> AgentRunResult:
        """`node_path`: the run's own (a transfer target's); else it shares this run's.
        `nested`: see AgentRunInput.nested_transfers. `report_state`: this run needs the
        state the child writes (a ParallelAgent's branches); see AgentRunInput.reports_state."""
        await self.flush()  # the child reads the session: persist what we hold first
        self.check_stop()
        self.children += 1
        label = branch if branch and branch.endswith(agent.name) else agent.name
        info = workflow.info()
        path = f"{label}#{self.children}"  # a path: unique by construction
        child_id = (
            f"{info.workflow_id}/{path}"
            if info.parent
            else names.agent_run_id(info.workflow_id, self.invocation_id, path)
        )
        sent_calls = self.llm_calls
        self.running_children.append(child_id)
        # a child's summary names the agent (the root's holds the user's message); an
        # AgentTool's adds its arguments, which may not fit: its details hold them all
        summary = f"{agent.name} ({agent.kind})"
        asked = str(agent_tool.function_call.args) if agent_tool else None
        try:
            child = await workflow.start_child_workflow(
                names.AGENT_RUN_WORKFLOW,
                AgentRunInput(
                    context=self._child_context(child_id),
                    agent_name=agent.name,
                    branch=branch,
                    temp_state=dict(self.temp_state),
                    # an AgentTool's agent starts from the RunConfig's (2.13: its own Runner)
                    custom_metadata=None if agent_tool else self.custom_metadata,
                    llm_calls=sent_calls,
                    agent_tool=agent_tool,
                    # only when not the invocation's (a run inside an AgentTool's agent)
                    session=None if self.session == self.context.session else self.session,
                    invocation_id=None
                    if self.invocation_id == self.context.invocation_id
                    else self.invocation_id,
                    records_errors=records_errors,
                    node_path=self.node_path if node_path is None else node_path,
                    nested_transfers=nested,
                    shell_step=nested,  # (the flags above at a step's defaults: left out)
                    changes=generation(),
                    reports_state=report_state or self.reports_state,
                    # (an AgentTool's run is never resumed: it takes none, even when
                    # its agent shares a name with one of the tree that paused)
                    resume=self._resume_points_of(agent)
                    if self.resume_points and agent_tool is None
                    else {},
                ),
                id=child_id,
                result_type=AgentRunResult,
                static_summary=f"{summary} · {asked}"[:200] if asked else summary,
                static_details=f"agent **{agent.name}**\n\n{asked}" if asked else None,
                # set at start, no update
                search_attributes=names.child_search_attributes(
                    self.context.session.session_id, agent.name
                ),
                parent_close_policy=workflow.ParentClosePolicy.REQUEST_CANCEL,
            )
            if self.stopping is not None:  # a stop sent while it started may have missed it
                await child.signal(names.SIGNAL_STOP, self.stopping)
            outcome: AgentRunResult = await child
        except ChildWorkflowError as error:
            if isinstance(error.cause, CancelledError):
                # cancelled with this workflow (or by hand): end cancelled, not failed
                raise CancelledError(f"Agent {agent.name} was cancelled.") from error
            error_type, message = failure_message(error)
            raise ApplicationError(
                f"Agent {agent.name} failed: {message}", type=error_type, non_retryable=True
            ) from error
        finally:
            self.running_children.remove(child_id)
        self.llm_calls += outcome.llm_calls - sent_calls  # parallel children all count
        await self.adopt(outcome)
        if agent_tool is None:
            self.temp_state = dict(outcome.temp_state)
            self.adopt_metadata(outcome.custom_metadata)
            self.state_delta.update(outcome.state_delta)
            self.event_count += outcome.event_count
            if outcome.final_text is not None:
                self.final_text = outcome.final_text
            self.last_author = outcome.last_author or self.last_author
        self.transcript.lines.append(f"↳ *{agent.name}* ({agent.kind}) done")
        self.show()
        return outcome

    def _child_context(self, child_id: str) -> RunContext:
        """The run context as a child's input carries it: the tree by digest when it has
        one (workflows/_specs.py), and without what the child's workflow id names (its
        session, invocation and root workflow: `names.agent_run_origin`). (Histories
        from before hold an `asked` field, the user's message: read and ignored.)"""
        context = self.context
        update: dict[str, Any] = {}
        if context.root_digest:
            update["root"] = None
        session = context.session
        named = (context.root_workflow_id, context.invocation_id, session.key())
        if session.artifact_session is None and names.agent_run_origin(child_id) == named:
            update.update(session=named_by_id(), invocation_id="", root_workflow_id="")
        return context.model_copy(update=update)

    async def _agent_callback(
        self, agent: AgentSpec, branch: str | None, when: str, *, node_path: str | None = None
    ) -> AgentCallbackOutput:
        """`node_path`: the agent's run's, when not this workflow's (a deferred callback)."""
        await self.flush()
        try:
            output = await self._agent_callback_activity(agent, branch, when, node_path)
        except ActivityError as error:
            error_type, message = failure_message(error)
            failure = ApplicationError(message, type=error_type, non_retryable=True)
            failure.__cause__ = error
            self.record_error(agent, branch, failure)
            raise failure from error
        self.apply_temp(output.temp_delta)
        self.adopt_metadata(output.custom_metadata)
        if output.event is not None:
            self.record(output.event)
        return output

    async def _agent_callback_activity(
        self, agent: AgentSpec, branch: str | None, when: str, node_path: str | None = None
    ) -> AgentCallbackOutput:
        ref = self.ref(agent, branch)
        if node_path is not None:
            ref.node_path = node_path
        return await workflow.execute_activity(
            names.AGENT_CALLBACK,
            AgentCallbackInput(
                ref=ref,
                when=when,  # type: ignore[arg-type]
                event_id=str(workflow.uuid4()),
                timestamp=workflow.now().timestamp(),
            ),
            result_type=AgentCallbackOutput,
            summary=f"{when}_agent_callback · {agent.name}",
            **BOOKKEEPING,
        )
