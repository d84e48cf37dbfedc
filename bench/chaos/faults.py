"""`faults`: Gemini (a fake Gemini server, the real google-genai client) fails a
share of its calls with transient errors (429 and 503, taking turns).

Runs on: process side. Invocations run one after another (the fake server's
script is one queue). Reports completed / identical to a clean run, the faults
injected, the model calls retried (from the histories), and the time per invocation.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from temporalio.api.enums.v1 import EventType

from adk.testing.fake_gemini import FakeGeminiServer
from workflows import names

from ._kit import Lab, differences, wait_started

CALL = FakeGeminiServer.function_call


def _script(server: FakeGeminiServer, rng: random.Random, rate: float) -> int:
    """One invocation's replies, each preceded by the faults drawn for it."""
    replies = [
        CALL("record", {"step": 1}),
        FakeGeminiServer.response(
            [{"functionCall": {"name": "record", "args": {"step": s}}} for s in (2, 3)]
        ),
        CALL("total", {}),
        FakeGeminiServer.text("All steps recorded."),
    ]
    faults = 0
    for reply in replies:
        while rng.random() < rate:
            faults += 1
            code = 429 if faults % 2 else 503
            server.add(
                FakeGeminiServer.error(
                    code, "injected fault", retry_after=1 if code == 429 else None
                )
            )
        server.add(reply)
    return faults


async def run(tmp: Path, n: int, rate: float, seed: int) -> None:
    rng = random.Random(seed)
    with FakeGeminiServer() as gemini:
        env = {
            "CHAOS_MODEL": "gemini",
            "GOOGLE_GEMINI_BASE_URL": gemini.base_url,
            "GOOGLE_API_KEY": "fake",
        }
        async with Lab(tmp, env=env) as lab:
            wait_started(lab.start_worker(), tmp / "worker-1.log")
            _script(gemini, rng, 0.0)
            t = time.monotonic()
            await (
                await lab.client.start(
                    app_name="chaos", user_id="u", session_id="clean", new_message="go"
                )
            ).handle.result()
            clean_seconds = time.monotonic() - t
            clean = await lab.outcome("clean")
            injected, retried, completed, identical, seconds = 0, 0, 0, 0, []
            for i in range(n):
                injected += _script(gemini, rng, rate)
                t = time.monotonic()
                try:
                    started = await lab.client.start(
                        app_name="chaos", user_id="u", session_id=f"f{i}", new_message="go"
                    )
                    await started.handle.result()
                except Exception as error:
                    print(f"  f{i} failed: {type(error).__name__}: {error}"[:200])
                    continue
                seconds.append(time.monotonic() - t)
                completed += 1
                identical += not differences(await lab.outcome(f"f{i}"), clean)
                retried += await _retries(started.handle)
    calls = 4 * n
    print(f"{n} invocations, {calls} model calls; each fails with probability {rate:g}")
    print(f"faults injected: {injected}; model step attempts retried: {retried}")
    print(f"completed: {completed}/{n}; identical to the clean run: {identical}/{completed}")
    print(
        f"time per invocation: mean {sum(seconds) / max(1, len(seconds)):.1f} s (clean {clean_seconds:.1f} s)"
    )


async def _retries(handle) -> int:
    history = await handle.fetch_history()
    scheduled = {
        e.event_id: e.activity_task_scheduled_event_attributes.activity_type.name
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
    }
    return sum(
        e.activity_task_started_event_attributes.attempt - 1
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and scheduled.get(e.activity_task_started_event_attributes.scheduled_event_id)
        == names.MODEL_STEP
    )
