"""How soon a client sees an event after it is recorded: append → receipt latency.

Run: `python -m bench.stream_latency` (about 2 minutes on 2 cores; needs Debian's
`postgresql` package: it starts a throwaway server in a temp dir, on loopback).
Prints figures; asserts nothing.

One local dev server (`DEV_SERVER_ARGS`), a worker in this process, and a client
(`AgentClient.events`) with its *own* session-service instance on the same database:
so the client learns of appends only as a client on another host does (the
in-process notification a Runner gets from its own worker does not reach it). The
app is a multi-agent tree, SequentialAgent(ParallelAgent(two researchers), a writer
calling a tool twice at once, then once), whose models take MODEL_SECONDS each, as a real model takes its time
(which is when a polling stream backs off).

For every event it takes the time the worker's store finished recording it (the
append's commit) and the time the client's stream yielded it, and prints p50 / p90
/ max over all events of RUNS invocations, per store; with `--runner`, also the
same-process path (the client uses the worker's store instance, as the Runner does).

Runs on: process side (client, worker, dev server and PostgreSQL on this machine).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncGenerator
from typing import Any

from google.genai import types
from temporalio.testing import WorkflowEnvironment

from adk import Agent, ParallelAgent, SequentialAgent
from adk.apps.app import App
from adk.events.event import Event
from adk.models import LlmRequest, LlmResponse
from adk.sessions import DatabaseSessionService
from adk.sessions.session import Session
from adk.testing import MockModel
from client import AgentClient
from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
from tests._postgres import postgres_server
from worker import build_worker
from workflows.converter import data_converter
from workflows.names import SEARCH_ATTRIBUTES

RUNS = 8
WARMUP = 2
MODEL_SECONDS = 0.4


class SlowModel(MockModel):
    """A MockModel that takes MODEL_SECONDS per call, as a real model takes its time."""

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        await asyncio.sleep(MODEL_SECONDS)
        async for response in super().generate_content_async(llm_request, stream):
            yield response


def lookup(topic: str) -> dict[str, str]:
    """Look a topic up."""
    return {"topic": topic, "facts": "three facts"}


def tree() -> SequentialAgent:
    def researcher(name: str) -> Agent:
        return Agent(name=name, model=SlowModel.create([f"notes of {name}"]), output_key=name)

    writer = Agent(
        name="writer",
        model=SlowModel.create(
            [
                # two calls at once: their merged response is an event the workflow
                # decides, recorded by the next model step before it calls the model
                [
                    types.Part.from_function_call(name="lookup", args={"topic": "tides"}),
                    types.Part.from_function_call(name="lookup", args={"topic": "moon"}),
                ],
                types.Part.from_function_call(name="lookup", args={"topic": "sun"}),
                "the report",
            ]
        ),
        tools=[lookup],
    )
    research = ParallelAgent(name="research", sub_agents=[researcher("a"), researcher("b")])
    return SequentialAgent(name="pipeline", sub_agents=[research, writer])


class Recording(DatabaseSessionService):
    """The worker's store: notes when each append has committed, by event id."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.recorded: dict[str, float] = {}

    async def append_event(self, session: Session, event: Event) -> Event:
        appended = await super().append_event(session, event)
        self.recorded.setdefault(event.id, time.perf_counter())
        return appended


async def measure(env: WorkflowEnvironment, url: str, *, same_instance: bool) -> list[float]:
    queue = f"bench-stream-{uuid.uuid4().hex[:6]}"
    worker_store = Recording(url)
    client_store = worker_store if same_instance else DatabaseSessionService(url)
    app = App(name="bench", root_agent=tree())
    client = AgentClient(env.client, client_store, task_queue=queue)
    latencies: list[float] = []
    try:
        async with build_worker(
            env.client, apps={"bench": app}, session_service=worker_store, task_queue=queue
        ):
            for run in range(WARMUP + RUNS):
                invocation = await client.start(
                    app_name="bench",
                    user_id="u",
                    session_id=f"s-{uuid.uuid4().hex[:10]}",
                    new_message="go",
                )
                received: dict[str, float] = {}
                async for event in client.events(invocation):
                    received[event.id] = time.perf_counter()
                if run >= WARMUP:
                    latencies += [t - worker_store.recorded[i] for i, t in received.items()]
    finally:
        await worker_store.close()
        if client_store is not worker_store:
            await client_store.close()
    return latencies


def ms(value: float) -> str:
    return f"{value * 1000:7.1f} ms"


def report(label: str, latencies: list[float]) -> None:
    ordered = sorted(latencies)
    print(
        f"  {label:<58} p50 {ms(statistics.median(ordered))}"
        f"  p90 {ms(ordered[int(len(ordered) * 0.9)])}  max {ms(ordered[-1])}"
        f"  ({len(ordered)} events)"
    )


async def main(runner: bool) -> None:
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="durable-adk-bench-") as tmp,
        postgres_server() as pg_url,
    ):
        env = await WorkflowEnvironment.start_local(
            dev_server_existing_path=temporal_binary(),
            data_converter=data_converter,
            search_attributes=SEARCH_ATTRIBUTES,
            dev_server_extra_args=DEV_SERVER_ARGS,
        )
        try:
            print(
                f"machine: {os.cpu_count()} CPUs shared by client, worker, dev server, PostgreSQL"
            )
            print(
                f"{RUNS} invocations per line after {WARMUP} warm-up runs; models take"
                f" {MODEL_SECONDS} s; append (commit) → client receipt"
            )
            stores = {
                "postgresql+asyncpg": pg_url,
                "sqlite+aiosqlite": f"sqlite+aiosqlite:///{tmp}/db.db",
            }
            for name, url in stores.items():
                report(f"{name}, client elsewhere", await measure(env, url, same_instance=False))
                if runner:
                    report(
                        f"{name}, client in the worker's process",
                        await measure(env, url, same_instance=True),
                    )
        finally:
            await env.shutdown()
    print(f"total bench time {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runner", action="store_true", help="also the same-process path")
    asyncio.run(main(parser.parse_args().runner))
