"""Names shared by workflows, activities, the worker and clients.

Runs on: both sides (constants, and the search attributes an invocation starts with).
"""

from __future__ import annotations

from temporalio.common import SearchAttributeKey, SearchAttributePair, TypedSearchAttributes

DEFAULT_TASK_QUEUE = "durable-adk"

INVOCATION_WORKFLOW = "AdkInvocation"

BEGIN_INVOCATION = "adk.begin_invocation"
MODEL_STEP = "adk.model_step"
TOOL_CALL = "adk.tool_call"
PERSIST_EVENTS = "adk.persist_events"

SA_APP = SearchAttributeKey.for_keyword("AdkApp")
SA_USER = SearchAttributeKey.for_keyword("AdkUser")
SA_SESSION = SearchAttributeKey.for_keyword("AdkSession")
SA_AGENT = SearchAttributeKey.for_keyword("AdkAgent")
SA_STATUS = SearchAttributeKey.for_keyword("AdkStatus")
SEARCH_ATTRIBUTES = [SA_APP, SA_USER, SA_SESSION, SA_AGENT, SA_STATUS]
"""All Keyword attributes; register them on the server (the dev-server script does)."""


def start_search_attributes(
    app_name: str, user_id: str, session_id: str, agent_name: str | None
) -> TypedSearchAttributes:
    """What an invocation's workflows start with: the root (agent if known) and its children."""
    pairs = [
        SearchAttributePair(SA_APP, app_name),
        SearchAttributePair(SA_USER, user_id),
        SearchAttributePair(SA_SESSION, session_id),
    ]
    if agent_name:
        pairs.append(SearchAttributePair(SA_AGENT, agent_name))
    return TypedSearchAttributes(pairs)


def invocation_workflow_id(app_name: str, user_id: str, session_id: str) -> str:
    """One running invocation per session: the id is derived from the session."""
    return f"adk:{app_name}:{user_id}:{session_id}"


AGENT_RUN_WORKFLOW = "AdkAgentRun"
AGENT_CALLBACK = "adk.agent_callback"
BEGIN_AGENT_TOOL = "adk.begin_agent_tool"
FINISH_AGENT_TOOL = "adk.finish_agent_tool"

# Human-in-the-loop: updates (validated; nothing is written for a rejected answer),
# signal variants (same checks, invalid ones ignored with a warning), a query.
UPDATE_APPROVE = "approve"
UPDATE_REJECT = "reject"
UPDATE_RESPOND = "respond"
UPDATE_PROGRESS = "progress"
SIGNAL_ANSWER = "answer"
QUERY_STATUS = "status"
SIGNAL_REGISTER = "adk_register_requests"
"""Child → root: requests a child waits for (and their resolution)."""
SIGNAL_DELIVER = "adk_deliver_answer"
"""Root → child: an answer validated by the root."""
