"""Agent routing: which agent of the tree answers a new message in a session.

Runs on: activity side (begin activity).

Follows the seed specification (ADK's Runner._find_agent_to_run): a function
response goes to the agent that made the matching call; otherwise the most
recent agent that spoke keeps the conversation, if it (and every ancestor) is
an LlmAgent allowing transfer to its parent; so does the target of a transfer it
never answered (it failed first); a failure's error event is not a reply;
otherwise the root agent runs (google-adk 2.13's _agent_router). Rewound
invocations (Runner.rewind_async) are not looked at.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..agents.base_agent import BaseAgent
    from ..events.event import Event
    from ..sessions.session import Session

logger = logging.getLogger(__name__)


def find_agent_to_run(session: Session, root_agent: BaseAgent) -> BaseAgent:
    """The agent to run for the session's latest event (root_agent by default)."""
    from .llm_flows._context_filters import apply_rewinds

    events = apply_rewinds(session.events)
    call_event = find_matching_function_call(events)
    if call_event and call_event.author:
        caller = root_agent.find_agent(call_event.author)
        if caller is not None:
            return caller
        logger.warning("Function call from an unknown agent: %s", call_event.author)

    from .llm_flows.agent_transfer import get_transfer_targets

    for event in reversed(events):
        if event.author == "user":
            continue
        if event.actions.agent_state is not None or event.actions.end_of_agent:
            continue
        if event.error_code and not (event.content and event.content.parts):
            continue  # a failure's record: not a reply (its author is the transferring agent)
        target_name = event.actions.transfer_to_agent
        source = root_agent.find_agent(event.author) if target_name else None
        if source is not None:  # the target of a transfer it never answered owns the turn
            target = next((a for a in get_transfer_targets(source) if a.name == target_name), None)
            if target is not None and is_transferable_across_agent_tree(target):
                return target
        if event.author == root_agent.name:
            return root_agent
        agent = root_agent.find_sub_agent(event.author)
        if agent is None:
            logger.warning("Event from an unknown agent: %s, event id: %s", event.author, event.id)
            continue
        if is_transferable_across_agent_tree(agent):
            return agent
    return root_agent


def caller_keeping_the_turn(events: list[Event], root_agent: BaseAgent) -> BaseAgent | None:
    """google-adk 2.13 routes a root LlmAgent's text message before recording it: in a
    resumable app, when the session's last event (`events`: before the message) is an
    agent's function response (a pending call's, say), the agent that made the call
    keeps the turn (its ResumeRoute.ROUTE_TO_AUTHOR), whether or not it may transfer."""
    call_event = find_matching_function_call(events)
    if call_event is None or not call_event.author or events[-1].author == "user":
        return None
    return root_agent.find_agent(call_event.author)


def find_matching_function_call(events: list[Event]) -> Event | None:
    """The earlier event holding the call answered by the last event's first function response."""
    if not events:
        return None
    responses = events[-1].get_function_responses()
    if not responses:
        return None
    call_id = responses[0].id
    for event in reversed(events[:-1]):
        if any(call.id == call_id for call in event.get_function_calls()):
            return event
    return None


def is_transferable_across_agent_tree(agent: BaseAgent) -> bool:
    """The agent and all its ancestors are LlmAgents that allow transfer to the parent."""
    from ..agents.llm_agent import LlmAgent

    node: BaseAgent | None = agent
    while node is not None:
        if not isinstance(node, LlmAgent) or node.disallow_transfer_to_parent:
            return False
        node = node.parent_agent
    return True
