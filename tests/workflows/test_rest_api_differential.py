"""The REST API against google-adk 2.13's own api_server: the same requests, the same
answers (status, JSON shape and values, once ids and timestamps are dropped).

The reference is `google.adk.cli.fast_api.get_fast_api_app` over an agents folder
with in-memory services (test-only); ours is `api.create_app` over a worker that
loads the same folder with its imports ported (`google.adk` -> `adk`), as
`python -m worker` loads an app folder. Each app's model is scripted, replying by
the model turns its request holds, so both sides get the same replies.
"""

from __future__ import annotations

import difflib
import json
import re
import sys
import uuid
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from adk.sessions import InMemorySessionService
from api import AppCatalog, TemporalConnection, create_app
from worker import build_worker, load_apps

pytest.importorskip("google.adk")

AGENT = '''
from google.genai import types

from google.adk.agents import Agent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.tools import FunctionTool, ToolContext

REPLIES = {replies}


def transfer(amount: int, to: str) -> dict:
    return {{"sent": amount, "to": to}}


def explode() -> dict:
    raise ValueError("boom")


async def save_note(text: str, tool_context: ToolContext) -> dict:
    version = await tool_context.save_artifact("note.txt", types.Part.from_text(text=text))
    return {{"version": version}}


class Scripted(BaseLlm):
    """Reply i answers the request holding i model turns; "echo" repeats the user."""

    async def generate_content_async(self, llm_request, stream=False):
        turn = sum(1 for content in llm_request.contents if content.role == "model")
        reply = REPLIES[turn]
        if reply == "echo":
            part = types.Part(text="echo: " + llm_request.contents[-1].parts[-1].text)
        elif isinstance(reply, dict):
            part = types.Part(function_call=types.FunctionCall(**reply))
        else:
            part = types.Part(text=reply)
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


root_agent = Agent(
    name="{name}",
    model=Scripted(model="scripted"),
    instruction="Be brief.",
    tools={tools},
)
'''

APPS = {
    "chat": (["echo"] * 4, "[]"),
    "bank": (
        [{"name": "transfer", "args": {"amount": 500, "to": "bob"}}, "Done."],
        "[FunctionTool(transfer, require_confirmation=True)]",
    ),
    "notes": ([{"name": "save_note", "args": {"text": "remember"}}, "Saved."], "[save_note]"),
    "broken": ([{"name": "explode", "args": {}}], "[explode]"),
}
USER = "u1"
QUEUE = f"rest-api-diff-{uuid.uuid4().hex[:8]}"


def write_apps(folder: Path, ours: bool) -> Path:
    for name, (replies, tools) in APPS.items():
        source = AGENT.format(replies=repr(replies), name=name, tools=tools)
        if ours:
            source = source.replace("from google.adk.", "from adk.")
        (folder / name).mkdir(parents=True)
        (folder / name / "agent.py").write_text(source)
        (folder / name / "__init__.py").write_text("from . import agent\n")
    return folder


def forget_apps() -> None:
    """Both sides import the apps under the same names: one side's modules out."""
    for name in [n for n in sys.modules if n.split(".")[0] in APPS]:
        del sys.modules[name]


# ── the script: the same requests to either server ───────────────────────────

Call = Callable[..., Awaitable[httpx.Response]]


def message(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


def run_body(app: str, session: str, new_message: Any = None, **extra: Any) -> dict[str, Any]:
    body = {"appName": app, "userId": USER, "sessionId": session, **extra}
    if new_message is not None:
        body["newMessage"] = new_message
    return body


def sse(response: httpx.Response) -> Any:
    return [json.loads(line[len("data: ") :]) for line in response.text.splitlines() if line]


async def script(http: httpx.AsyncClient) -> list[tuple[str, int, Any]]:
    """(what, status, JSON) of each request, in order."""
    out: list[tuple[str, int, Any]] = []

    async def ask(what: str, method: str, url: str, **kw: Any) -> httpx.Response:
        response = await http.request(method, url, **kw)
        is_sse = response.headers.get("content-type", "").startswith("text/event-stream")
        out.append((what, response.status_code, sse(response) if is_sse else response.json()))
        return response

    sessions = f"/apps/chat/users/{USER}/sessions"
    await ask("list apps", "GET", "/list-apps")
    await ask("health", "GET", "/health")
    await ask("version", "GET", "/version")
    await ask("create empty", "POST", sessions)
    await ask("create", "POST", sessions, json={"sessionId": "s1", "state": {"topic": "tea"}})
    await ask("create again", "POST", sessions, json={"sessionId": "s1"})
    await ask("create by path", "POST", f"{sessions}/s2", json={"k": 1})
    await ask("get missing", "GET", f"{sessions}/nope")
    await ask("run", "POST", "/run", json=run_body("chat", "s1", message("hello")))
    await ask("run sse", "POST", "/run_sse", json=run_body("chat", "s1", message("again")))
    with_state = run_body("chat", "s1", message("state"), stateDelta={"mood": "good"})
    await ask("run with state", "POST", "/run", json=with_state)
    await ask("patch", "PATCH", f"{sessions}/s1", json={"stateDelta": {"topic": "coffee"}})
    await ask("get", "GET", f"{sessions}/s1")
    await ask("list", "GET", sessions)
    await ask("unknown app", "POST", "/run", json=run_body("nope", "s1", message("hi")))
    await ask("invalid app", "POST", "/run", json=run_body("no-pe", "s1", message("hi")))
    await ask("no session", "POST", "/run", json=run_body("chat", "zz", message("hi")))
    await ask("sse unknown app", "POST", "/run_sse", json=run_body("nope", "s1", message("x")))
    await ask("sse no session", "POST", "/run_sse", json=run_body("chat", "zz", message("hi")))
    await ask("no user", "POST", "/run", json={"appName": "chat", "sessionId": "s1"})
    await ask("delete", "DELETE", f"{sessions}/s2")
    await ask("get deleted", "GET", f"{sessions}/s2")

    bank = f"/apps/bank/users/{USER}/sessions"
    await ask("bank session", "POST", bank, json={"sessionId": "b1"})
    paused = await ask("bank run", "POST", "/run", json=run_body("bank", "b1", message("send")))
    ask_call = paused.json()[1]["content"]["parts"][0]["functionCall"]
    answer = {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "id": ask_call["id"],
                    "name": "adk_request_confirmation",
                    "response": {"confirmed": True},
                }
            }
        ],
    }
    invocation = paused.json()[0]["invocationId"]
    body = run_body("bank", "b1", answer, invocationId=invocation)
    await ask("bank resume", "POST", "/run", json=body)
    await ask("bank session after", "GET", f"{bank}/b1")

    notes = f"/apps/notes/users/{USER}/sessions"
    await ask("notes session", "POST", notes, json={"sessionId": "n1"})
    await ask("notes sse", "POST", "/run_sse", json=run_body("notes", "n1", message("note")))
    await ask("artifacts", "GET", f"{notes}/n1/artifacts")
    await ask("artifact", "GET", f"{notes}/n1/artifacts/note.txt")
    await ask("versions", "GET", f"{notes}/n1/artifacts/note.txt/versions")
    await ask("bad version", "GET", f"{notes}/n1/artifacts/note.txt/versions/x")
    await ask("no artifact", "GET", f"{notes}/n1/artifacts/other.txt")
    saved = {"filename": "note.txt", "artifact": {"text": "v1"}, "customMetadata": {"by": "api"}}
    await ask("save", "POST", f"{notes}/n1/artifacts", json=saved)
    await ask("latest", "GET", f"{notes}/n1/artifacts/note.txt/versions/latest")
    await ask("version 0", "GET", f"{notes}/n1/artifacts/note.txt", params={"version": 0})
    await ask("metadata", "GET", f"{notes}/n1/artifacts/note.txt/versions/metadata")
    await ask("metadata 1", "GET", f"{notes}/n1/artifacts/note.txt/versions/1/metadata")
    await ask("delete artifact", "DELETE", f"{notes}/n1/artifacts/note.txt")
    await ask("artifacts after", "GET", f"{notes}/n1/artifacts")

    broken = f"/apps/broken/users/{USER}/sessions"
    await ask("broken session", "POST", broken, json={"sessionId": "x1"})
    await ask("broken sse", "POST", "/run_sse", json=run_body("broken", "x1", message("go")))
    return out


# ── comparing ────────────────────────────────────────────────────────────────

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
DROPPED = {"timestamp", "lastUpdateTime", "createTime"}


def normalised(value: Any, folder: str) -> Any:
    """Timestamps out, each UUID numbered by first appearance, the agents folder named
    (a listing's order is the store's: sorted by id)."""
    seen: dict[str, str] = {}

    def walk(v: Any) -> Any:
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items() if k not in DROPPED}
        if isinstance(v, (list, tuple)):
            return [walk(x) for x in v]
        if isinstance(v, str):
            v = v.replace(folder, "<agents>")
            return _UUID.sub(lambda m: seen.setdefault(m.group(0), f"<uuid {len(seen)}>"), v)
        return v

    what, status, body = value
    if what == "list":
        body = sorted(body, key=lambda session: session["id"])
    return walk([what, status, body])


async def reference_answers(folder: Path) -> list[tuple[str, int, Any]]:
    from google.adk.cli.fast_api import get_fast_api_app

    with warnings.catch_warnings():  # the reference's own experimental/deprecation warnings
        warnings.simplefilter("ignore")
        app = get_fast_api_app(
            agents_dir=str(folder),
            session_service_uri="memory://",
            artifact_service_uri="memory://",
            memory_service_uri="memory://",
            use_local_storage=False,
            web=False,
        )
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            return await script(http)


async def our_answers(temporal_env: Any, folder: Path) -> list[tuple[str, int, Any]]:
    from adk.artifacts import InMemoryArtifactService

    apps = load_apps([str(folder / name) for name in APPS])
    store = InMemorySessionService()
    artifacts = InMemoryArtifactService()
    worker = build_worker(
        temporal_env.client,
        apps=apps,
        session_service=store,
        artifact_service=artifacts,
        task_queue=QUEUE,
    )
    api = create_app(
        catalog=AppCatalog(folder=folder),
        session_service=store,
        temporal=TemporalConnection(client=temporal_env.client),
        artifact_service=artifacts,
        task_queue=QUEUE,
    )
    async with worker:
        transport = httpx.ASGITransport(app=api)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://127.0.0.1", timeout=60
        ) as http:
            return await script(http)


async def test_our_api_answers_as_adks_api_server(temporal_env, tmp_path: Path) -> None:
    reference_folder = write_apps(tmp_path / "reference", ours=False)
    ours_folder = write_apps(tmp_path / "ours", ours=True)
    forget_apps()
    try:
        reference = await reference_answers(reference_folder)
    finally:
        forget_apps()
    try:
        ours = await our_answers(temporal_env, ours_folder)
    finally:
        forget_apps()
    # the script did what it means to (on the reference: ours is compared to it)
    statuses = {what: status for what, status, _ in reference}
    assert [statuses[w] for w in ("create again", "get missing", "unknown app", "no user")] == [
        409,
        404,
        404,
        422,
    ]
    answers = {what: body for what, _, body in reference}
    assert answers["bank resume"][-1]["content"]["parts"] == [{"text": "Done."}]
    assert [e["actions"].get("artifactDelta") for e in answers["notes sse"]] == [
        {},
        {},
        {"note.txt": 0},
        {},
    ]
    assert answers["metadata"][1]["customMetadata"] == {"by": "api"}
    assert answers["broken sse"][-1]["error"] == "ValueError: boom"
    expected = [normalised(a, str(reference_folder)) for a in reference]
    got = [normalised(a, str(ours_folder)) for a in ours]
    assert len(got) == len(expected)
    diff = "\n".join(
        difflib.unified_diff(
            json.dumps(expected, indent=1, sort_keys=True).splitlines(),
            json.dumps(got, indent=1, sort_keys=True).splitlines(),
            "google-adk 2.13",
            "ours",
            n=6,
            lineterm="",
        )
    )
    assert not diff, "google-adk 2.13's api_server and ours differ:\n" + diff


async def test_cross_origin_requests_as_adks_api_server(tmp_path: Path) -> None:
    """Browsers' requests from other origins: refused unless allowed, CORS headers when
    allowed (no run needed: /list-apps and a preflight)."""
    from google.adk.cli.fast_api import get_fast_api_app

    folder = write_apps(tmp_path / "apps", ours=False)
    allowed = ["http://localhost:3000", "regex:https://.*\\.example\\.com"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = get_fast_api_app(
            agents_dir=str(folder),
            session_service_uri="memory://",
            artifact_service_uri="memory://",
            memory_service_uri="memory://",
            use_local_storage=False,
            web=False,
            allow_origins=allowed,
        )
    ours = create_app(
        catalog=AppCatalog(folder=folder),
        session_service=InMemorySessionService(),
        temporal=TemporalConnection(address="127.0.0.1:1"),
        allow_origins=allowed,
    )
    cases = [
        ("GET", {}),
        ("GET", {"origin": "http://evil.test"}),
        ("GET", {"origin": "http://localhost:3000"}),
        ("GET", {"origin": "https://app.example.com"}),
        ("GET", {"origin": "http://127.0.0.1"}),  # the server's own
        (
            "OPTIONS",
            {"origin": "http://localhost:3000", "access-control-request-method": "POST"},
        ),
        ("OPTIONS", {"origin": "http://evil.test", "access-control-request-method": "POST"}),
    ]

    async def answers(app: Any) -> list[tuple[int, str, str | None]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            out = []
            for method, headers in cases:
                response = await http.request(method, "/list-apps", headers=headers)
                allow = response.headers.get("access-control-allow-origin")
                out.append((response.status_code, response.text, allow))
            return out

    expected = await answers(reference)
    assert [status for status, _, _ in expected] == [200, 403, 200, 200, 200, 200, 403]
    assert await answers(ours) == expected
