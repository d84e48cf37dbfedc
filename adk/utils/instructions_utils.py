"""Instruction templating: fills `{key}` placeholders from session state and artifacts.

Runs on: activity side (model-step activity).

Follows google-adk 2.13: a placeholder is any run of braces around brace-free
text, unless the brace follows `$`, `{` or a backslash (an escape: left as
written); `{key?}` is optional; names must be identifiers, optionally with an
`app:`, `user:` or `temp:` prefix, or the placeholder is left as written; a
state value of None renders as ""; `{artifact.name}` loads the latest version
of an artifact (its text; other content as load_artifacts would show it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from google.genai import types

if TYPE_CHECKING:
    from ..agents.readonly_context import ReadonlyContext

__all__ = ["inject_session_state"]

_PLACEHOLDER = re.compile(r"(?<![\$\{\\]){+[^{}]*}+")
_STATE_PREFIXES = ("app:", "user:", "temp:")
_ARTIFACT_PREFIX = "artifact."


async def inject_session_state(
    template: str, readonly_context: ReadonlyContext, use_jinja2: bool = False
) -> str:
    """Return `template` with each valid placeholder replaced by its value.

    Raises KeyError for a missing required state key or artifact, and
    ValueError for `{artifact.x}` when no artifact service is configured.
    """
    if use_jinja2:
        raise NotImplementedError("inject_session_state(use_jinja2=True) is not supported yet.")
    if "{" not in template:
        return template
    pieces: list[str] = []
    end = 0
    for match in _PLACEHOLDER.finditer(template):
        pieces.append(template[end : match.start()])
        pieces.append(await _replacement(match.group(), readonly_context))
        end = match.end()
    pieces.append(template[end:])
    return "".join(pieces)


async def _replacement(placeholder: str, readonly_context: ReadonlyContext) -> str:
    name = placeholder.lstrip("{").rstrip("}").strip()
    optional = name.endswith("?")
    if optional:
        name = name[:-1]
    if name.startswith(_ARTIFACT_PREFIX):
        filename = name[len(_ARTIFACT_PREFIX) :]
        return await _artifact_text(filename, optional, readonly_context)
    if not _is_valid_state_name(name):
        return placeholder
    state = readonly_context.state
    if name in state:
        return _render(state[name])
    if optional:
        return ""
    raise KeyError(
        f"Context variable not found: `{name}` in agent '{readonly_context.agent_name}'."
    )


async def _artifact_text(filename: str, optional: bool, readonly_context: ReadonlyContext) -> str:
    invocation_context = readonly_context._invocation_context
    artifact_service = getattr(invocation_context, "artifact_service", None)
    if artifact_service is None:
        raise ValueError("Artifact service is not initialized.")
    session = invocation_context.session
    artifact = await artifact_service.load_artifact(
        app_name=session.app_name,
        user_id=session.user_id,
        session_id=session.id,
        filename=filename,
    )
    if artifact is None:
        if optional:
            return ""
        raise KeyError(f"Artifact '{filename}' not found in agent '{readonly_context.agent_name}'.")
    if isinstance(artifact, types.Part):  # as load_artifacts shows it (2.13): text, or a note
        from ..tools.load_artifacts_tool import as_safe_part_for_llm

        safe = as_safe_part_for_llm(artifact, filename)
        if safe.text is not None:
            return safe.text
    return str(artifact)


def _is_valid_state_name(name: str) -> bool:
    parts = name.split(":")
    if len(parts) == 1:
        return name.isidentifier()
    if len(parts) == 2:
        return parts[0] + ":" in _STATE_PREFIXES and parts[1].isidentifier()
    return False


def _render(value: Any) -> str:
    return "" if value is None else str(value)
