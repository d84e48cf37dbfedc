"""Headless Chromium (Debian's package) driven over the Chrome DevTools Protocol, for
tests of the web page: a few CDP calls over a `websockets` connection, no browser
automation library.

Runs on: test process only.

Outside CI, no chromium binary means the web page tests skip with that reason; in
CI (`CI` set) they fail instead, as the PostgreSQL tests.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

INSTALL_HINT = "apt-get install -y chromium"
_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium_binary() -> str:
    """The browser's path; skips the test (fails it in CI) when there is none."""
    for name in _NAMES:
        if found := shutil.which(name):
            return found
    reason = f"no Chromium binary ({', '.join(_NAMES)}) found: {INSTALL_HINT}"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


class CdpError(Exception):
    pass


class Page:
    """One page target: `call` a CDP method, `evaluate` JavaScript, `wait_for` a
    condition, click and type as a user, take screenshots. JavaScript exceptions
    and console errors of the page are collected in `problems`."""

    def __init__(self, socket: Any) -> None:
        self._socket = socket
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.problems: list[str] = []
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self._socket:
            message = json.loads(raw)
            if "id" in message:
                future = self._waiting.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("method") == "Runtime.exceptionThrown":
                details = message["params"]["exceptionDetails"]
                text = details.get("exception", {}).get("description") or details.get("text")
                self.problems.append(f"exception: {text}")
            elif message.get("method") == "Runtime.consoleAPICalled":
                params = message["params"]
                if params.get("type") == "error":
                    args = [a.get("value", a.get("description")) for a in params.get("args", [])]
                    self.problems.append(f"console.error: {args}")

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = future
        await self._socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 30)
        if "error" in answer:
            raise CdpError(f"{method}: {answer['error']}")
        return dict(answer.get("result", {}))

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression (awaited if it is a promise)."""
        result = await self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise CdpError(f"{expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 30.0) -> Any:
        """The first truthy value of `expression`, polled."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            if value := await self.evaluate(expression):
                return value
            if asyncio.get_running_loop().time() > deadline:
                text = await self.evaluate("document.body.innerText")
                raise AssertionError(f"not within {timeout} s: {expression}\npage text:\n{text}")
            await asyncio.sleep(0.1)

    async def goto(self, url: str) -> None:
        await self.call("Page.navigate", url=url)
        await self.wait_for("document.readyState === 'complete'")

    async def click(self, selector: str) -> None:
        """A real mouse click at the middle of the element."""
        box = await self.wait_for(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e || e.disabled) return null; e.scrollIntoView({block: 'center'});"
            " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            await self.call(
                "Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1
            )

    async def type(self, selector: str, text: str) -> None:
        await self.click(selector)
        await self.call("Input.insertText", text=text)

    async def press_enter(self) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call(
                "Input.dispatchKeyEvent",
                type=kind,
                key="Enter",
                code="Enter",
                windowsVirtualKeyCode=13,
                **({"text": "\r"} if kind == "keyDown" else {}),
            )

    async def screenshot(self, path: Path) -> Path:
        shot = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))
        return path

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


@contextlib.asynccontextmanager
async def chromium_page(width: int = 1280, height: int = 820) -> AsyncIterator[Page]:
    """A headless Chromium (its own profile in a temp dir) and its first page."""
    binary = chromium_binary()
    profile = tempfile.mkdtemp(prefix="durable-adk-chromium-")
    process = await asyncio.create_subprocess_exec(
        binary,
        "--headless=new",
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        f"--user-data-dir={profile}",
        "--no-sandbox",  # as root (tests in containers) the sandbox refuses to start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--font-render-hinting=none",
        f"--window-size={width},{height}",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    drain: asyncio.Task[None] | None = None
    try:
        port = await _devtools_port(process)
        assert process.stderr is not None  # drained from now on: a full pipe would block it
        drain = asyncio.create_task(_drain(process.stderr))
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            targets = (await http.get("/json/list")).json()
        [target] = [t for t in targets if t["type"] == "page"][:1]
        async with websockets.connect(target["webSocketDebuggerUrl"], max_size=None) as socket:
            page = Page(socket)
            try:
                for domain in ("Page", "Runtime"):
                    await page.call(f"{domain}.enable")
                await page.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=width,
                    height=height,
                    deviceScaleFactor=1,
                    mobile=False,
                )
                yield page
            finally:
                await page.close()
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
        if drain is not None:
            drain.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await drain
        shutil.rmtree(profile, ignore_errors=True)


async def _devtools_port(process: asyncio.subprocess.Process) -> int:
    """The port Chromium chose, from its `DevTools listening on ws://...` line."""
    assert process.stderr is not None
    seen: list[str] = []

    async def read() -> int:
        assert process.stderr is not None
        while line := (await process.stderr.readline()).decode(errors="replace"):
            seen.append(line.rstrip())
            if found := re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line):
                return int(found.group(1))
        raise RuntimeError("Chromium exited: " + " | ".join(seen[-10:]))

    try:
        return await asyncio.wait_for(read(), 60)
    except TimeoutError:
        raise RuntimeError("Chromium did not start: " + " | ".join(seen[-10:])) from None


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.read(65536):
        pass
