"""The scheduler of a google.adk.workflow Workflow root (docs/design/workflow-graph.md §2.3).

Runs on: workflow (Temporal sandbox; deterministic). Slices S1-S3 and S5 of the plan: function
(or custom) nodes and JoinNodes, unrouted and routed edges (route lists,
DEFAULT_ROUTE, cycles taken by routes), `wait_for_output`, `max_concurrency`,
non-resumable; what else a graph may use is refused before it runs
(adk/workflow/_gaps.py).

A port of google-adk 2.13's `Workflow._run_loop` over the recorded GraphSpec:
START's successors get the user's message; triggers are buffered per node (FIFO, the
buffer in arrival order); ready nodes start together up to `max_concurrency`, one run
of a node at a time; completions are handled in scheduling order (never by completion
time: replay sees the same order); a completed node's output triggers the targets its
route selects (GraphSpec.next_nodes), each on a sub-branch `<branch>.<name>@<run>`
when there are several, else on the node's branch; a JoinNode fires once every
predecessor has completed since its last firing, with `{predecessor: output}` (in edge
order; 2.13 iterates a set) on their branches' common prefix. A `wait_for_output` node
whose run has neither output nor route stays waiting (its downstream untriggered; a
later trigger runs it again). Each run is `name@N` under `wf@1` (N counting that node's
runs: a loop's passes are `@1`, `@2`, ...) and one `adk.run_node` activity (node code
is user code) that records the run's events itself. The output of a terminal node (no
outgoing edge) is also the workflow's (`output_for` names both); two terminal outputs
fail the run (2.13's WorkflowConfigurationError, with the workflow's error event). A
node's exception: its error event is recorded; under the node's `retry_config` the
run is retried (a durable timer for 2.13's jittered delay, jitter from the workflow's
random, then the next attempt's activity; the activity enforces `timeout`); otherwise
the nodes done in the same tick are completed, the others cancelled, and the
invocation fails with that exception, as 2.13's runner re-raises it to the caller.
A nested Workflow node runs inline: a scheduler of its own under its run's path, its
nodes' events authored by it, its terminal output its output.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import TOOL_DEFAULTS
    from adk.events.event_actions import EventActions
    from adk.workflow._retry_config import retry_delay, should_retry

    from . import names
    from ._options import activity_kwargs
    from ._runtime import AgentRuntime
    from .contracts import AgentSpec, GraphSpec, NodeRunInput, NodeRunOutput
    from .errors import adk_error

START = "__START__"

_TIMEOUT_MARGIN = timedelta(minutes=1)
"""How much longer than a node's `timeout` Temporal lets its activity run."""

_RUNNING, _COMPLETED, _WAITING, _FAILED = 2, 3, 4, 5
"""google-adk 2.13's NodeStatus values (a resumable app's checkpoints record them)."""


@dataclass
class _Trigger:
    input: Any
    sub_branch: bool
    branch: str | None = None


@dataclass
class _Run:
    name: str
    path: str
    task: asyncio.Task[NodeRunOutput]


class _Scheduler:
    def __init__(
        self,
        runtime: AgentRuntime,
        graph: GraphSpec,
        path: str | None = None,
        output_for: list[str] | None = None,
        graph_path: list[str] | None = None,
    ) -> None:
        self.runtime = runtime
        self.graph = graph
        self.path = path or f"{graph.name}@1"
        self.output_for = output_for or []
        """The enclosing workflows whose output this one's output also is (a nested
        Workflow that is its parent's terminal node: the parent's path, and so on)."""
        self.graph_path = graph_path or []
        """The nested Workflows' names from the root's graph down to this one."""
        self.counters: dict[str, int] = {}
        self.buffer: dict[str, list[_Trigger]] = {}
        """Triggers waiting, by node, in arrival order (a node's key goes last when its
        list empties and it is triggered again, as 2.13's dict)."""
        self.running: dict[str, _Run] = {}
        """In scheduling order."""
        self.outputs: dict[str, Any] = {}
        """The latest output of each node that had one."""
        self.branches: dict[str, str] = {}
        """The branch each completed node ended on ("" for none)."""
        self.status: dict[str, int] = {}
        """Each started node's latest run: running, completed, waiting or failed."""
        self.arrivals: dict[str, list[str]] = {}
        """A join's predecessors that completed since it last fired (membership only)."""

    def seed(self, message: Any, branch: str | None = None) -> None:
        starts = self.graph.successors(START)
        for name in starts:
            if self.graph.node(name).join:  # START's part counts as arrived
                self.outputs[START] = message
                self.branches[START] = ""
                self._buffer_join(name)
                continue
            trigger = _Trigger(message, len(starts) > 1, branch)
            self.buffer.setdefault(name, []).append(trigger)

    async def run(self) -> None:
        if not self.graph_path:
            await self._run()
            return
        if not self.graph.edges:  # 2.13: a Workflow without edges runs nothing, says nothing
            return
        try:
            await self._run()
        except asyncio.CancelledError:  # a nested Workflow cancelled: its runs too
            await self._cancel_the_rest()
            raise

    async def _run(self) -> None:
        failure: BaseException | None = None
        while True:
            await self._schedule()
            if not self.running:
                break
            await workflow.wait(
                [run.task for run in self.running.values()],
                return_when=asyncio.FIRST_COMPLETED,
            )
            # which runs are done is read once, before any await: a completion that
            # arrives meanwhile waits for the next round
            done = [(name, run) for name, run in self.running.items() if run.task.done()]
            for name, run in done:  # in scheduling order; the first failure is the one
                outcome = await self._complete(name, run)
                failure = failure or outcome
            if failure is not None:
                await self._cancel_the_rest()
                raise failure
        await self._finalize()
        runtime = self.runtime
        if runtime.context.resumable:  # 2.13: a clean finish says so
            end = runtime.new_event(self.graph.name, None, actions=EventActions(end_of_agent=True))
            runtime._add_pending(end)
            await runtime.flush()

    async def _schedule(self) -> None:
        limit = self.graph.max_concurrency
        starts: list[tuple[str, str, str | None, Any]] = []
        for name in list(self.buffer):
            if name in self.running:
                continue
            if limit is not None and limit > 0 and len(self.running) + len(starts) >= limit:
                break
            self.status[name] = _RUNNING
            trigger = self.buffer[name].pop(0)
            if not self.buffer[name]:
                del self.buffer[name]
            self.counters[name] = self.counters.get(name, 0) + 1
            run_id = str(self.counters[name])
            if trigger.sub_branch:
                base = trigger.branch
                branch: str | None = f"{base}.{name}@{run_id}" if base else f"{name}@{run_id}"
            else:
                branch = trigger.branch or None
            path = f"{self.path}/{name}@{run_id}"
            self._checkpoint()
            starts.append((name, path, branch, trigger.input))
        if self.runtime.context.resumable and self.runtime.pending:
            # the round's checkpoints are stored before its nodes record anything (each
            # node's activity records its own events): one flush per round
            await self.runtime.flush()
        for name, path, branch, node_input in starts:
            task = asyncio.ensure_future(self._start(name, path, branch, node_input))
            self.running[name] = _Run(name, path, task)

    def _checkpoint(self) -> None:
        """A resumable app's checkpoint (2.13's `_emit_node_checkpoint`): every node
        started so far with its latest run's status (interrupts: none yet), authored by
        the workflow, no node path; stored by the next round's flush. Nothing for other
        apps."""
        runtime = self.runtime
        if not runtime.context.resumable:
            return
        nodes = {name: {"status": status, "interrupts": []} for name, status in self.status.items()}
        event = runtime.new_event(
            self.graph.name, None, actions=EventActions(agent_state={"nodes": nodes})
        )
        runtime._add_pending(event)

    async def _start(
        self, name: str, path: str, branch: str | None, node_input: Any
    ) -> NodeRunOutput:
        """Run the node: one activity per attempt; a failed attempt is retried under its
        `retry_config` as 2.13's NodeRunner retries it (its error event recorded, then a
        delay drawn from the workflow's random). The last attempt's result is returned;
        the earlier ones' events are recorded here."""
        spec = self.graph.node(name)
        if spec.graph is not None:
            return await self._nested(name, path, branch, node_input, spec.graph)
        attempt = 1
        while True:
            result = await self._attempt(name, path, branch, node_input, attempt)
            error = result.error
            classes = result.error_classes or ([error.name] if error is not None else [])
            if error is None or not should_retry(spec.retry, attempt, classes):
                return result
            self._record(result)
            delay = retry_delay(spec.retry, attempt, workflow.random().uniform)
            if delay > 0:
                await workflow.sleep(delay, summary=f"retry node {name} ({path})")
            workflow.logger.warning(
                "Node %s failed and is being retried locally. Note: retry count is"
                " not persisted across resuming.",
                name,
            )
            attempt += 1

    async def _nested(
        self, name: str, path: str, branch: str | None, node_input: Any, graph: GraphSpec
    ) -> NodeRunOutput:
        """A nested Workflow node, inline: its own scheduler under `path`, its nodes'
        events authored by it; its output is its terminal node's (whose `output_for`
        names it, and this workflow too when it is terminal here). A failure inside is
        raised (the task's exception: `_complete` takes it as this node's)."""
        ancestors = [self.path, *self.output_for] if name in self.graph.terminal else []
        inner = _Scheduler(self.runtime, graph, path, ancestors, [*self.graph_path, name])
        inner.seed(node_input, branch)
        await inner.run()
        produced = [n for n in graph.terminal if n in inner.outputs]
        if not produced:
            return NodeRunOutput(branch=branch)
        return NodeRunOutput(output=inner.outputs[produced[0]], has_output=True, branch=branch)

    async def _attempt(
        self, name: str, path: str, branch: str | None, node_input: Any, attempt: int
    ) -> NodeRunOutput:
        runtime = self.runtime
        timeout = self.graph.node(name).timeout
        ref = runtime.ref(AgentSpec(name=self.graph.name, kind="custom"), branch)
        ref.node_path = path
        content = node_input if isinstance(node_input, types.Content) else None
        options = activity_kwargs(None, TOOL_DEFAULTS)
        if timeout is not None:  # the activity enforces it; Temporal's limit comes later
            limit = timedelta(seconds=timeout) + _TIMEOUT_MARGIN
            options["start_to_close_timeout"] = max(options["start_to_close_timeout"], limit)
        return await workflow.execute_activity(
            names.RUN_NODE,
            NodeRunInput(
                ref=ref,
                node_name=name,
                graph_path=self.graph_path,
                node_input=None if content is not None else node_input,
                content_input=content,
                output_for=[self.path, *self.output_for] if name in self.graph.terminal else [],
                event_seed=str(workflow.uuid4()),
                attempt=attempt,
                timeout=timeout,
            ),
            result_type=NodeRunOutput,
            summary=f"node {name} ({path})" + (f" attempt {attempt}" if attempt > 1 else ""),
            **options,
        )

    def _record(self, result: NodeRunOutput) -> None:
        """Take in a run's events (the activity recorded them)."""
        runtime = self.runtime
        runtime.adopt_metadata(result.custom_metadata)
        for event in result.events:
            runtime.apply_temp(event.actions.state_delta)
            runtime.record(event)

    async def _complete(self, name: str, run: _Run) -> BaseException | None:
        """Record the run's events; trigger its successors, or return its failure."""
        del self.running[name]
        if self.graph.node(name).graph is not None and run.task.exception() is not None:
            self.status[name] = _FAILED  # a nested Workflow's node failed: so did it
            return run.task.exception()
        result = run.task.result()
        self._record(result)
        if result.error is not None:
            self.status[name] = _FAILED
            error = result.error
            return error.as_application_error(
                f"{error.name} in node {name} ({run.path}): {error.message}"
            )
        output = result.output if result.has_output else None
        if self.graph.node(name).wait_for_output and output is None and result.route is None:
            self.status[name] = _WAITING  # downstream not triggered; a trigger reruns it
            self._checkpoint()
            return None
        self.status[name] = _COMPLETED
        self._checkpoint()
        if result.has_output:
            self.outputs[name] = result.output
        else:
            self.outputs.pop(name, None)
        self.branches[name] = result.branch or ""
        targets = self._next_nodes(name, result.route)
        for target in targets:
            if self.graph.node(target).join:
                arrived = self.arrivals.setdefault(target, [])
                if name not in arrived:
                    arrived.append(name)
                self._buffer_join(target)
            else:
                trigger = _Trigger(output, len(targets) > 1, result.branch)
                self.buffer.setdefault(target, []).append(trigger)
        return None

    def _next_nodes(self, name: str, route: Any) -> list[str]:
        targets = self.graph.next_nodes(name, route)
        if not targets and any(e.source == name and e.route is not None for e in self.graph.edges):
            workflow.logger.warning(
                "Node '%s' has conditional/DEFAULT edges but none were matched by the"
                " emitted route(s): %s. The branch will end.",
                name,
                route,
            )
        return targets

    def _buffer_join(self, target: str) -> None:
        """Trigger the join `target` once every predecessor has completed since it last
        fired (START counts as arrived): its input `{predecessor: output}`, its branch
        the predecessors' branches' common prefix."""
        predecessors = self.graph.predecessors(target)
        arrived = self.arrivals.get(target, [])
        for pred in predecessors:
            if pred != START and (pred not in arrived or self.status.get(pred) != _COMPLETED):
                return
        self.arrivals.pop(target, None)
        inputs = {pred: self.outputs.get(pred) for pred in predecessors}
        branch = _common_prefix([self.branches.get(pred, "") for pred in predecessors])
        self.buffer.setdefault(target, []).append(_Trigger(inputs, False, branch))

    async def _cancel_the_rest(self) -> None:
        for run in self.running.values():
            run.task.cancel()
        await asyncio.gather(*(run.task for run in self.running.values()), return_exceptions=True)
        self.running.clear()

    async def _finalize(self) -> None:
        produced = [name for name in self.graph.terminal if name in self.outputs]
        if len(produced) > 1:
            message = (
                f"Workflow {self.graph.name}: multiple terminal nodes produced output"
                f" ({len(produced)}). A workflow must have at most one terminal output."
            )
            event = self.runtime.new_event(
                self.graph.name,
                None,
                error_code="WorkflowConfigurationError",
                error_message=message,
            )
            event.node_info.path = self.path
            self.runtime._add_pending(event)
            await self.runtime.flush()
            raise adk_error("adk.workflow._errors", "WorkflowConfigurationError", message)


def _common_prefix(branches: list[str]) -> str:
    """The common leading segments of dot-separated branches ("" when none)."""
    paths = [branch.split(".") if branch else [] for branch in branches]
    common: list[str] = []
    for segments in zip(*paths, strict=False):
        if any(segment != segments[0] for segment in segments):
            break
        common.append(segments[0])
    return ".".join(common)


async def run_graph(runtime: AgentRuntime, graph: GraphSpec, message: types.Content | None) -> None:
    """Run the graph from START to its end (its nodes' events recorded as they end)."""
    scheduler = _Scheduler(runtime, graph)
    scheduler.seed(message)
    await scheduler.run()
