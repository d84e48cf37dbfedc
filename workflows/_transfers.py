"""Which agent a transfer_to_agent may name: google-adk 2.13's checks and exceptions.

Runs on: workflow (Temporal sandbox; pure, deterministic).

google-adk 2.13 checks a transfer in two places, with different rules and texts,
observed on 2.13 (the model's call and the tool's response are recorded first,
then the exception ends the invocation with no error event):

- an agent that runs as a workflow node (an LlmAgent root and the agents it
  transfers to; workflow/utils/_transfer_utils.py): itself -> WorkflowDataError;
  a sub-agent -> fine; the parent -> WorkflowDataError if
  disallow_transfer_to_parent; a peer -> WorkflowDataError if
  disallow_transfer_to_peers; no such agent in the tree -> ValueError "not
  found"; any other agent of the tree -> ValueError "unrelated agent" listing
  every agent of the tree;
- an agent under a Sequential/Parallel/Loop agent, or under a root that is not
  an LlmAgent (the legacy flow, core/_function_call_postprocessor.py): no such
  agent -> ValueError; itself or a target its transfer_to_agent declares (its
  sub-agents; an LlmAgent parent and its sub-agents, as its flags allow) ->
  fine; else ValueError "not allowed".
"""

from __future__ import annotations

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from .contracts import AgentSpec
    from .errors import adk_error


def checked_target(root: AgentSpec, agent: AgentSpec, name: str, *, as_node: bool) -> AgentSpec:
    """The agent `agent` (of the tree `root`) transfers to, or 2.13's exception.

    `as_node`: `agent` runs as a workflow node (this runtime keeps node paths)."""
    return _as_node(root, agent, name) if as_node else _legacy(root, agent, name)


def _as_node(root: AgentSpec, agent: AgentSpec, name: str) -> AgentSpec:
    if name == agent.name:
        raise _data_error(f"Agent '{name}' cannot transfer to itself.")
    if child := _sub_agent(agent, name):
        return child
    parent = root.parent_of(agent.name)
    if parent is not None and parent.name == name:  # before the peers, as in 2.13
        if agent.disallow_transfer_to_parent:
            raise _data_error(
                f"Cannot transfer from '{agent.name}' to parent agent"
                f" '{name}': disallow_transfer_to_parent is set."
            )
        return parent
    if peer := _sub_agent(parent, name):
        if agent.disallow_transfer_to_peers:
            raise _data_error(
                f"Cannot transfer from '{agent.name}' to peer agent"
                f" '{name}': disallow_transfer_to_peers is set."
            )
        return peer
    if root.find(name) is None:
        raise _value_error(f"Transfer target agent '{name}' not found.")
    # LlmAgent._get_available_agent_names: the whole tree, depth first
    names = [a.name for a in root.walk()] if agent.kind == "llm" else []
    available = f"\nAvailable agents: {', '.join(names)}" if names else ""
    raise _value_error(
        f"Cannot transfer from '{agent.name}' to unrelated agent '{name}'.{available}"
    )


def _legacy(root: AgentSpec, agent: AgentSpec, name: str) -> AgentSpec:
    target = root.find(name)
    if target is None:
        raise _value_error(f"Agent {name} not found in the agent tree.")
    if agent.kind != "llm" or name == agent.name:
        return target
    for declared in _declared_targets(root, agent):
        if declared.name == name:
            return declared
    raise _value_error(f"Agent {agent.name} is not allowed to transfer to agent {name}.")


def _declared_targets(root: AgentSpec, agent: AgentSpec) -> list[AgentSpec]:
    """What the agent's transfer_to_agent declaration lists (adk/flows/llm_flows/
    agent_transfer.py get_transfer_targets, on the spec)."""
    targets = list(agent.sub_agents)
    parent = root.parent_of(agent.name)
    if parent is None or parent.kind != "llm":
        return targets
    if not agent.disallow_transfer_to_parent:
        targets.append(parent)
    if not agent.disallow_transfer_to_peers:
        targets.extend(peer for peer in parent.sub_agents if peer.name != agent.name)
    return targets


def _sub_agent(agent: AgentSpec | None, name: str) -> AgentSpec | None:
    if agent is None:
        return None
    return next((sub for sub in agent.sub_agents if sub.name == name), None)


def _value_error(message: str) -> ApplicationError:
    return adk_error("builtins", "ValueError", message)


def _data_error(message: str) -> ApplicationError:
    return adk_error("adk.workflow._errors", "WorkflowDataError", message)
