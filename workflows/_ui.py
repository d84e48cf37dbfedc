"""What the Temporal Web UI shows: summaries and the live transcript.

Runs on: workflow (sandbox-safe, pure string building).
"""

from __future__ import annotations

import json
from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from adk.events.event import Event

    from .contracts import PendingRequest

_MAX_LINES = 40


def short(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def call_summary(name: str, args: dict[str, Any] | None) -> str:
    """`tool get_weather(city=Paris)`, cut to fit the UI."""
    rendered = ", ".join(f"{k}={short(v, 30)}" for k, v in (args or {}).items())
    return short(f"tool {name}({rendered})", 190)


def code_summary(agent: str, executor: str, code: str) -> str:
    """`code: analyst · UnsafeLocalCodeExecutor · print(sum(range(10)))` (its first line)."""
    first = next((line.strip() for line in code.splitlines() if line.strip()), "")
    return short(f"code: {agent} · {executor} · {first}", 190)


def event_lines(event: Event) -> list[str]:
    """Markdown lines for one event in the transcript."""
    lines: list[str] = []
    for part in (event.content.parts if event.content else None) or []:
        if part.text and not part.thought:
            lines.append(f"**{event.author}**: {short(part.text, 300)}")
        elif part.function_call:
            call = part.function_call
            lines.append(f"**{event.author}** → `{call_summary(call.name or '?', call.args)[5:]}`")
        elif part.function_response:
            response = part.function_response
            lines.append(f"← `{response.name}`: {short(response.response, 200)}")
        elif part.executable_code:
            code = part.executable_code.code or ""
            lines.append(
                f"**{event.author}** runs code: `{short(code.replace(chr(10), '; '), 200)}`"
            )
        elif part.code_execution_result:
            result = part.code_execution_result
            outcome = "error" if result.outcome == "OUTCOME_FAILED" else "output"
            lines.append(f"← code {outcome}: {short(result.output or '', 200)}")
    if event.error_code:
        lines.append(f"**{event.author}** error `{event.error_code}`: {event.error_message or ''}")
    if event.actions.artifact_delta:  # names and versions: the content is not in the workflow
        saved = ", ".join(f"`{name}` v{v}" for name, v in event.actions.artifact_delta.items())
        lines.append(f"**{event.author}** saved {short(saved, 200)}")
    return lines


class Transcript:
    """The last lines of the conversation, for `set_current_details`."""

    def __init__(self, header: str) -> None:
        self.header = header
        self.lines: list[str] = []

    def add(self, event: Event) -> None:
        self.lines.extend(event_lines(event))
        del self.lines[:-_MAX_LINES]

    def render(self, status: str) -> str:
        body = "\n\n".join(self.lines) if self.lines else "_no events yet_"
        return f"{self.header}\n\n**status**: {status}\n\n{body}"


def answer_commands(request: PendingRequest, workflow_id: str) -> list[str]:
    """The CLI commands that answer a request."""
    target = f"'{workflow_id}' {request.id}"
    if request.kind == "confirmation":
        return [f"python -m client approve {target}", f"python -m client reject {target}"]
    return [f"python -m client respond {target} --result '{{...}}'"]


def pending_markdown(requests: list[PendingRequest], workflow_id: str) -> str:
    """The live-details section listing what the invocation waits for."""
    if not requests:
        return ""
    lines = ["", "", f"**waiting for {len(requests)} answer(s)**", ""]
    for request in requests:
        what = "approve" if request.kind == "confirmation" else "result of"
        lines.append(
            f"- {what} `{call_summary(request.tool, request.args)[5:]}` · agent {request.agent}"
            + (f" · {short(request.hint, 120)}" if request.hint else "")
        )
        lines.extend(f"  - `{command}`" for command in answer_commands(request, workflow_id))
    return "\n".join(lines)
