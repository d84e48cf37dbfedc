"""adk.platform's providers on the durable runtime: what the process side decides
(the invocation id a run gets) comes from the caller's id provider, and the
synchronous `Runner.run` makes its thread through the platform's factory in a copy
of the caller's context, as google-adk 2.13's does.

Runs on: test process (the Runner's worker runs in it, on the session's local
Temporal). The worker's activities and the workflow do not see the caller's
providers (each runs in a context of its own; the workflow uses workflow.uuid4()).
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from typing import Any

import pytest

from adk import Agent
from adk.platform import thread as platform_thread
from adk.platform import uuid as platform_uuid
from adk.testing import MockModel

from .helpers import runner_for, user_text


async def test_a_sync_run_takes_the_callers_id_provider_and_thread_factory(
    temporal_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[threading.Thread] = []

    class Factory:
        def create_thread(self, target: Any, *args: object, **kwargs: object) -> threading.Thread:
            made.append(threading.Thread(target=target, args=args, kwargs=kwargs))
            return made[-1]

    monkeypatch.setattr(platform_thread, "internal_thread", Factory())
    agent = Agent(name="greeter", model=MockModel.create(["Hello!", "Hello again!"]))
    async with runner_for(temporal_env, agent) as runner:

        def caller() -> list[str]:
            counter = itertools.count()
            platform_uuid.set_id_provider(lambda: f"caller-{next(counter)}")
            ids = []
            for text in ("hi", "hi again"):
                events = list(
                    runner.run(user_id="u1", session_id="s1", new_message=user_text(text))
                )
                ids += [e.invocation_id for e in events]
            return ids

        ids = await asyncio.to_thread(caller)  # a context of its own: the provider stays there
    assert ids == ["e-caller-0", "e-caller-1"]
    assert [t.name for t in made] == ["adk-runner-run", "adk-runner-run"]
    assert platform_uuid.new_uuid() not in ("caller-2", "caller-0")
