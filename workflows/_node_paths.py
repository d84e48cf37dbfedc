"""Node paths: where in the agent tree an event was produced (Event.node_info.path).

Runs on: workflow (Temporal sandbox; pure, deterministic).

google-adk 2.13 runs a root LlmAgent as a workflow node and stamps each event
with the path of the agent run that produced it, observed on 2.13:

- a segment is `name@N`; a path lists the agent's ancestors in the agent tree
  from the root, each at its latest run in this invocation, then the agent at
  its new run: N counts the runs of that agent under that same parent path,
  from 1, afresh in every invocation (root -> a -> c -> a -> root -> a gives
  root@1, root@1/a@1, root@1/a@1/c@1, root@1/a@2, root@2, root@2/a@1);
- the agent the invocation starts with (ADK's _find_agent_to_run) counts its
  ancestors as run once: picking `c` gives root@1/a@1/c@1;
- a Sequential/Parallel/Loop agent reached this way has a segment of its own,
  and every event of its sub-agents (every iteration of a loop) carries its
  path: root@1/loop@1;
- a root that is not an LlmAgent (Sequential/Parallel/Loop) runs the legacy
  way: every event's path is empty, as are user events' everywhere;
- an AgentTool's agent runs in a Runner of its own: root of its own tree.
"""

from __future__ import annotations

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from .contracts import AgentSpec


class NodePaths:
    """The run counters of one chain of agent runs (an invocation's transfers)."""

    def __init__(self, root: AgentSpec) -> None:
        self.root = root
        self.runs: dict[str, int] = {}
        """`parent path/name` -> runs of that agent under that parent run."""
        self.latest: dict[str, str] = {}
        """Agent name -> the path of its latest run."""

    @staticmethod
    def for_root(root: AgentSpec) -> NodePaths | None:
        """Counters for an invocation of `root`; None when ADK gives no paths (not an LlmAgent)."""
        return NodePaths(root) if root.kind == "llm" else None

    def start(self, agent: AgentSpec) -> str:
        """The path of a new run of `agent` (its ancestors at their latest run)."""
        parent = self.root.parent_of(agent.name)
        parent_path = self._current(parent) if parent is not None else ""
        key = f"{parent_path}/{agent.name}"
        run = self.runs[key] = self.runs.get(key, 0) + 1
        path = f"{parent_path}/{agent.name}@{run}" if parent_path else f"{agent.name}@{run}"
        self.latest[agent.name] = path
        return path

    def start_first(self, agent: AgentSpec) -> str:
        """The invocation's first agent: its ancestors count as run once."""
        for ancestor in self._ancestors(agent):
            self.start(ancestor)
        return self.start(agent)

    def _current(self, agent: AgentSpec) -> str:
        if agent.name not in self.latest:
            self.start(agent)
        return self.latest[agent.name]

    def _ancestors(self, agent: AgentSpec) -> list[AgentSpec]:
        chain: list[AgentSpec] = []
        parent = self.root.parent_of(agent.name)
        while parent is not None:
            chain.insert(0, parent)
            parent = self.root.parent_of(parent.name)
        return chain
