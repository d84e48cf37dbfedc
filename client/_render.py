"""How the CLI prints events: one readable line per part.

Runs on: process side.
"""

from __future__ import annotations

import json
from typing import Any

from adk.events.event import Event
from workflows._ui import answer_commands
from workflows.contracts import PendingRequest


def _compact(value: Any, limit: int = 200) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def event_lines(event: Event) -> list[str]:
    who = f"[{event.author}]" + (f" ({event.branch})" if event.branch else "")
    lines = []
    for part in (event.content.parts if event.content else None) or []:
        if part.thought:
            continue
        if part.text:
            lines.append(f"{who} {part.text}")
        elif part.function_call:
            call = part.function_call
            args = ", ".join(f"{k}={_compact(v, 60)}" for k, v in (call.args or {}).items())
            lines.append(f"{who} → {call.name}({args})")
        elif part.function_response:
            response = part.function_response
            lines.append(f"{who} ← {response.name}: {_compact(response.response)}")
        elif part.executable_code:
            code = (part.executable_code.code or "").replace("\n", "\n" + " " * (len(who) + 3))
            lines.append(f"{who} ▶ {code}")
        elif part.code_execution_result:
            result = part.code_execution_result
            failed = result.outcome == "OUTCOME_FAILED"
            output = (result.output or "").rstrip("\n").replace("\n", "\n" + " " * (len(who) + 3))
            lines.append(f"{who} ◀ {'error: ' if failed else ''}{output}")
    if event.error_code:
        lines.append(f"{who} error {event.error_code}: {event.error_message or ''}")
    delta = event.actions.state_delta
    if delta:
        lines.append(f"{' ' * len(who)} state: {_compact(delta)}")
    if event.actions.artifact_delta:  # name -> version saved (the content is not here)
        lines.append(f"{' ' * len(who)} artifacts: {_compact(event.actions.artifact_delta)}")
    return lines


def request_lines(request: PendingRequest, workflow_id: str) -> list[str]:
    """A pending request and the commands that answer it."""
    args = ", ".join(f"{k}={_compact(v, 60)}" for k, v in request.args.items())
    what = "needs approval" if request.kind == "confirmation" else "waits for a result"
    lines = [f"⏸ {request.tool}({args}) {what} · agent {request.agent} · id {request.id}"]
    if request.hint:
        lines.append(f"  hint: {request.hint}")
    if request.payload is not None:
        lines.append(f"  payload asked for: {_compact(request.payload)}")
    lines.extend(f"  answer: {command}" for command in answer_commands(request, workflow_id))
    return lines
