"""Node paths: where in the agent tree an event was produced (Event.node_info.path).

Runs on: workflow (Temporal sandbox; pure, deterministic).

google-adk 2.13 runs a root LlmAgent as a workflow node and stamps each event
with the path of the agent run that produced it, observed on 2.13:

- a segment is `name@N`; every agent run has a path and runs *under* a
  context: the run of an ancestor, or the turn's top (no context);
- the agent the invocation starts with (ADK's _find_agent_to_run) runs at the
  top; a run at the top takes the agent's ancestors from the agent tree, each
  at run 1, then `name@N`, N counting the agent's runs at the top (picking `c`
  gives root@1/a@1/c@1), and every run id in that path counts as used under
  its own parent path;
- a run under a context with path P is `P/name@N`, N counting the runs of
  that agent under P, from 1, afresh in every invocation;
- a transfer to a sub-agent runs it under the transferring run; to a peer,
  under the transferring run's context; to the parent, under the context of
  the parent's run found up the chain of contexts, else at the top (a turn
  that started at a nested agent has no such run: root@1/a@1/c@1 -> a gives
  root@1/a@1, then a -> root gives root@2; root -> a -> c -> a -> root -> a
  gives root@1, root@1/a@1, root@1/a@1/c@1, root@1/a@2, root@2, root@2/a@1);
- a Sequential/Parallel/Loop agent reached this way has a segment of its own,
  and every event of its sub-agents (every iteration of a loop) carries its
  path: root@1/loop@1;
- a root that is not an LlmAgent (Sequential/Parallel/Loop) runs the legacy
  way: every event's path is empty, as are user events' everywhere;
- an AgentTool's agent runs in a Runner of its own: root of its own tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from .contracts import AgentSpec


@dataclass
class _Run:
    name: str
    path: str
    under: _Run | None
    """The context it runs under: a run of an ancestor, or None (the turn's top)."""


class NodePaths:
    """The runs of one chain of agent runs (an invocation's transfers)."""

    def __init__(self, root: AgentSpec) -> None:
        self.root = root
        self.counts: dict[str, dict[str, int]] = {}
        """Context path ("" the top) -> agent name -> its runs under that context."""
        self.current: _Run | None = None
        """The latest run: the one that transfers next."""

    @staticmethod
    def for_root(root: AgentSpec) -> NodePaths | None:
        """Counters for an invocation of `root`; None when ADK gives no paths (not an LlmAgent)."""
        return NodePaths(root) if root.kind == "llm" else None

    def start_first(self, agent: AgentSpec) -> str:
        """The invocation's first agent: it runs at the top."""
        return self._run(agent.name, None)

    def transfer(self, target: AgentSpec) -> str:
        """The path of `target`'s run, the current run transferring to it (a sub-agent,
        the parent or a peer: workflows/_transfers.py checked it)."""
        current = self.current
        if current is None:
            return self.start_first(target)
        agent = self.root.find(current.name)
        if agent is not None and any(sub.name == target.name for sub in agent.sub_agents):
            return self._run(target.name, current)
        parent = self.root.parent_of(current.name)
        if parent is not None and parent.name == target.name:
            run: _Run | None = current
            while run is not None and run.name != target.name:
                run = run.under
            return self._run(target.name, run.under if run is not None else None)
        return self._run(target.name, current.under)

    def _run(self, name: str, under: _Run | None) -> str:
        if under is not None:
            path = f"{under.path}/{name}@{self._next(under.path, name)}"
        else:
            ancestors = "".join(f"{a.name}@1/" for a in self._ancestors(name))
            path = f"{ancestors}{name}@{self._next('', name)}"
            self._reserve(path)
        self.current = _Run(name, path, under)
        return path

    def _next(self, context: str, name: str) -> int:
        counts = self.counts.setdefault(context, {})
        counts[name] = counts.get(name, 0) + 1
        return counts[name]

    def _reserve(self, path: str) -> None:
        """Every run id of a path taken at the top counts as used under its parent path."""
        segments = path.split("/")
        for depth, segment in enumerate(segments):
            name, _, run = segment.rpartition("@")
            counts = self.counts.setdefault("/".join(segments[:depth]), {})
            counts[name] = max(counts.get(name, 0), int(run))

    def _ancestors(self, name: str) -> list[AgentSpec]:
        chain: list[AgentSpec] = []
        parent = self.root.parent_of(name)
        while parent is not None:
            chain.insert(0, parent)
            parent = self.root.parent_of(parent.name)
        return chain
