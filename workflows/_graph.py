"""The scheduler of a google.adk.workflow Workflow root (docs/design/workflow-graph.md §2.3).

Runs on: workflow (Temporal sandbox; deterministic). Slice S1 of the plan: unrouted
edges between function (or custom) nodes, fan-out included, non-resumable; what else a
graph may use is refused before it runs (adk/workflow/_gaps.py).

A port of google-adk 2.13's `Workflow._run_loop` over the recorded GraphSpec:
START's successors get the user's message; triggers are buffered per node (FIFO, the
buffer in arrival order); ready nodes start together, one run of a node at a time;
completions are handled in scheduling order (never by completion time: replay sees the
same order); a node's output triggers its successors, each on a sub-branch
`<branch>.<name>@<run>` when there are several, else on the node's branch. Each run is
`name@N` under `wf@1` (N counting that node's runs) and one `adk.run_node` activity
(node code is user code) that records the run's events itself. The output of a
terminal node (no outgoing edge) is also the workflow's (`output_for` names both); two
terminal outputs fail the run (2.13's WorkflowConfigurationError, with the workflow's
error event). A node's exception: its error event is recorded, the nodes done in the
same tick are completed, the others cancelled, and the invocation fails with that
exception, as 2.13's runner re-raises it to the caller.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from google.genai import types

    from adk.activity_options import TOOL_DEFAULTS

    from . import names
    from ._options import activity_kwargs
    from ._runtime import AgentRuntime
    from .contracts import AgentSpec, GraphSpec, NodeRunInput, NodeRunOutput
    from .errors import adk_error

START = "__START__"


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
    def __init__(self, runtime: AgentRuntime, graph: GraphSpec) -> None:
        self.runtime = runtime
        self.graph = graph
        self.path = f"{graph.name}@1"
        self.counters: dict[str, int] = {}
        self.buffer: dict[str, list[_Trigger]] = {}
        """Triggers waiting, by node, in arrival order (a node's key goes last when its
        list empties and it is triggered again, as 2.13's dict)."""
        self.running: dict[str, _Run] = {}
        """In scheduling order."""
        self.outputs: dict[str, Any] = {}
        """The latest output of each node that had one."""

    def seed(self, message: types.Content | None) -> None:
        starts = self.graph.successors(START)
        for name in starts:
            self.buffer.setdefault(name, []).append(_Trigger(message, len(starts) > 1))

    async def run(self) -> None:
        failure: BaseException | None = None
        while True:
            self._schedule()
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

    def _schedule(self) -> None:
        for name in list(self.buffer):
            if name in self.running:
                continue
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
            task = asyncio.ensure_future(self._start(name, path, branch, trigger.input))
            self.running[name] = _Run(name, path, task)

    async def _start(
        self, name: str, path: str, branch: str | None, node_input: Any
    ) -> NodeRunOutput:
        runtime = self.runtime
        ref = runtime.ref(AgentSpec(name=self.graph.name, kind="custom"), branch)
        ref.node_path = path
        content = node_input if isinstance(node_input, types.Content) else None
        return await workflow.execute_activity(
            names.RUN_NODE,
            NodeRunInput(
                ref=ref,
                node_name=name,
                node_input=None if content is not None else node_input,
                content_input=content,
                output_for=[self.path] if name in self.graph.terminal else [],
                event_seed=str(workflow.uuid4()),
            ),
            result_type=NodeRunOutput,
            summary=f"node {name} ({path})",
            **activity_kwargs(None, TOOL_DEFAULTS),
        )

    async def _complete(self, name: str, run: _Run) -> BaseException | None:
        """Record the run's events; trigger its successors, or return its failure."""
        del self.running[name]
        result = run.task.result()
        runtime = self.runtime
        runtime.adopt_metadata(result.custom_metadata)
        for event in result.events:  # (the activity recorded them)
            runtime.apply_temp(event.actions.state_delta)
            runtime.record(event)
        if result.error is not None:
            error = result.error
            return error.as_application_error(
                f"{error.name} in node {name} ({run.path}): {error.message}"
            )
        if result.has_output:
            self.outputs[name] = result.output
        else:
            self.outputs.pop(name, None)
        targets = self.graph.successors(name)
        output = result.output if result.has_output else None
        for target in targets:
            trigger = _Trigger(output, len(targets) > 1, result.branch)
            self.buffer.setdefault(target, []).append(trigger)
        return None

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


async def run_graph(runtime: AgentRuntime, graph: GraphSpec, message: types.Content | None) -> None:
    """Run the graph from START to its end (its nodes' events recorded as they end)."""
    scheduler = _Scheduler(runtime, graph)
    scheduler.seed(message)
    await scheduler.run()
