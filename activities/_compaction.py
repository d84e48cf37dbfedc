"""Compaction activity: after an invocation, summarise earlier events if a trigger is due;
and the model step's compaction before its model call (token threshold).

Runs on: activity side (worker process). google-adk 2.13's post-invocation
compaction (adk/apps/compaction.py decides; the summarizer's model call runs
here): the compaction event is recorded in the store, never returned, so the
summary enters workflow history not at all. A transient model error retries the
activity (Temporal owns retries); any other failure of the summarizer, or the
last attempt's, skips the compaction as 2.13 does (the full history still
serves). The event's id comes from the workflow: a retry after the record finds
it and records nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping

from adk.agents.llm_agent import LlmAgent
from adk.apps.app import App
from adk.apps.compaction import post_invocation_compaction, token_threshold_compaction
from adk.models._errors import classify_model_error
from adk.sessions.base_session_service import BaseSessionService
from adk.sessions.session import Session
from workflows.contracts import CompactionInput, CompactionOutput, StepRef

from ._support import find_app, last_attempt, model_error, user_code


async def compact_events(
    apps: Mapping[str, App], store: BaseSessionService, input: CompactionInput
) -> CompactionOutput:
    app = find_app(apps, input.session.app_name)
    ref = input.session
    session = await store.get_step_session(  # the store's cached read
        app_name=ref.app_name, user_id=ref.user_id, session_id=ref.session_id, event_ids=[]
    )
    if session is None:  # deleted meanwhile: nothing to compact
        return CompactionOutput()
    recorded = next((e for e in session.events if e.id == input.event_id), None)
    if recorded is None:
        with user_code("event compaction"):  # e.g. 2.13's ValueError: no LlmAgent model
            recorded = await post_invocation_compaction(app, session.events, on_error=_retry)
        if recorded is None:
            return CompactionOutput()
        recorded.id = input.event_id
        await store.append_event(session, recorded)
    compaction = recorded.actions.compaction
    return CompactionOutput(
        recorded=True,
        start_timestamp=compaction.start_timestamp if compaction else None,
        end_timestamp=compaction.end_timestamp if compaction else None,
    )


def _retry(error: Exception) -> None:
    """A transient model error fails this attempt while attempts remain."""
    if classify_model_error(error).retryable and not last_attempt():
        raise model_error(error, getattr(error, "model", None) or "summarizer") from None


async def compact_before_model(
    app: App,
    store: BaseSessionService,
    session: Session,
    agent: LlmAgent,
    ref: StepRef,
    event_id: str,
) -> None:
    """google-adk 2.13's compaction request processor: with a token threshold set,
    summarise before the model call once the latest prompt reached it; the event is
    recorded (under `event_id`, derived from the step's) and the step's contents use it.
    Not in an AgentTool's own session (2.13 runs its agent without the app's config)."""
    config = app.events_compaction_config
    if config is None or config.token_threshold is None or ref.session.artifact_session:
        return
    with user_code("event compaction"):
        event = await token_threshold_compaction(
            config,
            session.events,
            agent,
            agent_name=agent.name,
            current_branch=ref.branch,
            on_error=_retry,
        )
    if event is not None:
        event.id = event_id
        await store.append_event(session, event)
