"""Event compaction: when to summarise which events (google-adk 2.13's rules).

Runs on: activity side. The compaction activity runs `post_invocation_compaction`
after an invocation; the model step runs `token_threshold_compaction` before each
model call when a token threshold is set. Both return the compaction event and
leave recording it to their caller. Mirrors google.adk.apps.compaction:

- sliding window: once `compaction_interval` invocations ended after the last
  summary's range, summarise from `overlap_size` invocations before the first of
  them to the end of the last, cut to its longest prefix that leaves no call
  unanswered (a call no answer can ever reach does not count);
- token threshold: once the latest prompt token count (recorded by the model,
  else estimated at 4 characters a token) reaches `token_threshold`, summarise
  everything after the last summary but the last `event_retention_size` events,
  the last summary first so the new one supersedes it; preferred over the window;
- either way, only when the range could shrink the request by more than the last
  summary's size, and a summarizer's failure only costs the summary.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from google.genai import types

from ..events.event import Event
from ..events.event_actions import EventActions, EventCompaction
from ..flows.llm_flows._compaction import compaction_ranges, process_compaction_events
from ..flows.llm_flows._context_filters import CLIENT_FUNCTION_CALL_NAMES, apply_rewinds
from .app import App, EventsCompactionConfig
from .base_events_summarizer import BaseEventsSummarizer
from .llm_event_summarizer import LlmEventSummarizer

logger = logging.getLogger(__name__)

OnError = Callable[[Exception], None]
"""Told of a summarizer's exception; may raise it on (the activity retries a transient
model error), else the compaction is skipped."""


# ── sizes ───────────────────────────────────────────────────────────────────


def _request_content(event: Event) -> types.Content | None:
    """What the event puts in a request: a summary's content for a compaction event."""
    compaction = event.actions.compaction if event.actions else None
    if compaction is not None and compaction.compacted_content is not None:
        return compaction.compacted_content
    return event.content


def _serialized_size(events: list[Event]) -> int:
    """The JSON length of what the events put in a request (whole parts, not text only)."""
    total = 0
    for event in events:
        content = _request_content(event)
        if content is not None:
            total += len(content.model_dump_json(exclude_none=True, fallback=str))
    return total


def _prompt_chars_saved(*, events: list[Event], compaction_event: Event) -> int:
    """How much shorter the assembled request gets with the compaction (negative: longer)."""
    before = process_compaction_events(events)
    after = process_compaction_events([*events, compaction_event])
    return _serialized_size(before) - _serialized_size(after)


def _count_chars_in_content(content: types.Content | None) -> int:
    total = 0
    for part in (content.parts or []) if content else []:
        if part.text:
            total += len(part.text)
        if part.function_call:
            total += len(part.function_call.name or "")
            if part.function_call.args:
                total += len(_json_or_str(part.function_call.args))
        if part.function_response:
            total += len(part.function_response.name or "")
            if part.function_response.response:
                total += len(_json_or_str(part.function_response.response))
    return total


def _json_or_str(value: object) -> str:
    try:
        return json.dumps(value)
    except Exception:  # (2.13 falls back to str for what JSON cannot hold)
        return str(value)


def _estimate_prompt_token_count(
    *, events: list[Event], current_branch: str | None, agent_name: str
) -> int | None:
    """About 4 characters a token, over the contents a model step would see."""
    from ..flows.llm_flows.contents import get_contents

    contents = get_contents(current_branch, events, agent_name)
    chars = sum(_count_chars_in_content(content) for content in contents)
    return chars // 4 if chars > 0 else None


def _latest_prompt_token_count(
    events: list[Event], *, current_branch: str | None = None, agent_name: str = ""
) -> int | None:
    """The last prompt token count the agent's model reported since the last summary
    (any agent's when `agent_name` is empty), else an estimate."""
    for event in reversed([e for e in events if e.isolation_scope is None]):
        if event.actions and event.actions.compaction:
            break  # counts before a summary measured a prompt it replaced
        usage = event.usage_metadata
        if (
            usage
            and usage.prompt_token_count is not None
            and (not agent_name or event.author == agent_name)
        ):
            return usage.prompt_token_count
    return _estimate_prompt_token_count(
        events=events, current_branch=current_branch, agent_name=agent_name
    )


# ── the last summary, and whether a new one is worth writing ───────────────


def _latest_compaction_event(events: list[Event]) -> Event | None:
    ranges = compaction_ranges(events)
    return events[ranges[-1][0]] if ranges else None


def _latest_compaction_end_timestamp(events: list[Event]) -> float:
    latest = _latest_compaction_event(events)
    compaction = latest.actions.compaction if latest else None
    if compaction is None or compaction.end_timestamp is None:
        return 0.0
    return compaction.end_timestamp


def _is_range_worth_compacting(*, events: list[Event], events_to_compact: list[Event]) -> bool:
    """Whether an empty summary of the range would save more than the last summary's
    size (the best guess of the next one's, before paying for it)."""
    times = [event.timestamp for event in events_to_compact]
    weightless = Event(
        author="model",
        invocation_id=Event.new_id(),
        actions=EventActions(
            compaction=EventCompaction(
                start_timestamp=min(times),
                end_timestamp=max(times),
                compacted_content=types.Content(role="model", parts=[]),
            )
        ),
    )
    removable = _prompt_chars_saved(events=events, compaction_event=weightless)
    latest = _latest_compaction_event(events)
    return removable > (_serialized_size([latest]) if latest is not None else 0)


def _has_token_threshold_config(config: EventsCompactionConfig | None) -> bool:
    return bool(
        config and config.token_threshold is not None and config.event_retention_size is not None
    )


def _has_sliding_window_config(config: EventsCompactionConfig | None) -> bool:
    return bool(
        config and config.compaction_interval is not None and config.overlap_size is not None
    )


def _summarizer(config: EventsCompactionConfig, agent: object) -> BaseEventsSummarizer:
    """The config's summarizer, else an LlmEventSummarizer over the root agent's model.

    (google-adk 2.13 stores the default in the config; here it is made per call, as
    the model client belongs to the event loop that runs the call.)"""
    if config.summarizer is not None:
        return config.summarizer
    from ..agents.llm_agent import LlmAgent

    if not isinstance(agent, LlmAgent):
        raise ValueError("No LlmAgent model available for event compaction summarizer.")
    return LlmEventSummarizer(llm=agent.canonical_model)


async def _summarize(
    summarizer: BaseEventsSummarizer,
    events: list[Event],
    events_to_compact: list[Event],
    on_error: OnError | None,
) -> Event | None:
    try:
        event = await summarizer.maybe_summarize_events(events=events_to_compact)
    except Exception as error:  # the full history still serves: the turn goes on
        if on_error is not None:
            on_error(error)
        logger.warning(
            "Event compaction failed; continuing with the uncompacted history.", exc_info=True
        )
        return None
    if event is not None:
        saved = _prompt_chars_saved(events=events, compaction_event=event)
        if saved < 0:
            logger.info(
                "Compaction grew the request by %d characters: the summary of %d"
                " events is larger than what it replaced.",
                -saved,
                len(events_to_compact),
            )
    return event


# ── which events: calls and answers ─────────────────────────────────────────


def _call_ids(event: Event) -> set[str]:
    return {call.id for call in event.get_function_calls() if call.id}


def _response_ids(event: Event) -> set[str]:
    return {response.id for response in event.get_function_responses() if response.id}


def _requests(event: Event) -> set[str]:
    """Ids of the confirmations and credentials the event asks for."""
    if not event.actions:
        return set()
    return set(event.actions.requested_tool_confirmations) | set(
        event.actions.requested_auth_configs
    )


def _provably_dead_call_ids(
    events: list[Event], *, all_events: list[Event], newest_invocation_id: str | None
) -> set[str]:
    """Calls opened in `events` that nothing can answer any more: not a long-running
    call (a human's request only in the newest invocation), no request still open,
    no answer anywhere in the session, and not made by the newest invocation."""
    protected: set[str] = set()
    answered: set[str] = set()
    for event in all_events:
        newest = not event.invocation_id or event.invocation_id == newest_invocation_id
        if event.long_running_tool_ids:
            if newest:
                protected |= event.long_running_tool_ids
            else:
                human = {
                    call.id
                    for call in event.get_function_calls()
                    if call.id and call.name in CLIENT_FUNCTION_CALL_NAMES
                }
                protected |= event.long_running_tool_ids - human
        requested = _requests(event)
        if newest:
            protected |= requested
        answered |= _response_ids(event) - requested
    dead: set[str] = set()
    for event in events:
        if newest_invocation_id and event.invocation_id == newest_invocation_id:
            continue
        dead |= {i for i in _call_ids(event) if i not in protected and i not in answered}
    return dead


def _longest_self_contained_prefix(
    events: list[Event], *, all_events: list[Event] | None = None
) -> list[Event]:
    """The longest prefix of `events` that leaves no call or request unanswered; a
    second pass ignores calls that can never be answered (else one orphan would
    block every later compaction), from the whole session `all_events`."""

    def safe_length(dead: set[str]) -> int:
        open_ids: set[str] = set()
        length = 0
        for index, event in enumerate(events):
            open_ids -= _response_ids(event)  # answers first: they close earlier opens
            open_ids |= (_call_ids(event) | _requests(event)) - dead
            if not open_ids:
                length = index + 1
        return length

    strict = safe_length(set())
    if strict == len(events):
        return events
    if all_events is None:
        return events[:strict]
    if strict > 0 and events[strict - 1].invocation_id != events[strict].invocation_id:
        return events[:strict]
    newest = next(
        (
            e.invocation_id
            for e in reversed(all_events)
            if e.invocation_id and not (e.actions and e.actions.compaction)
        ),
        None,
    )
    dead = _provably_dead_call_ids(events, all_events=all_events, newest_invocation_id=newest)
    if not dead:
        return events[:strict]
    return events[: max(strict, safe_length(dead))]


def _safe_token_compaction_split_index(
    *, candidate_events: list[Event], event_retention_size: int
) -> int:
    """Where to cut so the retained tail holds the calls of the answers it holds."""
    initial = len(candidate_events) - event_retention_size
    if initial <= 0:
        return 0
    unmatched: set[str] = set()
    for index in range(len(candidate_events) - 1, -1, -1):
        event = candidate_events[index]
        unmatched |= _response_ids(event)
        unmatched -= _call_ids(event)
        if not unmatched and index <= initial:
            return index
    return 0


def _events_to_compact_for_token_threshold(
    *, events: list[Event], event_retention_size: int
) -> list[Event]:
    """The events after the last summary but the retained tail, led by the last
    summary (as an event of the model) so the new one supersedes it."""
    latest = _latest_compaction_event(events)
    after = _latest_compaction_end_timestamp(events)
    candidates = [e for e in events if not e.actions.compaction and e.timestamp > after]
    if len(candidates) <= event_retention_size:
        return []
    if event_retention_size:
        split = _safe_token_compaction_split_index(
            candidate_events=candidates, event_retention_size=event_retention_size
        )
        candidates = candidates[:split]
    chosen = _longest_self_contained_prefix(candidates, all_events=events)
    if not chosen:
        return []
    compaction = latest.actions.compaction if latest else None
    if latest is None or compaction is None or compaction.start_timestamp is None:
        return chosen
    seed = Event(
        timestamp=compaction.start_timestamp,
        author="model",
        content=compaction.compacted_content,
        branch=latest.branch,
        isolation_scope=latest.isolation_scope,
        invocation_id=Event.new_id(),
    )
    return [seed, *chosen]


# ── the two triggers ────────────────────────────────────────────────────────


async def token_threshold_compaction(
    config: EventsCompactionConfig | None,
    session_events: list[Event],
    agent: object,
    *,
    agent_name: str = "",
    current_branch: str | None = None,
    on_error: OnError | None = None,
) -> Event | None:
    """The compaction event when the latest prompt reached the threshold, else None."""
    if config is None or config.token_threshold is None or config.event_retention_size is None:
        return None
    live = apply_rewinds(session_events)  # rewound turns never come back through a summary
    events = [e for e in live if e.isolation_scope is None]
    tokens = _latest_prompt_token_count(live, current_branch=current_branch, agent_name=agent_name)
    if tokens is None or tokens < config.token_threshold:
        return None
    chosen = _events_to_compact_for_token_threshold(
        events=events, event_retention_size=config.event_retention_size
    )
    if not chosen or not _is_range_worth_compacting(events=events, events_to_compact=chosen):
        return None
    return await _summarize(_summarizer(config, agent), events, chosen, on_error)


async def post_invocation_compaction(
    app: App, session_events: list[Event], *, on_error: OnError | None = None
) -> Event | None:
    """The compaction event to record after an invocation, if one is due."""
    config = app.events_compaction_config
    events = [e for e in apply_rewinds(session_events) if e.isolation_scope is None]
    if not events or config is None:
        return None
    if _has_token_threshold_config(config):
        event = await token_threshold_compaction(
            config, session_events, app.root_agent, on_error=on_error
        )
        if event is not None:
            return event
    if config.compaction_interval is None or config.overlap_size is None:
        return None
    chosen = _sliding_window(events, config.compaction_interval, config.overlap_size)
    if not chosen or not _is_range_worth_compacting(events=events, events_to_compact=chosen):
        return None
    return await _summarize(_summarizer(config, app.root_agent), events, chosen, on_error)


def _sliding_window(events: list[Event], interval: int, overlap: int) -> list[Event]:
    """The events of the window due now (none when fewer than `interval` invocations
    ended after the last summary's range)."""
    compacted_until = 0.0
    for event in reversed(events):
        if event.actions.compaction and event.actions.compaction.end_timestamp:
            compacted_until = event.actions.compaction.end_timestamp
            break
    ends: dict[str, float] = {}  # invocation -> its latest event's time, in order
    for event in events:
        if event.invocation_id and not event.actions.compaction:
            ends[event.invocation_id] = max(ends.get(event.invocation_id, 0.0), event.timestamp)
    invocations = list(ends)
    new = [i for i in invocations if ends[i] > compacted_until]
    if len(new) < interval:
        return []
    first = invocations[max(0, invocations.index(new[0]) - overlap)]
    last = new[-1]
    end = next((i for i in range(len(events) - 1, -1, -1) if events[i].invocation_id == last), -1)
    start = next((i for i, e in enumerate(events) if e.invocation_id == first), -1)
    if end == -1 or start == -1:
        return []
    window = [e for e in events[start : end + 1] if not e.actions.compaction]
    return _longest_self_contained_prefix(window, all_events=events)
