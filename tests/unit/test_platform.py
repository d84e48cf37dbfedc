"""adk.platform (time, ids, randomness, threads behind providers) behaves as google-adk
2.13's, and the adk-side defaults that 2.13 takes from it take them from it too.

Runs on: process side (pure; the reference is the test-only google-adk).
"""

from __future__ import annotations

import asyncio
import contextvars
import random
import threading
import uuid
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("google.adk.platform")

import google.adk.platform as ref_platform  # noqa: E402
from google.adk.platform import thread as ref_thread  # noqa: E402
from google.adk.platform import time as ref_time  # noqa: E402
from google.adk.platform import uuid as ref_uuid  # noqa: E402

import adk.platform as our_platform  # noqa: E402
from adk.platform import thread as our_thread  # noqa: E402
from adk.platform import time as our_time  # noqa: E402
from adk.platform import uuid as our_uuid  # noqa: E402

SIDES = [
    pytest.param((ref_platform, ref_time, ref_uuid, ref_thread), id="google.adk"),
    pytest.param((our_platform, our_time, our_uuid, our_thread), id="adk"),
]


@pytest.fixture(autouse=True)
def reset() -> Iterator[None]:
    yield
    for time_module, uuid_module, platform in (
        (ref_time, ref_uuid, ref_platform),
        (our_time, our_uuid, our_platform),
    ):
        time_module.reset_time_provider()
        uuid_module.reset_id_provider()
        platform.reset_random_provider()


def test_the_public_names_are_2_13s() -> None:
    assert our_platform.__all__ == ref_platform.__all__
    for ours, reference in ((our_time, ref_time), (our_uuid, ref_uuid), (our_thread, ref_thread)):
        public = {
            n for n in vars(reference) if not n.startswith("_") and callable(vars(reference)[n])
        }
        public -= {"Callable", "ContextVar", "Protocol", "cast"}  # imported names
        assert public <= set(vars(ours)), ours.__name__


@pytest.mark.parametrize("side", SIDES)
def test_time_comes_from_the_provider_of_the_context(side: tuple[ModuleType, ...]) -> None:
    _, time_module, _, _ = side
    import time

    before = time.time()
    assert before <= time_module.get_time() <= time.time()
    time_module.set_time_provider(lambda: 42.5)
    assert time_module.get_time() == 42.5

    def elsewhere() -> float:
        time_module.set_time_provider(lambda: 7.0)
        return float(time_module.get_time())

    assert contextvars.copy_context().run(elsewhere) == 7.0
    assert time_module.get_time() == 42.5  # a provider set in a copied context stays there
    time_module.reset_time_provider()
    assert time_module.get_time() != 42.5


@pytest.mark.parametrize("side", SIDES)
def test_ids_come_from_the_provider(side: tuple[ModuleType, ...]) -> None:
    _, _, uuid_module, _ = side
    first, second = uuid_module.new_uuid(), uuid_module.new_uuid()
    assert first != second and uuid.UUID(first).version == 4 and str(uuid.UUID(first)) == first
    counter = iter(range(10))
    uuid_module.set_id_provider(lambda: f"id-{next(counter)}")
    assert [uuid_module.new_uuid() for _ in range(2)] == ["id-0", "id-1"]
    uuid_module.reset_id_provider()
    assert uuid.UUID(uuid_module.new_uuid()).version == 4


@pytest.mark.parametrize("side", SIDES)
def test_the_generator_comes_from_the_provider(side: tuple[ModuleType, ...]) -> None:
    platform, _, _, _ = side
    default = platform.get_random()
    assert isinstance(default, random.Random) and platform.get_random() is default
    rng = random.Random(42)
    platform.set_random_provider(lambda: rng)
    assert [platform.get_random().random() for _ in range(3)] == [
        r.random() for r in [random.Random(42)] for _ in range(3)
    ]
    platform.reset_random_provider()
    assert platform.get_random() is default


@pytest.mark.parametrize("side", SIDES)
def test_threads_come_unstarted_or_from_the_factory(
    side: tuple[ModuleType, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, _, _, thread_module = side
    seen: list[Any] = []
    made = thread_module.create_thread(lambda *a, **k: seen.append((a, k)), 1, 2, x=3)
    assert isinstance(made, threading.Thread) and not made.is_alive()
    made.start()
    made.join()
    assert seen == [((1, 2), {"x": 3})]

    class Factory:
        def create_thread(self, target: Any, *args: object, **kwargs: object) -> threading.Thread:
            seen.append("factory")
            return threading.Thread(target=target, args=args, kwargs=kwargs, daemon=True)

    monkeypatch.setattr(thread_module, "internal_thread", Factory())
    assert thread_module.create_thread(print).daemon and seen[-1] == "factory"


def test_the_adk_defaults_take_ids_and_times_from_the_providers() -> None:
    """Where 2.13 asks the platform (events, function-call and invocation ids, session
    ids), ours does too: the same values under the same providers."""
    from google.adk.agents.invocation_context import (
        new_invocation_context_id as ref_invocation_id,
    )
    from google.adk.events.event import Event as RefEvent
    from google.adk.flows.llm_flows.functions import (
        generate_client_function_call_id as ref_call_id,
    )
    from google.adk.sessions import InMemorySessionService as RefSessions

    from adk.agents.invocation_context import new_invocation_context_id
    from adk.events.event import Event
    from adk.flows.llm_flows.functions import generate_client_function_call_id
    from adk.sessions import InMemorySessionService

    def observed(time_module: ModuleType, uuid_module: ModuleType, **names: Any) -> list[Any]:
        time_module.set_time_provider(lambda: 1234.5)
        uuid_module.set_id_provider(lambda: "fixed-id")
        event = names["Event"](author="user")
        session = asyncio.run(names["Sessions"]().create_session(app_name="a", user_id="u"))
        return [
            event.timestamp,
            names["Event"].new_id(),
            names["call_id"](),
            names["invocation_id"](),
            session.id,
        ]

    reference = contextvars.copy_context().run(
        observed,
        ref_time,
        ref_uuid,
        Event=RefEvent,
        Sessions=RefSessions,
        call_id=ref_call_id,
        invocation_id=ref_invocation_id,
    )
    ours = contextvars.copy_context().run(
        observed,
        our_time,
        our_uuid,
        Event=Event,
        Sessions=InMemorySessionService,
        call_id=generate_client_function_call_id,
        invocation_id=new_invocation_context_id,
    )
    assert ours == reference == [1234.5, "fixed-id", "adk-fixed-id", "e-fixed-id", "fixed-id"]
