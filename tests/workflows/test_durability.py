"""Durability: a worker SIGKILLed mid-invocation, and replay of a committed history.

The kill test runs the real worker process (`python -m worker`) on the shared
dev server, kills it with SIGKILL while a tool call runs, starts another worker
and checks the invocation ends as if nothing had happened. Delivery is
at-least-once by design: the tool call that was in flight when the worker died
runs again on the new worker (its first attempt never reported a result);
every call that had completed is never re-run, since its result is in the
workflow's history.

A model step is retried the same way; one whose event was written before its
attempt was lost must not see that event as part of the conversation.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from temporalio.api.enums.v1 import EventType, TimeoutType
from temporalio.client import WorkflowHistory
from temporalio.worker import Replayer
from temporalio.workflow import NondeterminismError

from adk import ActivityOptions, Agent
from adk.artifacts import FileArtifactService
from adk.events.event import Event
from adk.sessions import InMemorySessionService, SqliteSessionService
from adk.sessions.session import Session
from adk.testing import MockModel
from client import AgentClient
from worker._build import workflow_runner
from workflows import WORKFLOWS, names
from workflows.converter import data_converter

from .altered_workflows import PatchedChange, UnguardedChange
from .helpers import call, runner_for, simplify, turn

REPO = Path(__file__).resolve().parents[2]
SLOW_APP = REPO / "tests" / "apps" / "slow_weather"
PARALLEL_APP = REPO / "tests" / "apps" / "slow_parallel"
COUNTER_APP = REPO / "tests" / "apps" / "counter"
COMPACTION_APP = REPO / "tests" / "apps" / "slow_compaction"
HISTORY = REPO / "tests" / "histories" / "weather_parallel.json"
HISTORY_WORKFLOW_ID = names.invocation_workflow_id("weather", "u1", "s1")
MESSAGE = "Weather in Paris, London, Tokyo and Oslo?"


# ── the worker killed mid-invocation ─────────────────────────────────────────


def start_worker(
    address: str,
    task_queue: str,
    tmp: Path,
    name: str,
    app: Path = SLOW_APP,
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """`python -m worker tests/apps/<app>` as a child process, output in tmp/<name>.log."""
    env = {
        **os.environ,
        "SLOW_WEATHER_LOG": str(tmp / "runs.log"),
        "PYTHONUNBUFFERED": "1",
        **(env or {}),
    }
    command = [
        sys.executable,
        "-m",
        "worker",
        str(app),
        "--address",
        address,
        "--task-queue",
        task_queue,
        "--db",
        str(tmp / "sessions.db"),
        "--log-format",
        "console",
    ]
    with open(tmp / f"{name}.log", "ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)


def tool_runs(tmp: Path) -> collections.Counter[tuple[str, str]]:
    """How often each (session, city) tool call started, from the app's run log."""
    path = tmp / "runs.log"
    lines = path.read_text().splitlines() if path.exists() else []
    return collections.Counter(tuple(line.split(" ", 1)) for line in lines)  # type: ignore[misc]


def worker_logs(tmp: Path) -> str:
    return "\n".join(f"── {p.name}\n{p.read_text()}" for p in sorted(tmp.glob("worker*.log")))


async def wait_until(
    condition: Callable[[], bool],
    timeout: float,
    what: str,
    proc: subprocess.Popen[bytes],
    tmp: Path,
) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if proc.poll() is not None:
            pytest.fail(f"the worker exited ({proc.returncode}) before {what}\n{worker_logs(tmp)}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}\n{worker_logs(tmp)}")
        await asyncio.sleep(0.02)


def content(session: Session | None) -> tuple[list[tuple[str, object]], dict[str, object]]:
    """What a session says: (author, text/call/response) in order, and its state."""
    assert session is not None
    return simplify(session.events), dict(session.state)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.slow
async def test_worker_sigkill_mid_tool_call_resumes_on_a_new_worker(temporal_env, tmp_path):
    t0 = time.monotonic()
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"durability-{uuid.uuid4().hex[:8]}"
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    workers = [start_worker(address, task_queue, tmp_path, "worker1")]
    try:
        killed = await agents.start(
            app_name="slow_weather", user_id="u-killed", session_id="killed", new_message=MESSAGE
        )
        # Paris (1.5 s) has completed and London (1.5 s) has just started: kill now.
        await wait_until(
            lambda: tool_runs(tmp_path)[("killed", "London")] == 1,
            timeout=20,
            what="the second tool call to start",
            proc=workers[0],
            tmp=tmp_path,
        )
        workers[0].kill()  # SIGKILL: no shutdown, no activity failure reported
        assert workers[0].wait() == -9
        t_kill = time.monotonic()

        # Where the time goes after the kill (~16 s): London's attempt is presumed lost
        # after its 2 s heartbeat timeout and retried on worker2 (1.5 s); the next
        # workflow task first goes to worker1's sticky queue, where nobody polls any
        # more, and is moved to the normal queue after the SDK's default 10 s
        # sticky schedule-to-start timeout (worker2 then replays the history).
        workers.append(start_worker(address, task_queue, tmp_path, "worker2"))
        reference = await agents.start(
            app_name="slow_weather", user_id="u-ref", session_id="reference", new_message=MESSAGE
        )
        killed_result, reference_result = await asyncio.wait_for(
            asyncio.gather(killed.handle.result(), reference.handle.result()), timeout=40
        )
        t_done = time.monotonic()
        print(
            f"\nkill after {t_kill - t0:.1f}s, resumed invocation done"
            f" {t_done - t_kill:.1f}s after the kill, total {t_done - t0:.1f}s"
        )
        killed_history = await killed.handle.fetch_history()
    finally:
        for proc in workers:
            stop(proc)

    # the invocation completed, with the same answer as an uninterrupted run
    final = "Paris 18°C, London 14°C, Tokyo 22°C, Oslo 3°C."
    assert killed_result.final_text == reference_result.final_text == final
    assert killed_result.event_count == reference_result.event_count == 8

    # the sessions hold the same conversation and state
    killed_session = await store.get_session(
        app_name="slow_weather", user_id="u-killed", session_id="killed"
    )
    reference_session = await store.get_session(
        app_name="slow_weather", user_id="u-ref", session_id="reference"
    )
    store.close()
    assert content(killed_session) == content(reference_session)
    events, state = content(killed_session)
    assert [author for author, _ in events] == ["user"] + [
        "slow_weather"
    ] * 9  # 4 calls, 4 responses, answer
    assert state == {
        "paris_c": 18,
        "london_c": 14,
        "tokyo_c": 22,
        "oslo_c": 3,
        "user:lookups": 4,  # google-adk 2.13: the parallel calls see each other's writes
        "answer": final,
    }
    assert killed_session is not None
    ids = [e.id for e in killed_session.events]
    assert len(ids) == len(set(ids)), "an event was recorded twice"

    # completed calls ran exactly once; the one in flight at the kill ran again
    runs = tool_runs(tmp_path)
    assert runs[("killed", "Paris")] == 1
    assert runs[("killed", "London")] == 2  # at-least-once: the killed attempt, then the retry
    assert runs[("killed", "Tokyo")] == runs[("killed", "Oslo")] == 1
    assert {city: n for (session, city), n in runs.items() if session == "reference"} == {
        "Paris": 1,
        "London": 1,
        "Tokyo": 1,
        "Oslo": 1,
    }

    # the history says why: London's tool call was retried after a heartbeat timeout
    retried = [
        e.activity_task_started_event_attributes
        for e in killed_history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    assert [a.attempt for a in retried] == [2]
    failure = retried[0].last_failure.timeout_failure_info
    assert failure.timeout_type == TimeoutType.TIMEOUT_TYPE_HEARTBEAT
    scheduled = next(
        e.activity_task_scheduled_event_attributes
        for e in killed_history.events
        if e.event_id == retried[0].scheduled_event_id
    )
    assert scheduled.activity_type.name == names.TOOL_CALL


def by_author(session: Session | None) -> dict[str, list[tuple[str, object]]]:
    """What each author said, in order: a session's content up to branch interleaving."""
    said: dict[str, list[tuple[str, object]]] = collections.defaultdict(list)
    for author, what in content(session)[0]:
        said[author].append((author, what))
    return dict(said)


@pytest.mark.slow
async def test_worker_sigkill_while_parallel_branches_run_completes_each_once(
    temporal_env, tmp_path
):
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"durability-par-{uuid.uuid4().hex[:8]}"
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    workers = [start_worker(address, task_queue, tmp_path, "worker1", PARALLEL_APP)]
    try:
        killed = await agents.start(
            app_name="slow_parallel", user_id="u-killed", session_id="killed", new_message="Go"
        )
        # both branches (child workflows) have started their 1.5 s tool call: kill now
        await wait_until(
            lambda: (
                {topic for (s, topic) in tool_runs(tmp_path) if s == "killed"} == {"market", "tech"}
            ),
            timeout=20,
            what="both branches' tool calls to start",
            proc=workers[0],
            tmp=tmp_path,
        )
        workers[0].kill()
        assert workers[0].wait() == -9

        workers.append(start_worker(address, task_queue, tmp_path, "worker2", PARALLEL_APP))
        reference = await agents.start(
            app_name="slow_parallel", user_id="u-ref", session_id="reference", new_message="Go"
        )
        killed_result, reference_result = await asyncio.wait_for(
            asyncio.gather(killed.handle.result(), reference.handle.result()), timeout=60
        )
    finally:
        for proc in workers:
            stop(proc)

    assert killed_result.event_count == reference_result.event_count == 7
    killed_session = await store.get_session(
        app_name="slow_parallel", user_id="u-killed", session_id="killed"
    )
    reference_session = await store.get_session(
        app_name="slow_parallel", user_id="u-ref", session_id="reference"
    )
    store.close()
    assert killed_session is not None and reference_session is not None

    # every branch completed exactly once: one call, one response, one answer each
    ids = [e.id for e in killed_session.events]
    assert len(ids) == len(set(ids)), "an event was recorded twice"
    for topic in ("market", "tech"):
        agent = f"{topic}_researcher"
        assert by_author(killed_session)[agent] == [
            (agent, ("call", "research", {"topic": topic})),
            (
                agent,
                ("response", "research", {"topic": topic, "notes": f"three facts about {topic}"}),
            ),
            (agent, f"{topic.capitalize()} research done."),
        ]
        assert {e.branch for e in killed_session.events if e.author == agent} == {
            f"research.{agent}"
        }

    # the same conversation and state as the uninterrupted run, up to branch interleaving
    assert by_author(killed_session) == by_author(reference_session)
    assert (
        content(killed_session)[1]
        == content(reference_session)[1]
        == {
            "market_notes": "three facts about market",
            "tech_notes": "three facts about tech",
            "market_summary": "Market research done.",
            "tech_summary": "Tech research done.",
        }
    )

    # at-least-once: a tool in flight at the kill ran again, never more than twice
    runs = tool_runs(tmp_path)
    assert 1 <= runs[("killed", "market")] <= 2 and 1 <= runs[("killed", "tech")] <= 2
    assert runs[("reference", "market")] == runs[("reference", "tech")] == 1


# ── killed between a tool's record and its report: state as of one run ─────


@pytest.mark.slow
async def test_worker_killed_after_a_tool_recorded_its_response_counts_once(temporal_env, tmp_path):
    """The worker dies exactly after the store committed `increment`'s response (count
    3 -> 4) and before Temporal heard of it (tests/apps/counter's hook). The retry on a
    new worker runs the tool again, sees count 3 as of its step, and its record replaces
    the first: the session ends with count 5 after two increments, as a clean run does
    (before the fix: 6, with no event explaining the extra increment)."""
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"counter-{uuid.uuid4().hex[:8]}"
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    hooks = {
        "COUNTER_KILL_MARKER": str(tmp_path / "killed"),
        "COUNTER_RUNS_LOG": str(tmp_path / "counter_runs.log"),
        "DURABLE_ADK_ARTIFACTS_DIR": str(tmp_path / "artifacts"),
    }
    workers = [start_worker(address, task_queue, tmp_path, "worker1", COUNTER_APP, hooks)]
    try:
        killed = await agents.start(
            app_name="counter",
            user_id="u",
            session_id="killed",
            new_message="Count!",
            state_delta={"count": 3},
        )
        await asyncio.wait_for(asyncio.to_thread(workers[0].wait), timeout=30)
        assert workers[0].returncode == -9, worker_logs(tmp_path)
        assert (tmp_path / "killed").exists()
        workers.append(start_worker(address, task_queue, tmp_path, "worker2", COUNTER_APP, hooks))
        reference = await agents.start(
            app_name="counter",
            user_id="u",
            session_id="reference",
            new_message="Count!",
            state_delta={"count": 3},
        )
        await asyncio.wait_for(
            asyncio.gather(killed.handle.result(), reference.handle.result()), timeout=40
        )
    finally:
        for proc in workers:
            stop(proc)
    sessions = [
        await store.get_session(app_name="counter", user_id="u", session_id=session_id)
        for session_id in ("killed", "reference")
    ]
    store.close()
    killed_events, killed_state = content(sessions[0])
    assert (killed_events, killed_state) == content(sessions[1])
    assert killed_state == {"count": 5}
    assert [what for _, what in killed_events if what[0] == "response"] == [  # type: ignore[index]
        ("response", "increment", {"count": 4}),
        ("response", "increment", {"count": 5}),
    ]
    assert sessions[0] is not None
    ids = [e.id for e in sessions[0].events]
    assert len(ids) == len(set(ids)), "an event was recorded twice"
    runs = (tmp_path / "counter_runs.log").read_text().splitlines()
    assert runs.count("killed") == 3  # at least once: the first increment ran twice
    assert runs.count("reference") == 2
    # the retry got the version its recorded event names back: no extra version
    artifacts = FileArtifactService(tmp_path / "artifacts")
    for session_id in ("killed", "reference"):
        scope = {"app_name": "counter", "user_id": "u", "session_id": session_id}
        assert await artifacts.list_versions(**scope, filename="count.txt") == [0, 1]
        versions = [
            await artifacts.load_artifact(**scope, filename="count.txt", version=v) for v in (0, 1)
        ]
        assert [p.text for p in versions if p] == ["4", "5"]


# ── a retried model step after its write landed ─────────────────────────────


class LosesFirstModelAck(InMemorySessionService):
    """A store whose first write of a model event commits, then raises (the ack was lost).

    The same happens when a worker dies between the model step's write and its
    report to Temporal: the step is retried with the event already stored.
    """

    lost = False

    async def append_event(self, session: Session, event: Event) -> Event:
        stored = await super().append_event(session, event)
        if not self.lost and event.get_function_calls():
            self.lost = True
            raise ConnectionError("connection lost after commit")
        return stored


def get_weather(city: str) -> dict:
    """Returns the weather in a city."""
    return {"city": city, "temp_c": 18}


async def test_retried_model_step_does_not_see_its_own_earlier_attempt(temporal_env):
    model = MockModel.create([call("get_weather", city="Paris"), "It is 18°C in Paris."])
    agent = Agent(
        name="weather",
        model=model,
        tools=[get_weather],
        model_activity_options=ActivityOptions(initial_interval=timedelta(milliseconds=100)),
    )
    store = LosesFirstModelAck()
    async with runner_for(temporal_env, agent, session_service=store) as runner:
        events = await turn(runner, "Weather in Paris?")
        session = await store.get_session(app_name="test_app", user_id="u1", session_id="s1")
    assert store.lost
    # the retry asked the model the same question as the first attempt
    assert len(model.requests) == 3
    assert model.requests[0].contents == model.requests[1].contents
    expected = [
        ("user", "Weather in Paris?"),
        ("weather", ("call", "get_weather", {"city": "Paris"})),
        ("weather", ("response", "get_weather", {"city": "Paris", "temp_c": 18})),
        ("weather", "It is 18°C in Paris."),
    ]
    assert simplify(events) == expected
    assert session is not None
    assert simplify(session.events) == expected


# ── replay of a committed history ────────────────────────────────────────────


def committed_history() -> WorkflowHistory:
    """Recorded by tests/histories/record.py (re-record only for intended breaking changes)."""
    return WorkflowHistory.from_json(HISTORY_WORKFLOW_ID, HISTORY.read_text(encoding="utf-8"))


def replayer(*workflows: type, sandbox: str | None = None) -> Replayer:
    return Replayer(
        workflows=list(workflows),
        data_converter=data_converter,
        workflow_runner=workflow_runner(sandbox),
    )


def test_committed_history_is_representative():
    events = json.loads(HISTORY.read_text(encoding="utf-8"))["events"]
    scheduled = [
        e["activityTaskScheduledEventAttributes"]["activityType"]["name"]
        for e in events
        if "activityTaskScheduledEventAttributes" in e
    ]
    model, tool = names.MODEL_STEP, names.TOOL_CALL
    assert scheduled == [  # begin is a local activity: recorded as a marker
        model,
        tool,
        model,
        tool,
        tool,  # two calls scheduled in one workflow task: parallel
        model,  # records the last event itself: nothing left for a final persist
    ]
    assert events[-1]["eventType"] == "EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED"


@pytest.mark.parametrize("sandbox", ["off", "strict"])
async def test_committed_history_replays_on_the_current_workflow(sandbox):
    result = await replayer(*WORKFLOWS, sandbox=sandbox).replay_workflow(committed_history())
    assert result.replay_failure is None


async def test_replay_catches_an_unguarded_workflow_change():
    # the extra activity takes the place of the recorded begin (a local activity)
    with pytest.raises(NondeterminismError, match="LocalActivity"):
        await replayer(UnguardedChange).replay_workflow(committed_history())


async def test_the_same_change_behind_patched_replays():
    result = await replayer(PatchedChange).replay_workflow(committed_history())
    assert result.replay_failure is None


@pytest.mark.slow
async def test_worker_sigkill_during_the_summarizer_records_one_compaction(temporal_env, tmp_path):
    """The worker dies while the compaction activity's summarizer call runs (after the
    second invocation): the activity is retried on a new worker, the invocation ends,
    one compaction event is recorded, and the next request carries its summary."""
    address = temporal_env.client.service_client.config.target_host
    task_queue = f"durability-compaction-{uuid.uuid4().hex[:8]}"
    store = SqliteSessionService(tmp_path / "sessions.db")
    agents = AgentClient(temporal_env.client, store, task_queue=task_queue)
    log = tmp_path / "summaries.log"
    env = {"SLOW_COMPACTION_LOG": str(log)}

    def summarizer_calls() -> int:
        return len(log.read_text().splitlines()) if log.exists() else 0

    async def say(session: str, text: str) -> None:
        started = await agents.start(
            app_name="slow_compaction", user_id="u", session_id=session, new_message=text
        )
        await asyncio.wait_for(started.handle.result(), timeout=60)

    workers = [start_worker(address, task_queue, tmp_path, "worker1", COMPACTION_APP, env)]
    try:
        await say("killed", "first")
        second = await agents.start(
            app_name="slow_compaction", user_id="u", session_id="killed", new_message="second"
        )
        await wait_until(
            lambda: summarizer_calls() == 1,
            timeout=20,
            what="the summarizer to start",
            proc=workers[0],
            tmp=tmp_path,
        )
        workers[0].kill()
        assert workers[0].wait() == -9
        workers.append(start_worker(address, task_queue, tmp_path, "worker2", COMPACTION_APP, env))
        await asyncio.wait_for(second.handle.result(), timeout=60)
        history = await second.handle.fetch_history()  # (the next run has the same id)
        await say("killed", "third")
        for text in ("first", "second", "third"):  # the same, uninterrupted
            await say("reference", text)
    finally:
        for proc in workers:
            stop(proc)

    killed = await store.get_session(app_name="slow_compaction", user_id="u", session_id="killed")
    reference = await store.get_session(
        app_name="slow_compaction", user_id="u", session_id="reference"
    )
    store.close()
    assert killed is not None and reference is not None
    assert summarizer_calls() == 3  # the killed attempt, its retry, the reference's
    compactions = [e for e in killed.events if e.actions.compaction]
    assert len(compactions) == 1, "one compaction event, recorded once"
    summary = compactions[0].actions.compaction
    assert summary is not None
    assert summary.compacted_content.parts[0].text == "Summary of: user: first"  # type: ignore[index]
    covered = [
        e for e in killed.events if summary.start_timestamp <= e.timestamp <= summary.end_timestamp
    ]
    assert [e.author for e in covered if not e.actions.compaction] == ["user", "chatty"] * 2
    # the session says the same as the uninterrupted one, and the third request used
    # the summary in place of the first two invocations
    assert content(killed) == content(reference)
    assert simplify(killed.events)[-1] == ("chatty", "Answer to: third")
    from adk.flows.llm_flows.contents import get_contents

    seen = get_contents(None, killed.events[:-1], "chatty")
    assert [c.parts[0].text for c in seen] == ["Summary of: user: first", "third"]  # type: ignore[index]
    retried = [
        e.activity_task_started_event_attributes
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    assert len(retried) == 1
    scheduled = next(
        e.activity_task_scheduled_event_attributes
        for e in history.events
        if e.event_id == retried[0].scheduled_event_id
    )
    assert scheduled.activity_type.name == names.COMPACT_EVENTS
