"""The REST API (api/) on a real local Temporal with a worker: google-adk 2.13's
api_server routes, our human-in-the-loop routes, and the artifact routes.

The API process is a client: the worker here runs the apps, the API starts
invocations through AgentClient and reads the session store the worker writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from google.genai import types

from adk import Agent
from adk.apps.app import App
from adk.artifacts import FileArtifactService
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import FunctionTool, ToolContext
from api import AppCatalog, TemporalConnection, create_app
from worker import build_worker

from .helpers import call
from .test_readme_commands import cli_env

T = TypeVar("T")
USER = "u1"
QUEUE = f"rest-api-{uuid.uuid4().hex[:8]}"
GATE = asyncio.Event()
"""The `wait_for_gate` tool returns once a test sets it (a stream read while it runs)."""


def echo(request: Any) -> str:
    return f"echo: {request.contents[-1].parts[-1].text}"


def transfer(amount: int, to: str) -> dict:
    return {"sent": amount, "to": to}


async def wait_for_gate() -> dict:
    await GATE.wait()
    return {"gate": "open"}


async def save_note(text: str, tool_context: ToolContext) -> dict:
    version = await tool_context.save_artifact("note.txt", types.Part.from_text(text=text))
    return {"version": version}


def explode() -> dict:
    raise ValueError("boom")


def apps() -> dict[str, App]:
    agents = {
        "chat": Agent(name="chat", model=MockModel.create([echo] * 5)),
        "bank": Agent(
            name="bank",
            model=MockModel.create([call("transfer", amount=500, to="bob"), "Done."]),
            tools=[FunctionTool(transfer, require_confirmation=True)],
        ),
        "gated": Agent(
            name="gated",
            model=MockModel.create([call("wait_for_gate"), "Through the gate."]),
            tools=[wait_for_gate],
        ),
        "notes": Agent(
            name="notes",
            model=MockModel.create([call("save_note", text="remember"), "Saved."]),
            tools=[save_note],
        ),
        "broken": Agent(name="broken", model=MockModel.create([call("explode")]), tools=[explode]),
    }
    return {name: App(name=name, root_agent=agent) for name, agent in agents.items()}


class Served:
    """The worker's store and artifacts, and the API over them."""

    def __init__(self, store: InMemorySessionService, artifacts: FileArtifactService, api: Any):
        self.store = store
        self.artifacts = artifacts
        self.api = api

    def http(self) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=self.api)
        return httpx.AsyncClient(transport=transport, base_url="http://api", timeout=60)


@pytest.fixture(scope="module")
async def served(temporal_env, tmp_path_factory) -> AsyncIterator[Served]:
    store = InMemorySessionService()
    artifacts = FileArtifactService(tmp_path_factory.mktemp("rest") / "artifacts")
    worker = build_worker(
        temporal_env.client,
        apps=apps(),
        session_service=store,
        artifact_service=artifacts,
        task_queue=QUEUE,
        max_cached_workflows=0,  # every workflow task replays
    )
    api = create_app(
        catalog=AppCatalog(names=["bank", "broken", "chat", "gated", "notes"]),
        session_service=store,
        temporal=TemporalConnection(client=temporal_env.client),
        artifact_service=artifacts,
        task_queue=QUEUE,
    )
    async with worker:
        yield Served(store, artifacts, api)


async def new_session(http: httpx.AsyncClient, app: str, **body: Any) -> str:
    response = await http.post(f"/apps/{app}/users/{USER}/sessions", json=body or None)
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


def run_body(app: str, session: str, text: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"appName": app, "userId": USER, "sessionId": session, **extra}
    if text is not None:
        body["newMessage"] = {"role": "user", "parts": [{"text": text}]}
    return body


def texts(events: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """(author, text | ('call', name) | ('response', name, response)) of JSON events."""
    out: list[tuple[str, Any]] = []
    for event in events:
        for part in (event.get("content") or {}).get("parts", []):
            if "text" in part:
                out.append((event["author"], part["text"]))
            elif "functionCall" in part:
                out.append((event["author"], ("call", part["functionCall"]["name"])))
            elif "functionResponse" in part:
                fr = part["functionResponse"]
                out.append((event["author"], ("response", fr["name"], fr.get("response"))))
    return out


async def eventually(check: Callable[[], Awaitable[T]], timeout: float = 20.0) -> T:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        if result := await check():
            return result
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not within {timeout} s (last: {result!r})")
        await asyncio.sleep(0.1)


def no_nulls(value: Any) -> bool:
    if isinstance(value, dict):
        return all(v is not None and no_nulls(v) for v in value.values())
    if isinstance(value, list):
        return all(no_nulls(v) for v in value)
    return True


# ── apps and sessions ────────────────────────────────────────────────────────


async def test_list_apps_and_the_session_routes(served: Served) -> None:
    async with served.http() as http:
        assert (await http.get("/list-apps")).json() == ["bank", "broken", "chat", "gated", "notes"]
        detailed = await http.get("/list-apps", params={"detailed": "true"})
        assert detailed.status_code == 501 and "detailed" in detailed.json()["detail"]
        assert (await http.get("/health")).json() == {"status": "ok"}
        assert (await http.get("/version")).json()["version"] == "2.13.0"

        created = (await http.post(f"/apps/chat/users/{USER}/sessions")).json()
        assert set(created) == {"id", "appName", "userId", "state", "events", "lastUpdateTime"}
        assert (created["appName"], created["userId"], created["state"]) == ("chat", USER, {})
        sid = f"s-{uuid.uuid4().hex[:8]}"
        body = {"sessionId": sid, "state": {"topic": "tea", "user:name": "Ada"}}
        given = (await http.post(f"/apps/chat/users/{USER}/sessions", json=body)).json()
        assert (given["id"], given["state"]) == (sid, {"topic": "tea", "user:name": "Ada"})
        again = await http.post(f"/apps/chat/users/{USER}/sessions", json=body)
        assert (again.status_code, again.json()) == (
            409,
            {"detail": f"Session already exists: {sid}"},
        )
        # google-adk's deprecated form: the id in the path, the state as the body
        old = await http.post(f"/apps/chat/users/{USER}/sessions/{sid}-old", json={"k": 1})
        assert (old.json()["id"], old.json()["state"]) == (
            f"{sid}-old",
            {"k": 1, "user:name": "Ada"},
        )
        refused = await http.post(
            f"/apps/chat/users/{USER}/sessions", json={"events": [{"author": "user"}]}
        )
        assert refused.status_code == 501 and refused.json()["detail"].startswith("events:")

        listed = (await http.get(f"/apps/chat/users/{USER}/sessions")).json()
        assert {created["id"], sid, f"{sid}-old"} <= {s["id"] for s in listed}
        assert (await http.get(f"/apps/chat/users/{USER}/sessions/{sid}")).json()["id"] == sid
        missing = await http.get(f"/apps/chat/users/{USER}/sessions/nope")
        assert (missing.status_code, missing.json()) == (404, {"detail": "Session not found"})

        patched = await http.patch(
            f"/apps/chat/users/{USER}/sessions/{sid}", json={"stateDelta": {"topic": "coffee"}}
        )
        assert patched.json()["state"]["topic"] == "coffee"
        [event] = patched.json()["events"]
        assert event["author"] == "user" and event["actions"]["stateDelta"] == {"topic": "coffee"}
        assert event["invocationId"].startswith("p-")

        deleted = await http.delete(f"/apps/chat/users/{USER}/sessions/{sid}")
        assert (deleted.status_code, deleted.json()) == (200, None)
        gone = await http.get(f"/apps/chat/users/{USER}/sessions/{sid}")
        assert gone.status_code == 404


# ── /run ─────────────────────────────────────────────────────────────────────


async def test_run_returns_the_invocations_events_as_adk_sends_them(served: Served) -> None:
    async with served.http() as http:
        sid = await new_session(http, "chat")
        response = await http.post("/run", json=run_body("chat", sid, "hello"))
        assert response.status_code == 200, response.text
        events = response.json()
        assert texts(events) == [("chat", "echo: hello")]
        [event] = events
        assert {"invocationId", "author", "content", "actions", "id", "timestamp"} <= set(event)
        assert no_nulls(events)  # exclude_none, camelCase
        tagged = run_body("chat", sid, "again", customMetadata={"source": "web"})
        second = (await http.post("/run", json=tagged)).json()
        assert texts(second) == [("chat", "echo: again")]
        assert second[0]["invocationId"] != event["invocationId"]
        assert second[0]["customMetadata"] == {"source": "web"}  # RunConfig.custom_metadata
        # snake_case is accepted too (google-adk's models populate by name)
        snake = {"app_name": "chat", "user_id": USER, "session_id": sid}
        snake["new_message"] = {"role": "user", "parts": [{"text": "snake"}]}
        assert texts((await http.post("/run", json=snake)).json()) == [("chat", "echo: snake")]
        session = (await http.get(f"/apps/chat/users/{USER}/sessions/{sid}")).json()
        assert [e["author"] for e in session["events"]] == ["user", "chat"] * 3


async def test_run_refuses_bad_input_as_adk_does(served: Served) -> None:
    async with served.http() as http:
        sid = await new_session(http, "chat")
        for route in ("/run", "/run_sse"):
            unknown = await http.post(route, json=run_body("nope", sid, "hi"))
            assert unknown.status_code == 404
            assert unknown.json()["detail"].startswith("Agent not found: 'nope'.")
            no_session = await http.post(route, json=run_body("chat", "missing", "hi"))
            assert (no_session.status_code, no_session.json()) == (
                404,
                {"detail": "Session not found: missing"},
            )
            malformed = await http.post(route, json={"appName": "chat", "sessionId": sid})
            assert malformed.status_code == 422  # no userId
            assert malformed.json()["detail"][0]["loc"] == ["body", "userId"]
            not_json = await http.post(
                route, content=b"{", headers={"content-type": "application/json"}
            )
            assert not_json.status_code == 422
            streaming = await http.post(route, json=run_body("chat", sid, "hi", streaming=True))
            assert streaming.status_code == 501
            assert streaming.json()["detail"].startswith("streaming: ")
            tier = await http.post(route, json=run_body("chat", sid, "hi", serviceTier="flex"))
            assert tier.status_code == 501 and tier.json()["detail"].startswith("serviceTier: ")
            nothing = await http.post(route, json=run_body("chat", sid))
            assert nothing.status_code == 400
            assert nothing.json()["detail"].startswith("Running an agent requires either")
            empty = await http.post(route, json=run_body("chat", sid, "  "))
            assert (empty.status_code, empty.json()) == (
                400,
                {"detail": "The message is empty: send some text."},
            )
        # nothing ran
        session = (await http.get(f"/apps/chat/users/{USER}/sessions/{sid}")).json()
        assert session["events"] == []


async def test_a_failed_invocation_is_a_500_or_the_streams_last_message(served: Served) -> None:
    async with served.http() as http:
        sid = await new_session(http, "broken")
        failed = await http.post("/run", json=run_body("broken", sid, "go"))
        assert (failed.status_code, failed.json()) == (500, {"detail": "ValueError: boom"})
        sid = await new_session(http, "broken")
        streamed = await http.post("/run_sse", json=run_body("broken", sid, "go"))
        assert streamed.status_code == 200
        data = [json.loads(line[6:]) for line in streamed.text.splitlines() if line]
        assert texts(data[:-1]) == [("broken", ("call", "explode"))]
        assert data[-1]["error"] == "ValueError: boom"
        assert data[-1]["error_details"]["error_type"] == "ValueError"


async def test_a_run_for_an_app_no_worker_serves_is_refused(temporal_env, served: Served) -> None:
    api = create_app(
        catalog=AppCatalog(names=["orphan"]),
        session_service=served.store,
        temporal=TemporalConnection(client=temporal_env.client),
        worker_grace=0.0,
    )
    transport = httpx.ASGITransport(app=api)
    async with httpx.AsyncClient(transport=transport, base_url="http://api", timeout=60) as http:
        sid = await new_session(http, "orphan")
        refused = await http.post("/run", json=run_body("orphan", sid, "hi"))
        assert refused.status_code == 503
        assert refused.json()["detail"].startswith(
            "no worker polls task queue 'durable-adk.orphan' (no worker serves app 'orphan')"
        )
        session = (await http.get(f"/apps/orphan/users/{USER}/sessions/{sid}")).json()
        assert session["events"] == []  # nothing started


# ── human in the loop ────────────────────────────────────────────────────────


async def test_a_confirmation_is_approved_through_the_api(served: Served) -> None:
    async with served.http() as http:
        sid = await new_session(http, "bank")
        events = (await http.post("/run", json=run_body("bank", sid, "send 500 to bob"))).json()
        # the turn ends where the invocation waits, as an ADK turn at a pause
        assert texts(events) == [
            ("bank", ("call", "transfer")),
            ("bank", ("call", "adk_request_confirmation")),
            (
                "bank",
                (
                    "response",
                    "transfer",
                    {"error": "This tool call requires confirmation, please approve or reject."},
                ),
            ),
        ]
        ask = events[1]["content"]["parts"][0]["functionCall"]
        assert events[1]["longRunningToolIds"] == [ask["id"]]
        workflow_id = f"adk:bank:{USER}:{sid}"

        async def listed() -> list[dict[str, Any]]:
            found = (await http.get("/pending", params={"appName": "bank"})).json()["requests"]
            return [r for r in found if r["workflowId"] == workflow_id]

        [request] = await eventually(listed)
        # an app name goes into the visibility query's quotes: one no app can have is refused
        injected = await http.get("/pending", params={"appName": 'bank" OR AdkApp != "x'})
        assert injected.status_code == 400
        assert injected.json()["detail"].startswith("Invalid app name 'bank\" OR")
        assert (request["id"], request["kind"], request["tool"]) == (
            ask["id"],
            "confirmation",
            "transfer",
        )
        assert request["args"] == {"amount": 500, "to": "bob"}
        assert request["ownerWorkflowId"] == workflow_id
        status = (await http.get(f"/invocations/{workflow_id}")).json()
        assert status["status"] == "waiting"
        assert status["invocationId"] == events[0]["invocationId"]
        assert [r["id"] for r in status["pending"]] == [ask["id"]]

        wrong = await http.post(f"/invocations/{workflow_id}/requests/adk-nope:approve")
        assert wrong.status_code == 409 and "adk-nope" in wrong.json()["detail"]
        approved = await http.post(
            f"/invocations/{workflow_id}/requests/{ask['id']}:approve", json={}
        )
        assert approved.status_code == 200, approved.text
        assert "approve recorded for transfer" in approved.json()["message"]

        async def finished() -> list[tuple[str, Any]]:
            session = (await http.get(f"/apps/bank/users/{USER}/sessions/{sid}")).json()
            said = texts(session["events"])
            return said if said[-1] == ("bank", "Done.") else []

        said = await finished() or await eventually(finished)
        assert said[-3:] == [
            ("user", ("response", "adk_request_confirmation", {"confirmed": True})),
            ("bank", ("response", "transfer", {"sent": 500, "to": "bob"})),
            ("bank", "Done."),
        ]
        twice = await http.post(f"/invocations/{workflow_id}/requests/{ask['id']}:approve")
        assert twice.status_code == 409
        assert f"Request {ask['id']!r} (" in twice.json()["detail"]
        assert twice.json()["detail"].endswith("was already answered.")
        not_ours = await http.post("/invocations/some-id/requests/x:reject")
        assert not_ours.status_code == 404 and "some-id" in not_ours.json()["detail"]
        respond = await http.post(f"/invocations/{workflow_id}/requests/x:respond", json={})
        assert respond.status_code == 422  # no result


async def test_adks_resume_message_through_run(served: Served) -> None:
    """What a frontend written for google-adk sends: a FunctionResponse answering the
    confirmation request, in the next /run."""
    async with served.http() as http:
        sid = await new_session(http, "bank")
        events = (await http.post("/run", json=run_body("bank", sid, "send 500 to bob"))).json()
        ask = events[1]["content"]["parts"][0]["functionCall"]
        answer = {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "id": ask["id"],
                        "name": "adk_request_confirmation",
                        "response": {"confirmed": True},
                    }
                }
            ],
        }
        body = run_body("bank", sid, invocationId=events[0]["invocationId"], newMessage=answer)
        resumed = await http.post("/run", json=body)
        assert resumed.status_code == 200, resumed.text
        assert texts(resumed.json()) == [
            ("bank", ("response", "transfer", {"sent": 500, "to": "bob"})),
            ("bank", "Done."),
        ]
        assert {e["invocationId"] for e in resumed.json()} == {events[0]["invocationId"]}


# ── /run_sse ─────────────────────────────────────────────────────────────────


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def uvicorn_serving(app: Any) -> AsyncIterator[str]:
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="none")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        await eventually(lambda: asyncio.sleep(0, server.started), timeout=10)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def test_run_sse_streams_each_event_as_it_is_recorded(served: Served) -> None:
    GATE.clear()
    async with uvicorn_serving(served.api) as base, httpx.AsyncClient(base_url=base) as http:
        sid = await new_session(http, "gated")
        body = run_body("gated", sid, "go")
        async with http.stream("POST", "/run_sse", json=body, timeout=60) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("text/event-stream")
            lines = response.aiter_lines()
            first = await asyncio.wait_for(anext(lines), 20)
            # the tool still runs (it waits for the gate): the call came alone
            assert first.startswith("data: ") and not GATE.is_set()
            assert texts([json.loads(first.removeprefix("data: "))]) == [
                ("gated", ("call", "wait_for_gate"))
            ]
            GATE.set()
            rest = [line async for line in lines]
    data = [json.loads(line.removeprefix("data: ")) for line in rest if line]
    assert all(line.startswith("data: ") for line in rest if line)
    assert texts(data) == [
        ("gated", ("response", "wait_for_gate", {"gate": "open"})),
        ("gated", "Through the gate."),
    ]
    assert rest[0] == "" and rest[-1] == ""  # one blank line after each message


async def test_run_sse_splits_an_artifact_event_and_the_artifact_routes(served: Served) -> None:
    async with served.http() as http:
        sid = await new_session(http, "notes")
        response = await http.post("/run_sse", json=run_body("notes", sid, "note it"))
        data = [
            json.loads(line.removeprefix("data: "))
            for line in response.text.split("\n")
            if line.startswith("data: ")
        ]
        # as google-adk: the response with an artifact delta comes as its content, then
        # the delta alone
        call_event, content_part, delta_part, final = data
        assert texts([content_part]) == [("notes", ("response", "save_note", {"version": 0}))]
        assert content_part["actions"]["artifactDelta"] == {}
        assert "content" not in delta_part and delta_part["actions"]["artifactDelta"] == {
            "note.txt": 0
        }
        assert content_part["id"] == delta_part["id"]
        assert texts([final]) == [("notes", "Saved.")]

        base = f"/apps/notes/users/{USER}/sessions/{sid}/artifacts"
        assert (await http.get(base)).json() == ["note.txt"]
        assert (await http.get(f"{base}/note.txt")).json() == {"text": "remember"}
        assert (await http.get(f"{base}/note.txt/versions")).json() == [0]
        saved = await http.post(
            base,
            json={
                "filename": "note.txt",
                "artifact": {"text": "v1"},
                "customMetadata": {"by": "api"},
            },
        )
        assert saved.status_code == 200, saved.text
        assert (saved.json()["version"], saved.json()["customMetadata"]) == (1, {"by": "api"})
        assert (await http.get(f"{base}/note.txt/versions/latest")).json() == {"text": "v1"}
        assert (await http.get(f"{base}/note.txt", params={"version": 0})).json() == {
            "text": "remember"
        }
        metadata = (await http.get(f"{base}/note.txt/versions/metadata")).json()
        assert [m["version"] for m in metadata] == [0, 1]
        one = (await http.get(f"{base}/note.txt/versions/1/metadata")).json()
        assert one["version"] == 1
        bad = await http.get(f"{base}/note.txt/versions/x")
        assert (bad.status_code, bad.json()) == (422, {"detail": "Invalid version ID"})
        assert (await http.get(f"{base}/other.txt")).status_code == 404
        assert (await http.delete(f"{base}/note.txt")).status_code == 200
        assert (await http.get(base)).json() == []


# ── Temporal away ────────────────────────────────────────────────────────────


async def test_temporal_unreachable_answers_503_and_sessions_still_work(tmp_path: Path) -> None:
    address = f"127.0.0.1:{free_port()}"  # nothing listens there
    api = create_app(
        catalog=AppCatalog(names=["chat"]),
        session_service=InMemorySessionService(),
        temporal=TemporalConnection(address=address),
    )
    transport = httpx.ASGITransport(app=api)
    async with httpx.AsyncClient(transport=transport, base_url="http://api", timeout=60) as http:
        sid = await new_session(http, "chat")
        for response in (
            await http.get("/pending"),
            await http.post("/run", json=run_body("chat", sid, "hi")),
        ):
            assert response.status_code == 503
            assert response.json()["detail"].startswith(f"Temporal is unreachable at {address}")
        assert (await http.get(f"/apps/chat/users/{USER}/sessions/{sid}")).status_code == 200


# ── the processes: python -m worker and python -m api ────────────────────────


async def test_python_m_api_serves_a_worker_processs_app(temporal_env, tmp_path: Path) -> None:
    """The README's commands: a worker process, the API process over the same store
    (their default SQLite file under DURABLE_ADK_DATA_DIR), a run through HTTP."""
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    address = temporal_env.client.service_client.config.target_host
    # (the weather example's offline model, as on a machine with no key)
    env = cli_env(address, tmp_path, f"rest-api-process-{uuid.uuid4().hex[:8]}")
    port = free_port()
    commands = {
        "worker": [sys.executable, "-m", "worker", "examples/weather"],
        "api": [sys.executable, "-m", "api", "examples", "--port", str(port)],
    }
    processes: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for name, argv in commands.items():
            with open(tmp_path / f"{name}.log", "wb") as out:
                processes[name] = subprocess.Popen(
                    argv, cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT
                )
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:

            async def up() -> bool:
                for name, process in processes.items():
                    log = (tmp_path / f"{name}.log").read_text()
                    assert process.poll() is None, log
                if "worker started" not in (tmp_path / "worker.log").read_text():
                    return False
                try:
                    return (await http.get("/health")).status_code == 200
                except httpx.TransportError:
                    return False

            await eventually(up, timeout=60)
            assert "weather" in (await http.get("/list-apps")).json()
            body = {"sessionId": "s1", "state": {"user:name": "Ada"}}
            created = await http.post("/apps/weather/users/ada/sessions", json=body)
            assert created.status_code == 200, created.text
            run = {
                "appName": "weather",
                "userId": "ada",
                "sessionId": "s1",
                "newMessage": {"role": "user", "parts": [{"text": "What's the weather in Paris?"}]},
            }
            response = await http.post("/run_sse", json=run)
            data = [json.loads(line[6:]) for line in response.text.splitlines() if line]
            assert texts(data)[-1] == ("weather_agent", "It is partly cloudy and 18°C in Paris.")
            session = (await http.get("/apps/weather/users/ada/sessions/s1")).json()
            assert session["state"]["last_city"] == "Paris"
            assert len(session["events"]) == 1 + len(data)
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            process.wait(timeout=30)
