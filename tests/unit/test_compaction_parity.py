"""Compaction parity with google-adk 2.13: the same sessions, the same decisions.

Runs on: test process only. Sessions are grown invocation by invocation on both
sides (the same events, built from one description); after each invocation both
runs of the post-invocation compaction (and the token-threshold check before a
model call) must ask their summarizer for the same events, and contents built
over the compacted session must be the same. The summarizers are fakes that note
what they were given and return a summary covering it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent as RefLlmAgent  # noqa: E402
from google.adk.apps import compaction as ref_compaction  # noqa: E402
from google.adk.apps.app import App as RefApp  # noqa: E402
from google.adk.apps.app import EventsCompactionConfig as RefConfig  # noqa: E402
from google.adk.apps.base_events_summarizer import (  # noqa: E402
    BaseEventsSummarizer as RefBaseSummarizer,
)
from google.adk.events import Event as RefEvent  # noqa: E402
from google.adk.flows.llm_flows.context import _contents as ref_contents  # noqa: E402
from google.adk.sessions import Session as RefSession  # noqa: E402

from adk.agents import LlmAgent  # noqa: E402
from adk.apps import compaction  # noqa: E402
from adk.apps.app import App, EventsCompactionConfig  # noqa: E402
from adk.apps.base_events_summarizer import BaseEventsSummarizer  # noqa: E402
from adk.events import Event  # noqa: E402
from adk.flows.llm_flows.contents import get_contents  # noqa: E402

AGENT = "helper"
pytestmark = pytest.mark.filterwarnings("ignore:.EXPERIMENTAL.:UserWarning")  # 2.13's own


def _summary_fields(events: list[Any], n: int) -> dict[str, Any]:
    return {
        "id": f"summary-{n}",
        "author": "user",
        "invocation_id": f"compaction-{n}",
        "timestamp": max(e.timestamp for e in events) + 0.5,
        "actions": {
            "compaction": {
                "start_timestamp": events[0].timestamp,
                "end_timestamp": events[-1].timestamp,
                "compacted_content": {
                    "role": "model",
                    "parts": [{"text": f"summary {n} of {len(events)} events"}],
                },
            }
        },
    }


class _Noting:
    """What each summarizer call was given (event ids; a seed summary by its text)."""

    def __init__(self, event_class: Any) -> None:
        self.calls: list[list[str]] = []
        self.event_class = event_class

    async def maybe_summarize_events(self, *, events: list[Any]) -> Any:
        self.calls.append([e.id if e.id.startswith("ev") else _text(e) for e in events])
        fields = _summary_fields(events, len(self.calls))
        return self.event_class.model_validate(fields)


def _text(event: Any) -> str:
    return "".join(p.text or "" for p in event.content.parts) if event.content else ""


class RefNoting(_Noting, RefBaseSummarizer):
    pass


class OurNoting(_Noting, BaseEventsSummarizer):
    pass


def _invocation(
    rng: random.Random, n: int, clock: list[float], kind: str | None = None
) -> list[dict[str, Any]]:
    """One invocation's events: a message, maybe calls (answered, long-running or left
    open), an answer with a prompt token count."""
    inv = f"inv-{n}"
    out: list[dict[str, Any]] = []

    def add(author: str, role: str, parts: list[dict[str, Any]], **extra: Any) -> None:
        clock[0] += rng.choice([0.5, 1.0, 1.0, 2.0])
        out.append(
            {
                "id": f"ev-{n}-{len(out)}",
                "invocation_id": inv,
                "author": author,
                "timestamp": clock[0],
                "content": {"role": role, "parts": parts},
                **extra,
            }
        )

    add("user", "user", [{"text": f"message {n} " + "words " * rng.randint(1, 40)}])
    kind = kind or rng.choice(
        ["plain", "plain", "tool", "two_tools", "long_running", "long_running_open", "open"]
    )
    if kind != "plain":
        ids = [f"call-{n}-{i}" for i in range(2 if kind == "two_tools" else 1)]
        calls = [{"function_call": {"id": i, "name": "lookup", "args": {"q": i}}} for i in ids]
        extra = {"long_running_tool_ids": ids} if kind.startswith("long_running") else {}
        add(AGENT, "model", calls, **extra)
        if kind not in ("open", "long_running_open"):
            response = {"r": "x" * rng.randint(1, 300)}
            add(
                AGENT,
                "user",
                [
                    {"function_response": {"id": i, "name": "lookup", "response": response}}
                    for i in ids
                ],
            )
    tokens = {"prompt_token_count": rng.randint(50, 400)} if rng.random() < 0.8 else None
    add(
        AGENT,
        "model",
        [{"text": f"answer {n} " + "more " * rng.randint(1, 30)}],
        **({"usage_metadata": tokens} if tokens else {}),
    )
    return out


CONFIGS = [
    {"compaction_interval": 2, "overlap_size": 1},
    {"compaction_interval": 3, "overlap_size": 0},
    {"compaction_interval": 1, "overlap_size": 2},
    {"token_threshold": 150, "event_retention_size": 2},
    {"token_threshold": 300, "event_retention_size": 0},
    {"token_threshold": 100, "event_retention_size": 4},
    {
        "token_threshold": 200,
        "event_retention_size": 5,
        "compaction_interval": 2,
        "overlap_size": 1,
    },
]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(
    "settings", CONFIGS, ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items())
)
async def test_the_same_session_compacts_the_same(settings: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    ref_summarizer, our_summarizer = RefNoting(RefEvent), OurNoting(Event)
    ref_app = RefApp(
        name="app",
        root_agent=RefLlmAgent(name=AGENT, model="gemini-2.5-flash"),
        events_compaction_config=RefConfig(summarizer=ref_summarizer, **settings),
    )
    app = App(
        name="app",
        root_agent=LlmAgent(name=AGENT, model="gemini-2.5-flash"),
        events_compaction_config=EventsCompactionConfig(summarizer=our_summarizer, **settings),
    )
    ref_session = RefSession(id="s", app_name="app", user_id="u")
    events: list[Event] = []
    clock = [1000.0]

    class Store:  # 2.13's token-threshold path appends through the service
        async def append_event(self, session: Any, event: Any) -> Any:
            session.events.append(event)
            return event

    for n in range(12):
        # the first invocation's call left open (some seeds): a window starting there
        # passes it only if nothing can answer it any more
        first = ["open", "long_running_open", None][seed % 3] if n == 0 else None
        described = _invocation(rng, n, clock, first)
        ref_session.events += [RefEvent.model_validate(d) for d in described]
        events += [Event.model_validate(d) for d in described]
        # before a model call: the token-threshold check (2.13's request processor)
        ref_before = await ref_compaction._run_compaction_for_token_threshold_config(
            config=ref_app.events_compaction_config,
            session=ref_session,
            session_service=Store(),
            agent=ref_app.root_agent,
            agent_name=AGENT,
        )
        ours_before = await compaction.token_threshold_compaction(
            app.events_compaction_config, events, app.root_agent, agent_name=AGENT
        )
        assert bool(ref_before) == (ours_before is not None)
        if ours_before is not None:
            events.append(ours_before)
        # after the invocation
        async for event in ref_compaction._run_compaction_for_sliding_window(
            ref_app, ref_session, Store()
        ):
            ref_session.events.append(event)
        ours_after = await compaction.post_invocation_compaction(app, events)
        if ours_after is not None:
            events.append(ours_after)
        assert our_summarizer.calls == ref_summarizer.calls, f"after invocation {n}"
        assert [e.id for e in events] == [e.id for e in ref_session.events]
        ours = get_contents(None, events, AGENT)
        ref = ref_contents._get_contents(None, ref_session.events, AGENT)
        assert [c.model_dump(exclude_none=True) for c in ours] == [
            c.model_dump(exclude_none=True) for c in ref
        ]
    assert ref_summarizer.calls, "the session never compacted: the case tests nothing"


async def test_compaction_events_cross_the_database_both_ways(tmp_path) -> None:
    """A compaction event our store writes, google-adk's DatabaseSessionService reads
    (and builds the same contents from), and the other way round."""
    from google.adk.sessions import DatabaseSessionService as RefDatabase

    from adk.sessions import DatabaseSessionService

    url = f"sqlite+aiosqlite:///{tmp_path / 'sessions.db'}"
    described = _invocation(random.Random(1), 0, [1000.0], "tool")
    summary = _summary_fields([Event.model_validate(d) for d in described], 1)
    ours = DatabaseSessionService(url)
    try:
        session = await ours.create_session(app_name="app", user_id="u", session_id="s")
        for fields in [*described, summary]:
            await ours.append_event(session, Event.model_validate(fields))
    finally:
        await ours.close()
    theirs = RefDatabase(url)
    try:
        loaded = await theirs.get_session(app_name="app", user_id="u", session_id="s")
        assert loaded is not None
        assert loaded.events[-1].actions.compaction is not None
        later = RefEvent.model_validate(
            {**_summary_fields(loaded.events[:-1], 2), "id": "summary-2"}
        )
        await theirs.append_event(loaded, later)
        ref_view = ref_contents._get_contents(None, loaded.events, AGENT)
    finally:
        await theirs.close()
    ours = DatabaseSessionService(url)
    try:
        back = await ours.get_session(app_name="app", user_id="u", session_id="s")
    finally:
        await ours.close()
    assert back is not None
    assert [e.actions.compaction is not None for e in back.events][-2:] == [True, True]
    view = get_contents(None, back.events, AGENT)
    assert [c.model_dump(exclude_none=True) for c in view] == [
        c.model_dump(exclude_none=True) for c in ref_view
    ]
    assert [c.parts[0].text for c in view] == ["summary 2 of 4 events"]  # type: ignore[index]
