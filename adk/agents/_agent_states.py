"""A resumable invocation's agent states, as google-adk 2.13's InvocationContext keeps them.

Runs on: both sides (pure): mixed into the activities' InvocationContext and into the
`ctx` a custom agent's orchestration gets in the workflow.

`agent_states` (agent name -> its state, JSON) and `end_of_agents` (agent name ->
whether it ran to its end) live in memory, for the agent's own run; they reach the
session only through an event the agent yields (`BaseAgent._create_agent_state_event`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..events.event import Event
    from .base_agent import BaseAgentState


class AgentStates:
    """google-adk 2.13's resumability helpers (needs `agent_states`, `end_of_agents`,
    `agent` and `is_resumable` on the class it is mixed into)."""

    agent_states: dict[str, dict[str, Any]]
    end_of_agents: dict[str, bool]
    agent: Any

    @property
    def is_resumable(self) -> bool:
        raise NotImplementedError  # (each context says)

    def set_agent_state(
        self,
        agent_name: str,
        *,
        agent_state: BaseAgentState | None = None,
        end_of_agent: bool = False,
    ) -> None:
        """End the agent (its state cleared), set its state (not ended), or clear both
        (it may run again)."""
        if end_of_agent:
            self.end_of_agents[agent_name] = True
            self.agent_states.pop(agent_name, None)
        elif agent_state is not None:
            self.agent_states[agent_name] = agent_state.model_dump(mode="json")
            self.end_of_agents[agent_name] = False
        else:
            self.end_of_agents.pop(agent_name, None)
            self.agent_states.pop(agent_name, None)

    def reset_sub_agent_states(self, agent_name: str) -> None:
        """Clear the states of every agent under `agent_name` (each starts fresh)."""
        find = getattr(self.agent, "find_agent", None)
        agent = find(agent_name) if find is not None else None
        if agent is None:
            return
        for sub_agent in agent.sub_agents:
            self.set_agent_state(sub_agent.name)
            self.reset_sub_agent_states(sub_agent.name)

    def should_pause_invocation(self, event: Event) -> bool:
        """Whether a resumable invocation pauses after `event`: it calls a long-running
        tool (a confirmation request too)."""
        ids = event.long_running_tool_ids or set()
        return any(call.id in ids for call in event.get_function_calls())
