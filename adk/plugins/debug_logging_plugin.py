"""DebugLoggingPlugin: every invocation's interaction data, one YAML document per
invocation appended to a file, as google.adk 2.13 writes it.

Runs on: activity side. Its hooks run in several activities (the begin step, each
model step, each tool call, the steps that record events, after_run's own step),
possibly in several worker processes and after a crash on another worker. So the
per-invocation buffer 2.13 keeps in the plugin object lives in a file instead:

- before_run creates `<output_path>.pending/<hash of the invocation id>.jsonl`
  with the invocation's header; every later hook appends one JSON line (one
  `write` on a file opened for appending, so concurrent steps of one invocation,
  such as parallel tool calls, never interleave within a line);
- each line names the activity and attempt that wrote it: when Temporal retries a
  step, only the last attempt's lines count, so a retried step's entries appear
  once, as the step counts once;
- after_run reads the buffer, adds 2.13's `session_state_snapshot` and
  `invocation_end`, appends the document to `output_path` (mode 0o600, 2.13's
  warning for a file readable by others) and removes the buffer. An invocation
  that fails gets no document (as in 2.13) and its buffer is removed
  (on_run_error_callback; 2.13 keeps it in memory for the process's life).

The buffer must be where every worker serving the app can reach it (a shared
volume, or one worker); a step on a worker that cannot see it records nothing,
as 2.13 records nothing for an invocation it has no state for. A crash of the
after_run step between writing the document and removing the buffer writes the
document again on the retry (at least once).

As in 2.13, on_user_message runs before before_run creates the buffer, so its
`user_message` entry is skipped with 2.13's warning. Credentials are redacted
from what is written: secret-named keys, armored private-key blocks and every
`temp:` state key.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from datetime import date, datetime, time
from enum import Enum
from pathlib import Path
from typing import Any

from google.genai import types
from pydantic import BaseModel, Field

from ..sessions.state import State
from ._callback_helpers import (
    ToolResultClassifier,
    _classify_tool_result_error,
    _is_durable_node_error,
    _mark_tool_error_recorded,
    _pop_tool_error_recorded,
    _validate_tool_result_classifier,
)
from .base_plugin import BasePlugin

logger = logging.getLogger("google_adk.google.adk.plugins.debug_logging_plugin")

_REDACTED = "[REDACTED]"
_SENSITIVE_KEYS = frozenset(
    {
        "access_token", "api_key", "auth_code", "auth_response_uri", "authorization",
        "client_secret", "code_verifier", "google_access_id", "id_token", "password",
        "private_key", "private_key_id", "proxy_authorization", "refresh_token", "secret",
        "sig", "signature", "token", "x_amz_credential", "x_amz_signature", "x_api_key",
        "x_goog_credential", "x_goog_security_token", "x_goog_signature",
    }
)  # fmt: skip
_SENSITIVE_PARTS = ("api_key", "credentials", "passwd", "password", "private_key", "secret")
_SENSITIVE_SUFFIXES = ("_token",)  # not a substring: prompt_token_count stays
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_PRIVATE_KEY = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*?"
    r"(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\Z)",
    re.DOTALL,
)
_FILE_MODE = 0o600
_MAX_DEPTH = 20


def _is_sensitive_key(key: Any) -> bool:
    if not isinstance(key, str):
        return False
    normalized = _CAMEL.sub("_", str.__str__(key)).lower().replace("-", "_")
    if normalized.startswith(State.TEMP_PREFIX):
        return True
    for prefix in (State.APP_PREFIX, State.USER_PREFIX):
        if normalized.startswith(prefix):
            normalized = normalized[len(prefix) :]
            break
    if normalized in _SENSITIVE_KEYS or normalized.endswith(_SENSITIVE_SUFFIXES):
        return True
    return any(part in normalized for part in _SENSITIVE_PARTS)


class _DebugEntry(BaseModel):
    timestamp: str
    entry_type: str
    invocation_id: str | None = None
    agent_name: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class _InvocationDebugState(BaseModel):
    invocation_id: str
    session_id: str
    app_name: str
    user_id: str | None = None
    start_time: str
    entries: list[_DebugEntry] = Field(default_factory=list)


def _step() -> tuple[str | None, int]:
    """The activity (and its attempt) running this hook; (None, 0) outside one."""
    from temporalio import activity

    if not activity.in_activity():
        return None, 0
    info = activity.info()
    return f"{info.workflow_id}/{info.workflow_run_id}/{info.activity_id}", info.attempt


def _last_attempts(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines each step's last attempt wrote (and those written outside a step)."""
    last: dict[str, int] = {}
    for line in lines:
        if line.get("step"):
            last[line["step"]] = max(last.get(line["step"], 0), line.get("attempt", 0))
    return [
        line
        for line in lines
        if not line.get("step") or line.get("attempt", 0) == last[line["step"]]
    ]


class DebugLoggingPlugin(BasePlugin):
    """Writes each invocation's requests, responses, tool calls, events and final state
    to a YAML file (one document per invocation, appended)."""

    def __init__(
        self,
        *,
        name: str = "debug_logging_plugin",
        output_path: str = "adk_debug.yaml",
        include_session_state: bool = True,
        include_system_instruction: bool = True,
        tool_result_classifier: ToolResultClassifier | None = None,
    ) -> None:
        super().__init__(name)
        _validate_tool_result_classifier(tool_result_classifier)
        self._output_path = Path(output_path)
        self._include_session_state = include_session_state
        self._include_system_instruction = include_system_instruction
        self._tool_result_classifier = tool_result_classifier
        self._warned_about_output_mode = False

    # ── the durable per-invocation buffer ──

    def _buffer(self, invocation_id: str) -> Path:
        digest = hashlib.sha256(invocation_id.encode()).hexdigest()[:32]
        return Path(f"{self._output_path}.pending") / f"{digest}.jsonl"

    def _append(self, path: Path, line: dict[str, Any], *, create: bool = False) -> bool:
        """One JSON line, in one write; False when the buffer does not exist."""
        step, attempt = _step()
        data = (json.dumps({"step": step, "attempt": attempt, **line}) + "\n").encode()
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT if create else 0)
        if create:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, flags, _FILE_MODE)
        except FileNotFoundError:
            return False
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        return True

    def _read(self, path: Path) -> _InvocationDebugState | None:
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        lines = _last_attempts([json.loads(text) for text in raw.splitlines() if text])
        starts = [i for i, line in enumerate(lines) if line["kind"] == "start"]
        if not starts:
            return None
        # entries written before the (kept) start had no state yet: 2.13 drops them
        header, rest = lines[starts[-1]], lines[starts[-1] + 1 :]
        return _InvocationDebugState(
            **header["state"],
            entries=[_DebugEntry(**line["entry"]) for line in rest if line["kind"] == "entry"],
        )

    def _get_timestamp(self) -> str:
        return datetime.now().isoformat()

    def _add_entry(
        self, invocation_id: str, entry_type: str, agent_name: str | None = None, **data: Any
    ) -> None:
        entry = _DebugEntry(
            timestamp=self._get_timestamp(),
            entry_type=entry_type,
            invocation_id=invocation_id,
            agent_name=agent_name,
            data=self._safe_serialize(data),
        )
        line = {"kind": "entry", "entry": entry.model_dump(mode="json")}
        if not self._append(self._buffer(invocation_id), line):
            logger.warning("No debug state for invocation %s, skipping entry", invocation_id)

    # ── serialising what the hooks see ──

    def _serialize_content(self, content: types.Content | None) -> dict[str, Any] | None:
        if content is None:
            return None
        parts = []
        for part in content.parts or []:
            data: dict[str, Any] = {}
            if part.text:
                data["text"] = part.text
            if call := part.function_call:
                args = self._safe_serialize(call.args)
                data["function_call"] = {"id": call.id, "name": call.name, "args": args}
            if response := part.function_response:
                data["function_response"] = {
                    "id": response.id,
                    "name": response.name,
                    "response": self._safe_serialize(response.response),
                }
            if blob := part.inline_data:
                data["inline_data"] = {
                    "mime_type": blob.mime_type,
                    "display_name": getattr(blob, "display_name", None),
                    "_data_omitted": True,
                }
            if file := part.file_data:
                data["file_data"] = {"file_uri": file.file_uri, "mime_type": file.mime_type}
            if result := part.code_execution_result:
                data["code_execution_result"] = {
                    "outcome": str(result.outcome),
                    "output": result.output,
                }
            if code := part.executable_code:
                data["executable_code"] = {"language": str(code.language), "code": code.code}
            if data:
                parts.append(data)
        return {"role": content.role, "parts": parts}

    def _safe_serialize(self, obj: Any, depth: int = 0) -> Any:
        """JSON-able, with secret-named keys and private-key blocks redacted."""
        if obj is None:
            return None
        if depth > _MAX_DEPTH:
            return f"<{type(obj).__name__} ...>"
        deeper = depth + 1
        if isinstance(obj, Enum):
            return self._safe_serialize(obj.value, deeper)
        if isinstance(obj, str):
            return _PRIVATE_KEY.sub(_REDACTED, str.__str__(obj))
        if isinstance(obj, (int, float, bool)):
            return obj
        if isinstance(obj, (date, time)):
            return obj.isoformat()
        if isinstance(obj, (list, tuple)):
            return [self._safe_serialize(item, deeper) for item in obj]
        if isinstance(obj, dict):
            return {
                k: _REDACTED if _is_sensitive_key(k) else self._safe_serialize(v, deeper)
                for k, v in obj.items()
            }
        if isinstance(obj, BaseModel):
            try:
                dumped = obj.model_dump(mode="json", exclude_none=True)
            except Exception:
                return str(obj)
            return self._safe_serialize(dumped, depth)
        if isinstance(obj, bytes):
            return f"<bytes: {len(obj)} bytes>"
        try:
            return str(obj)
        except Exception:
            return "<unserializable>"

    # ── the hooks ──

    async def on_user_message_callback(
        self, *, invocation_context: Any, user_message: types.Content
    ) -> None:
        self._add_entry(
            invocation_context.invocation_id,
            "user_message",
            content=self._serialize_content(user_message),
        )
        return None

    async def before_run_callback(self, *, invocation_context: Any) -> None:
        invocation_id = invocation_context.invocation_id
        session = invocation_context.session
        state = _InvocationDebugState(
            invocation_id=invocation_id,
            session_id=session.id,
            app_name=session.app_name,
            user_id=invocation_context.user_id,
            start_time=self._get_timestamp(),
        )
        header = {"kind": "start", "state": state.model_dump(mode="json", exclude={"entries"})}
        self._append(self._buffer(invocation_id), header, create=True)
        self._add_entry(
            invocation_id,
            "invocation_start",
            agent_name=getattr(invocation_context.agent, "name", None),
            branch=invocation_context.branch,
        )
        return None

    async def on_event_callback(self, *, invocation_context: Any, event: Any) -> None:
        data: dict[str, Any] = {
            "event_id": event.id,
            "author": event.author,
            "content": self._serialize_content(event.content),
            "is_final_response": event.is_final_response(),
            "partial": event.partial,
            "turn_complete": event.turn_complete,
            "branch": event.branch,
        }
        if actions := event.actions:
            done: dict[str, Any] = {}
            if actions.state_delta:
                done["state_delta"] = self._safe_serialize(actions.state_delta)
            if actions.artifact_delta:
                done["artifact_delta"] = dict(actions.artifact_delta)
            if actions.transfer_to_agent:
                done["transfer_to_agent"] = actions.transfer_to_agent
            if actions.escalate:
                done["escalate"] = actions.escalate
            if actions.requested_auth_configs:
                done["requested_auth_configs"] = len(actions.requested_auth_configs)
            if done:
                data["actions"] = done
        if event.grounding_metadata:
            data["has_grounding_metadata"] = True
        if usage := event.usage_metadata:
            data["usage_metadata"] = {
                "prompt_token_count": usage.prompt_token_count,
                "candidates_token_count": usage.candidates_token_count,
                "total_token_count": usage.total_token_count,
            }
        if event.error_code:
            data["error_code"] = event.error_code
            data["error_message"] = event.error_message
        if event.long_running_tool_ids:
            data["long_running_tool_ids"] = list(event.long_running_tool_ids)
        node = event.node_info
        if node.path:
            data["node_path"] = node.path
            if event.partial is not True:
                if event.output is not None and node.message_as_output is not True:
                    data["node_output"] = self._safe_serialize(event.output)
                if _is_durable_node_error(event):
                    data["node_error"] = {
                        "error_code": event.error_code,
                        "error_message": event.error_message,
                    }
        self._add_entry(invocation_context.invocation_id, "event", agent_name=event.author, **data)
        return None

    async def after_run_callback(self, *, invocation_context: Any) -> None:
        """Write the invocation's document and drop its buffer."""
        invocation_id = invocation_context.invocation_id
        buffer = self._buffer(invocation_id)
        state = self._read(buffer)
        if state is None:
            logger.warning("No debug state for invocation %s, skipping write", invocation_id)
            return None
        try:
            if self._include_session_state:
                session = invocation_context.session
                state.entries.append(
                    self._entry(
                        invocation_id,
                        "session_state_snapshot",
                        state=self._safe_serialize(session.state),
                        event_count=len(session.events),
                    )
                )
            state.entries.append(self._entry(invocation_id, "invocation_end"))
            self._write(state.model_dump(mode="json", exclude_none=True))
            logger.debug(
                "Wrote debug data for invocation %s to %s", invocation_id, self._output_path
            )
        except Exception as e:
            logger.error("Failed to write debug data: %s", e)
        finally:
            buffer.unlink(missing_ok=True)
        return None

    async def on_run_error_callback(self, *, invocation_context: Any, error: Exception) -> None:
        """A failed invocation gets no document (2.13); its buffer is removed."""
        self._buffer(invocation_context.invocation_id).unlink(missing_ok=True)

    def _entry(self, invocation_id: str, entry_type: str, **data: Any) -> _DebugEntry:
        return _DebugEntry(
            timestamp=self._get_timestamp(),
            entry_type=entry_type,
            invocation_id=invocation_id,
            data=self._safe_serialize(data),
        )

    def _write(self, document: dict[str, Any]) -> None:
        import yaml

        fd = os.open(self._output_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, _FILE_MODE)
        # the mode applies only to a file created here: say so for one left readable
        if not self._warned_about_output_mode and os.fstat(fd).st_mode & 0o077:
            self._warned_about_output_mode = True
            logger.warning(
                "Debug output file %s is readable beyond its owner and holds"
                " whole prompts and responses; restrict it to mode 600.",
                self._output_path,
            )
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write("---\n")
            yaml.dump(
                document,
                f,
                default_flow_style=False,
                allow_unicode=True,
                sort_keys=False,
                width=120,
            )

    async def before_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._add_entry(
            callback_context.invocation_id,
            "agent_start",
            agent_name=callback_context.agent_name,
            branch=callback_context._invocation_context.branch,
        )
        return None

    async def after_agent_callback(self, *, agent: Any, callback_context: Any) -> None:
        self._add_entry(
            callback_context.invocation_id, "agent_end", agent_name=callback_context.agent_name
        )
        return None

    async def before_model_callback(self, *, callback_context: Any, llm_request: Any) -> None:
        data: dict[str, Any] = {
            "model": llm_request.model,
            "content_count": len(llm_request.contents),
            "contents": [self._serialize_content(c) for c in llm_request.contents],
        }
        if llm_request.tools_dict:
            data["tools"] = list(llm_request.tools_dict.keys())
        if config := llm_request.config:
            shown: dict[str, Any] = {}
            instruction = config.system_instruction
            if self._include_system_instruction and instruction:
                shown["system_instruction"] = instruction
            elif instruction:  # present, not shown
                if isinstance(instruction, str):
                    shown["system_instruction_length"] = len(instruction)
                else:
                    shown["has_system_instruction"] = True
            for name in ("temperature", "top_p", "top_k", "max_output_tokens"):
                if getattr(config, name) is not None:
                    shown[name] = getattr(config, name)
            if config.response_mime_type:
                shown["response_mime_type"] = config.response_mime_type
            if config.response_schema:
                shown["has_response_schema"] = True
            if shown:
                data["config"] = shown
        self._add_entry(
            callback_context.invocation_id,
            "llm_request",
            agent_name=callback_context.agent_name,
            **data,
        )
        return None

    async def after_model_callback(self, *, callback_context: Any, llm_response: Any) -> None:
        """A streamed chunk's error and finish reason are not recorded: the final one's."""
        data: dict[str, Any] = {
            "content": self._serialize_content(llm_response.content),
            "partial": llm_response.partial,
            "turn_complete": llm_response.turn_complete,
        }
        final = llm_response.partial is not True
        if final and llm_response.error_code:
            data["error_code"] = llm_response.error_code
            data["error_message"] = llm_response.error_message
        if usage := llm_response.usage_metadata:
            data["usage_metadata"] = {
                "prompt_token_count": usage.prompt_token_count,
                "candidates_token_count": usage.candidates_token_count,
                "total_token_count": usage.total_token_count,
                "cached_content_token_count": usage.cached_content_token_count,
            }
        if llm_response.grounding_metadata:
            data["has_grounding_metadata"] = True
        if final and llm_response.finish_reason:
            data["finish_reason"] = str(llm_response.finish_reason)
        if llm_response.model_version:
            data["model_version"] = llm_response.model_version
        self._add_entry(
            callback_context.invocation_id,
            "llm_response",
            agent_name=callback_context.agent_name,
            **data,
        )
        return None

    async def on_model_error_callback(
        self, *, callback_context: Any, llm_request: Any, error: Exception
    ) -> None:
        self._add_entry(
            callback_context.invocation_id,
            "llm_error",
            agent_name=callback_context.agent_name,
            error_type=type(error).__name__,
            error_message=str(error),
            model=llm_request.model,
        )
        return None

    async def before_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any
    ) -> None:
        self._add_entry(
            tool_context.invocation_id,
            "tool_call",
            agent_name=tool_context.agent_name,
            tool_name=tool.name,
            function_call_id=tool_context.function_call_id,
            args=self._safe_serialize(tool_args),
        )
        return None

    async def after_tool_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, result: Any
    ) -> None:
        """A later plugin's answer to an error recorded here is not recorded again; a
        result that reports a failure gets a `tool_error` entry."""
        if _pop_tool_error_recorded(self, tool_context):
            return None
        error = _classify_tool_result_error(
            tool=tool,
            tool_args=tool_args,
            tool_context=tool_context,
            result=result,
            tool_result_classifier=self._tool_result_classifier,
            log=logger,
        )
        common = {
            "agent_name": tool_context.agent_name,
            "tool_name": tool.name,
            "function_call_id": tool_context.function_call_id,
        }
        if error is not None:
            self._add_entry(
                tool_context.invocation_id,
                "tool_error",
                **common,
                args=self._safe_serialize(tool_args),
                result=self._safe_serialize(result),
                error_message=error,
            )
            return None
        self._add_entry(
            tool_context.invocation_id,
            "tool_response",
            **common,
            result=self._safe_serialize(result),
        )
        return None

    async def on_tool_error_callback(
        self, *, tool: Any, tool_args: dict[str, Any], tool_context: Any, error: Exception
    ) -> None:
        data: dict[str, Any] = {
            "agent_name": tool_context.agent_name,
            "tool_name": tool.name,
            "function_call_id": tool_context.function_call_id,
            "args": self._safe_serialize(tool_args),
            "error_type": type(error).__name__,
            "error_message": str(error),
        }
        _mark_tool_error_recorded(self, tool_context)  # its answer is not recorded again
        self._add_entry(tool_context.invocation_id, "tool_error", **data)
        return None
