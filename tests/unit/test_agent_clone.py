"""BaseAgent.clone as google-adk 2.13's: a detached copy with its own sub-agents and lists.

Runs on: test process.
"""

from __future__ import annotations

import pytest

from adk.agents import LlmAgent, SequentialAgent


def test_clone_copies_the_tree_and_detaches_it() -> None:
    def tool(x: int) -> int:
        """A tool."""
        return x

    child = LlmAgent(name="child", model="gemini-2.5-flash", tools=[tool])
    root = SequentialAgent(name="root", sub_agents=[child])
    copy = root.clone(update={"name": "copy"})
    assert (copy.name, root.name) == ("copy", "root")
    assert copy.parent_agent is None
    [copied_child] = copy.sub_agents
    assert copied_child is not child and copied_child.parent_agent is copy
    assert child.parent_agent is root
    assert copied_child.tools == child.tools and copied_child.tools is not child.tools


def test_clone_rebinds_the_agents_own_method_callbacks() -> None:
    class Counting(LlmAgent):
        def count(self, callback_context: object) -> None:
            self.description += "+"

    agent = Counting(name="a", model="gemini-2.5-flash")
    agent.before_agent_callback = agent.count
    copy = agent.clone()
    copy.before_agent_callback(None)  # type: ignore[misc, operator]
    assert (copy.description, agent.description) == ("+", "")


def test_clone_refuses_what_adk_refuses() -> None:
    agent = LlmAgent(name="a", model="gemini-2.5-flash")
    with pytest.raises(ValueError, match="Cannot update `parent_agent` field in clone"):
        agent.clone(update={"parent_agent": None})
    with pytest.raises(ValueError, match="Cannot update nonexistent fields in LlmAgent"):
        agent.clone(update={"nope": 1})
    with pytest.raises(NotImplementedError):
        agent.clone(update={"timeout": 5.0})


def test_a_clone_runs_as_a_sub_agent_elsewhere() -> None:
    child = LlmAgent(name="child", model="gemini-2.5-flash")
    SequentialAgent(name="first", sub_agents=[child])
    second = SequentialAgent(name="second", sub_agents=[child.clone()])
    assert second.sub_agents[0].parent_agent is second
