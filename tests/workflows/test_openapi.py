"""OpenAPI toolsets on the durable runtime: an agent calls a local HTTP API (stdlib
http.server on loopback) through an OpenAPIToolset with a bearer token.

Runs on: test process (the Runner's worker runs in it, on the session's local
Temporal, replaying every workflow task). The token stays in the worker: it reaches
the server, never the workflow's history; a call whose server is down is retried by
Temporal until the server is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from google.genai import types
from temporalio.api.enums.v1 import EventType

from adk import Agent
from adk.testing import MockModel
from adk.tools.openapi_tool import OpenAPIToolset
from adk.tools.openapi_tool.auth.auth_helpers import token_to_scheme_credential
from durable_adk.dev_server import free_port
from workflows import names

from .helpers import runner_for, simplify, turn
from .test_secrets_in_history import _histories

TOKEN = "canary-bearer-4e8d21"
SPEC = {
    "openapi": "3.0.0",
    "info": {"title": "Orders", "version": "1"},
    "paths": {
        "/orders/{orderId}": {
            "get": {
                "operationId": "getOrder",
                "parameters": [
                    {
                        "name": "orderId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {"200": {"description": "The order"}},
            }
        }
    },
}


class _Orders(BaseHTTPRequestHandler):
    seen_tokens: list[str] = []

    def do_GET(self) -> None:
        self.seen_tokens.append(self.headers.get("Authorization", ""))
        data = json.dumps({"order": self.path.rsplit("/", 1)[-1], "status": "shipped"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        return None


@contextlib.contextmanager
def serving(port: int) -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", port), _Orders)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _toolset(port: int) -> OpenAPIToolset:
    spec = {**SPEC, "servers": [{"url": f"http://127.0.0.1:{port}/api"}]}
    scheme, credential = token_to_scheme_credential("oauth2Token", credential_value=TOKEN)
    return OpenAPIToolset(
        spec_dict=spec,
        auth_scheme=scheme,
        auth_credential=credential,
        allow_private_network_access=True,
    )


def _call(name: str, **args: Any) -> types.Part:
    return types.Part.from_function_call(name=name, args=args)


async def test_the_token_reaches_the_api_and_never_the_history(temporal_env) -> None:
    port = free_port()
    model = MockModel.create([_call("get_order", order_id="A-1"), "A-1 has shipped."])
    agent = Agent(name="orders_agent", model=model, tools=[_toolset(port)])
    _Orders.seen_tokens.clear()
    with serving(port):
        async with runner_for(temporal_env, agent) as runner:
            events = await turn(runner, "where is A-1?")
            workflow_id = names.invocation_workflow_id("test_app", "u1", "s1")
            histories = await _histories(temporal_env.client, workflow_id)
    assert simplify(events)[-2] == (
        "orders_agent",
        ("response", "get_order", {"order": "A-1", "status": "shipped"}),
    )
    assert _Orders.seen_tokens == [f"Bearer {TOKEN}"]
    together = "\n".join(histories.values())
    assert "get_order" in together and "shipped" in together  # payloads are decoded
    assert TOKEN not in together


async def test_a_call_whose_server_is_down_is_retried_until_it_is_back(temporal_env) -> None:
    port = free_port()
    background: list[asyncio.Task[None]] = []
    up = threading.Event()
    stop = threading.Event()

    def serve_later() -> None:
        with serving(port):
            up.set()
            stop.wait()

    async def take_server_down() -> str:
        """Takes the orders server down for a second."""

        async def later() -> None:
            await asyncio.sleep(1.0)
            threading.Thread(target=serve_later, daemon=True).start()

        background.append(asyncio.get_running_loop().create_task(later()))
        return "down"

    model = MockModel.create(
        [_call("take_server_down"), _call("get_order", order_id="B-2"), "B-2 has shipped."]
    )
    agent = Agent(name="orders_agent", model=model, tools=[take_server_down, _toolset(port)])
    try:
        async with runner_for(temporal_env, agent) as runner:
            events = await turn(runner, "where is B-2?")
            workflow_id = names.invocation_workflow_id("test_app", "u1", "s1")
            history = await temporal_env.client.get_workflow_handle(workflow_id).fetch_history()
    finally:
        await asyncio.gather(*background)
        stop.set()
    assert up.is_set()
    assert simplify(events)[-2] == (
        "orders_agent",
        ("response", "get_order", {"order": "B-2", "status": "shipped"}),
    )
    retries = [
        e.activity_task_started_event_attributes
        for e in history.events
        if e.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED
        and e.activity_task_started_event_attributes.attempt > 1
    ]
    assert retries, "get_order's first attempt should have failed (the server was down)"
    failure = retries[0].last_failure
    assert failure.application_failure_info.type == "TransientToolError"
    assert "RestApiTool get_order: GET http://127.0.0.1" in failure.message
