"""The worker's health endpoint (`--health-port`): what `/livez` and `/readyz` answer.

Runs on: test process only (the endpoint's server, with stand-in workers and client).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from worker import _health
from worker.__main__ import parse_args
from worker._health import Health, start_health_server


@dataclass
class FakeWorker:
    is_running: bool = False


@dataclass
class FakeServiceClient:
    up: bool = True
    calls: int = 0
    delay: float = 0.0

    async def check_health(self, **_: Any) -> bool:
        self.calls += 1
        await asyncio.sleep(self.delay)
        if not self.up:
            raise RuntimeError("Connection refused")
        return True


@dataclass
class FakeClient:
    service_client: FakeServiceClient = field(default_factory=FakeServiceClient)


async def request(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), headers, body


async def get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    status, _, body = await request(
        port, f"GET {path} HTTP/1.1\r\nHost: x\r\nUser-Agent: kube-probe/1.33\r\n\r\n".encode()
    )
    return status, json.loads(body)


@pytest.fixture
async def endpoint() -> AsyncIterator[tuple[int, list[FakeWorker], FakeClient, Health]]:
    workers = [FakeWorker(), FakeWorker()]
    client = FakeClient()
    health = Health(workers, ["durable-adk.weather", "durable-adk"], client)
    server = await start_health_server(health, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1], workers, client, health
    finally:
        server.close()
        await server.wait_closed()


async def test_ready_only_while_every_worker_polls_and_temporal_answers(endpoint, monkeypatch):
    monkeypatch.setattr(_health, "CHECK_INTERVAL", 0.0)
    port, workers, client, health = endpoint
    workers[0].is_running = True
    assert await get(port, "/readyz") == (
        503,
        {"status": "starting", "task_queues": ["durable-adk", "durable-adk.weather"]},
    )
    workers[1].is_running = True
    status, body = await get(port, "/readyz")
    assert (status, body["status"]) == (200, "polling")
    client.service_client.up = False
    status, body = await get(port, "/readyz")
    assert (status, body["status"]) == (503, "temporal unreachable")
    assert "Connection refused" in body["error"]
    assert await get(port, "/livez") == (200, {"status": "alive"})  # Temporal's, not ours
    client.service_client.up = True
    assert (await get(port, "/readyz"))[0] == 200
    health.stopping()  # SIGTERM: not ready while activities finish, still alive
    status, body = await get(port, "/readyz")
    assert (status, body["status"]) == (503, "stopping")
    assert (await get(port, "/livez"))[0] == 200


async def test_probes_share_one_frontend_check(endpoint):
    port, workers, client, _ = endpoint
    for worker in workers:
        worker.is_running = True
    client.service_client.delay = 0.2
    answers = await asyncio.gather(*(get(port, "/readyz") for _ in range(20)))
    assert {status for status, _ in answers} == {200}
    assert client.service_client.calls == 1
    await get(port, "/readyz")  # within CHECK_INTERVAL: the answer is reused
    assert client.service_client.calls == 1


async def test_other_requests_get_a_clear_status(endpoint):
    port, *_ = endpoint
    status, _ = await get(port, "/metrics")
    assert status == 404
    status, headers, body = await request(port, b"POST /readyz HTTP/1.1\r\n\r\n")
    assert status == 405
    status, headers, body = await request(port, b"HEAD /livez HTTP/1.1\r\n\r\n")
    assert (status, body, headers["Content-Length"]) == (
        200,
        b"",
        str(len('{"status": "alive"}\n')),
    )
    status, _, _ = await request(port, b"hello\r\n\r\n")
    assert status == 400
    # a request line beyond the limit: the connection is closed, the server goes on
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /" + b"x" * (_health.MAX_REQUEST + 10) + b" HTTP/1.1\r\n\r\n")
    await writer.drain()
    try:  # closed with input unread: a reset, or a plain end
        assert await asyncio.wait_for(reader.read(), 5) == b""
    except ConnectionResetError:
        pass
    writer.close()
    assert (await get(port, "/livez"))[0] == 200


async def test_a_probe_that_sends_nothing_is_dropped(endpoint, monkeypatch):
    monkeypatch.setattr(_health, "READ_TIMEOUT", 0.2)
    port, *_ = endpoint
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    assert await asyncio.wait_for(reader.read(), 5) == b""
    writer.close()


def test_the_port_comes_from_the_flag_or_the_variable(monkeypatch):
    assert parse_args(["examples/weather"]).health_port is None
    monkeypatch.setenv("DURABLE_ADK_HEALTH_PORT", "8081")
    args = parse_args(["examples/weather"])
    assert (args.health_port, args.health_host) == (8081, "0.0.0.0")
    assert parse_args(["examples/weather", "--health-port", "9000"]).health_port == 9000
    monkeypatch.setenv("DURABLE_ADK_HEALTH_PORT", "eighty")
    with pytest.raises(SystemExit):
        parse_args(["examples/weather"])
    with pytest.raises(SystemExit):
        parse_args(["examples/weather", "--health-port", "65536"])
