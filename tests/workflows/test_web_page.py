"""The web page (GET /ui) in headless Chromium, against the API on a loopback port, a
worker and a real local Temporal: chat, streamed events, answering what waits, links
to the Temporal Web UI, escaping and error display.

Screenshots land in the test's tmp dir (pytest's `tmp_path`), named after the step.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from adk import Agent
from adk.apps.app import App
from adk.sessions import InMemorySessionService
from adk.testing import MockModel
from adk.tools import FunctionTool, LongRunningFunctionTool
from api import AppCatalog, TemporalConnection, create_app
from tests._chromium import Page, chromium_binary, chromium_page
from worker import build_worker

from .helpers import call
from .test_rest_api import uvicorn_serving

QUEUE = f"web-page-{uuid.uuid4().hex[:8]}"
USER = "ada"


def transfer(amount: int, to: str) -> dict:
    """Sends money."""
    return {"sent": amount, "to": to}


def order_laptop(model: str) -> dict:
    """Orders a laptop; IT answers later."""
    return {"status": "ordered", "model": model}


def echo(request: Any) -> str:
    return f"echo: {request.contents[-1].parts[-1].text}"


def laptop_reply(request: Any) -> str:
    """To the tool's first result, then to the answer (MockModel picks replies by the
    model turns in the request: both requests hold the same turns)."""
    last = request.contents[-1].parts[-1].function_response
    ordered = last is not None and last.response == {"status": "ordered", "model": "x1"}
    return "Ordered; IT will tell." if ordered else "Your laptop is coming."


def apps() -> dict[str, App]:
    agents = {
        "bank": Agent(
            name="bank",
            model=MockModel.create(
                [
                    call("transfer", amount=500, to="bob"),
                    "Done: 500 sent to bob.",
                    call("transfer", amount=20, to="eve"),
                    "Not sent.",
                ]
            ),
            tools=[FunctionTool(transfer, require_confirmation=True)],
        ),
        "chat": Agent(name="chat", model=MockModel.create([echo] * 5)),
        "it": Agent(
            name="it",
            model=MockModel.create([call("order_laptop", model="x1"), laptop_reply]),
            tools=[LongRunningFunctionTool(order_laptop)],
        ),
    }
    return {name: App(name=name, root_agent=agent) for name, agent in agents.items()}


@pytest.fixture(scope="module")
async def base(temporal_env) -> AsyncIterator[str]:
    store = InMemorySessionService()
    worker = build_worker(
        temporal_env.client,
        apps=apps(),
        session_service=store,
        task_queue=QUEUE,
        max_cached_workflows=0,
    )
    api = create_app(
        catalog=AppCatalog(names=sorted(apps())),
        session_service=store,
        temporal=TemporalConnection(client=temporal_env.client),
        task_queue=QUEUE,
    )
    async with worker, uvicorn_serving(api) as url:
        yield url


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    chromium_binary()  # skips (fails, in CI) when there is none
    async with chromium_page() as opened:
        yield opened
        assert opened.problems == []  # no JavaScript exception, no console error


def log_text(page: Page) -> Any:
    return page.evaluate("document.querySelector('#log').innerText")


async def open_app(page: Page, base: str, app: str) -> None:
    await page.goto(f"{base}/ui?app={app}&user={USER}")
    await page.wait_for(f"document.querySelector('#app').value === {json.dumps(app)}")
    await page.wait_for("!!document.querySelector('#log .empty')")


async def send(page: Page, text: str) -> None:
    await page.wait_for("!document.querySelector('#send').disabled")  # the last turn is over
    await page.type("#message", text)
    await page.press_enter()


def dev_ui(temporal_env: Any) -> str:
    """The dev server's Web UI by the CLI's rule: the frontend's port + 1000."""
    host, _, port = temporal_env.client.service_client.config.target_host.rpartition(":")
    return f"http://{host}:{int(port) + 1000}"


async def test_chat_then_approve_a_confirmation(base: str, page: Page, temporal_env, tmp_path):
    await open_app(page, base, "bank")
    options = await page.evaluate("[...document.querySelectorAll('#app option')].map(o => o.value)")
    assert options == ["bank", "chat", "it"]
    await send(page, "send 500 to bob")

    # the streamed events: the call, the confirmation it asks for, its pending answer
    await page.wait_for("!!document.querySelector('#log .part.ask')")
    said = await log_text(page)
    assert "send 500 to bob" in said
    assert 'ƒ transfer({"amount":500,"to":"bob"})' in said
    assert 'asks to confirm transfer({"amount":500,"to":"bob"})' in said
    card = await page.wait_for(
        "document.querySelector('#pending .request[data-kind=confirmation]')?.innerText"
    )
    assert "transfer" in card and '"amount": 500' in card
    session = await page.evaluate("document.querySelector('#session').value")
    assert session and f"session={session}" in await page.evaluate("location.search")

    # the invocation's link: its run's history page in the dev server's Web UI
    link = await page.evaluate("document.querySelector('#log .invocation .head a').href")
    workflow_id = f"adk:bank:{USER}:{session}"
    prefix = f"{dev_ui(temporal_env)}/namespaces/default/workflows/{quote(workflow_id, safe='')}/"
    assert link.startswith(prefix) and link.endswith("/history"), link
    session_link = await page.evaluate("document.querySelector('#session-link').href")
    assert session_link == (
        f"{dev_ui(temporal_env)}/namespaces/default/workflows?query="
        + quote(f'WorkflowId="{workflow_id}"', safe="")
    )
    await page.screenshot(tmp_path / "1-waiting.png")

    await page.click("#pending .request button.approve")
    await page.wait_for(
        "document.querySelector('#log').innerText.includes('Done: 500 sent to bob.')"
    )
    said = await log_text(page)
    assert "approve recorded for transfer" in said
    assert "✓ confirmed" in said
    assert '↳ transfer → {"sent":500,"to":"bob"}' in said
    await page.wait_for("!!document.querySelector('#pending .empty')")
    assert not await page.evaluate("document.querySelector('#banner').classList.contains('shown')")
    await page.evaluate("document.querySelector('#log').scrollTop = 0")
    shot = await page.screenshot(tmp_path / "2-answered.png")
    assert shot.stat().st_size > 10_000
    print(f"screenshots: {tmp_path}")

    # reloading the page shows the session's history, then a rejection
    await page.goto(f"{base}/ui?app=bank&user={USER}&session={session}")
    await page.wait_for("document.querySelector('#log').innerText.includes('Done: 500')")
    await send(page, "send 20 to eve")
    await page.click("#pending .request button.reject")
    await page.wait_for("document.querySelector('#log').innerText.includes('Not sent.')")
    assert "✗ rejected" in await log_text(page)
    await page.wait_for("!!document.querySelector('#pending .empty') && !state.busy")
    await page.screenshot(tmp_path / "3-rejected.png")


async def test_a_long_running_call_is_answered_with_json(base: str, page: Page, tmp_path):
    await open_app(page, base, "it")
    await send(page, "I need a laptop")
    await page.wait_for("!!document.querySelector('#pending .request[data-kind=long_running]')")
    waiting = await page.evaluate("document.querySelector('#session').value")

    # another session: what waits in the first one is listed below (Temporal's
    # visibility list, refreshed every 5 s)
    await page.click("#new-session")
    await page.wait_for("!!document.querySelector('#pending .empty')")
    others = await page.wait_for(
        "!document.querySelector('#others').hidden && document.querySelector('#others').innerText"
    )
    assert f"order_laptop in adk:it:{USER}:{waiting}" in others
    await page.screenshot(tmp_path / "other-session.png")
    await page.evaluate(
        f"(() => {{ const s = document.querySelector('#session'); s.value = {json.dumps(waiting)};"
        " s.dispatchEvent(new Event('change')); })()"
    )
    await page.wait_for("!!document.querySelector('#pending .request[data-kind=long_running]')")
    box = "#pending .request textarea"
    await page.evaluate(f"document.querySelector('{box}').value = ''")
    await page.type(box, "not json")
    await page.click("#pending .request button.primary")
    problem = await page.wait_for("document.querySelector('.request .inline-error').innerText")
    assert problem.startswith("Not JSON")
    await page.evaluate(f"document.querySelector('{box}').value = ''")
    await page.type(box, '{"status": "shipped", "eta": "Monday"}')
    await page.click("#pending .request button.primary")
    await page.wait_for(
        "document.querySelector('#log').innerText.includes('Your laptop is coming.')"
    )
    said = await log_text(page)
    assert '↳ order_laptop → {"status":"shipped","eta":"Monday"}' in said
    await page.screenshot(tmp_path / "long-running.png")


async def test_text_is_escaped_and_errors_are_shown(base: str, page: Page, tmp_path):
    await open_app(page, base, "chat")
    hostile = '<img src=x onerror="window.pwned=1"><b>bold</b>'
    await send(page, hostile)
    await page.wait_for(
        f"document.querySelector('#log').innerText.includes({json.dumps('echo: ' + hostile)})"
    )
    assert await page.evaluate("document.querySelectorAll('#log img, #log b').length") == 0
    assert await page.evaluate("window.pwned") is None

    # the session disappears behind the page's back: the next run answers 404
    session = await page.evaluate("document.querySelector('#session').value")
    async with httpx.AsyncClient(base_url=base) as http:
        gone = await http.delete(f"/apps/chat/users/{USER}/sessions/{session}")
        assert gone.status_code == 200
    await send(page, "hello?")
    banner = await page.wait_for(
        "document.querySelector('#banner.shown') && document.querySelector('#banner').innerText"
    )
    assert "POST /run_sse → 404:" in banner and f"Session not found: {session}" in banner
    assert await page.evaluate("document.querySelector('#log .event.unsent').innerText") == (
        await page.evaluate("document.querySelector('#log .event.unsent .meta').innerText")
        + "\nhello?\nnot sent"
    )
    await page.screenshot(tmp_path / "error.png")


async def test_the_page_and_its_links_over_http(base: str, temporal_env) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        root = await http.get("/")
        assert root.status_code == 307 and root.headers["location"] == "ui"
        page = await http.get("/ui")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        # one file: no script, style or image fetched, from here or elsewhere
        assert "<script>" in page.text and "<style>" in page.text
        assert "src=" not in page.text and "<link" not in page.text
        assert "http://" not in page.text and "https://" not in page.text
        params = {"appName": "bank", "userId": USER, "sessionId": "s 1"}
        link = (await http.get("/ui/session-link", params=params)).json()
        assert link["workflowId"] == f"adk:bank:{USER}:s%201"
        bad = await http.get("/ui/session-link", params={**params, "sessionId": " "})
        assert bad.status_code == 400 and "session id" in bad.json()["detail"]


async def test_web_ui_url_overrides_the_rule(temporal_env) -> None:
    api = create_app(
        catalog=AppCatalog(names=["bank"]),
        session_service=InMemorySessionService(),
        temporal=TemporalConnection(client=temporal_env.client),
        web_ui_url="https://ui.example/",
    )
    transport = httpx.ASGITransport(app=api)
    async with httpx.AsyncClient(transport=transport, base_url="http://api") as http:
        params = {"appName": "bank", "userId": USER, "sessionId": "s1"}
        link = (await http.get("/ui/session-link", params=params)).json()["webUiUrl"]
        assert link == "https://ui.example/namespaces/default/workflows?query=" + quote(
            f'WorkflowId="adk:bank:{USER}:s1"', safe=""
        )


def test_python_m_api_takes_web_ui_url() -> None:
    from api.__main__ import parse_args

    assert parse_args(["--web-ui-url", "http://ui:8080"]).web_ui_url == "http://ui:8080"
    assert parse_args([]).web_ui_url is None
