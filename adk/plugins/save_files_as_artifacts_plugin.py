"""SaveFilesAsArtifactsPlugin: files in a user message become artifacts (google-adk 2.13's).

Runs on: activity side. on_user_message_callback runs in the begin activity: it
saves each inline file and puts a placeholder (and, when the store's URI is one
a model can fetch, a file reference) in its place, so the recorded user event,
and workflow history after it, hold no file bytes. As in 2.13 it notes the
versions in the invocation's session state (not persisted), and the next
before_agent_callback moves them into that event's artifact_delta; durable-adk
carries that note from the begin activity to the later ones with the
invocation's `temp:` state.
"""

from __future__ import annotations

import copy
import logging
import urllib.parse
from typing import TYPE_CHECKING, Any

from google.genai import types

from .base_plugin import BasePlugin

if TYPE_CHECKING:
    from ..agents.base_agent import BaseAgent
    from ..agents.callback_context import CallbackContext
    from ..agents.invocation_context import InvocationContext

logger = logging.getLogger("google_adk." + __name__)

_MODEL_ACCESSIBLE_URI_SCHEMES = {"gs", "https", "http"}
"""URIs the models can read (Vertex AI: gs://; hosted endpoints: https)."""
_MAX_INLINE_DATA_SIZE_BYTES = 20 * 1024 * 1024
"""Gemini's limit for inline data."""


class SaveFilesAsArtifactsPlugin(BasePlugin):
    """Saves the files of user messages as artifacts, named by Blob.display_name
    (session-scoped; a `user:` name is the user's). The message gets a placeholder
    naming each; add load_artifacts (or a tool of yours) to let the model read them."""

    def __init__(
        self, name: str = "save_files_as_artifacts_plugin", *, attach_file_reference: bool = True
    ) -> None:
        super().__init__(name)
        self._attach_file_reference = attach_file_reference

    @property
    def _pending_key(self) -> str:
        return self.name + ":pending_delta"

    async def on_user_message_callback(
        self, *, invocation_context: InvocationContext, user_message: types.Content
    ) -> types.Content | None:
        service = invocation_context.artifact_service
        if not service:
            logger.warning(
                "Artifact service is not set. SaveFilesAsArtifactsPlugin will not be enabled."
            )
            return user_message
        if not user_message.parts:
            return None
        parts: list[types.Part] = []
        delta: dict[str, int] = {}
        modified = False
        for index, part in enumerate(user_message.parts):
            if part.inline_data is None:
                parts.append(part)
                continue
            try:
                saved = await self._save(invocation_context, index, part, delta)
            except Exception as error:  # the original part stays
                logger.error(f"Failed to save artifact for part {index}: {error}")
                parts.append(part)
                continue
            parts.extend(saved)
            modified = True
        if not modified:
            return None
        # 2.13: noted in the invocation's session state, for before_agent_callback
        state = invocation_context.session.state
        state.setdefault(self._pending_key, {})
        state[self._pending_key] |= delta
        return types.Content(role=user_message.role, parts=parts)

    async def _save(
        self, ctx: InvocationContext, index: int, part: types.Part, delta: dict[str, int]
    ) -> list[types.Part]:
        """The parts replacing one file part (its version noted in `delta`)."""
        inline = part.inline_data
        assert inline is not None and ctx.artifact_service is not None
        size = len(inline.data or b"")
        file_name = inline.display_name
        if not file_name:
            file_name = f"artifact_{ctx.invocation_id}_{index}"
            logger.info(f"No display_name found, using generated filename: {file_name}")
        if size > _MAX_INLINE_DATA_SIZE_BYTES:
            message = (
                f"File {file_name} ({size / (1024 * 1024):.2f} MB) exceeds the maximum supported"
                f" size of {_MAX_INLINE_DATA_SIZE_BYTES / (1024 * 1024):.0f}MB. Please upload a"
                " smaller file."
            )
            logger.warning(message)
            return [types.Part(text=f"[Upload Error: {message}]")]
        version = await ctx.artifact_service.save_artifact(
            app_name=ctx.app_name,
            user_id=ctx.user_id,
            session_id=ctx.session.id,
            filename=file_name,
            artifact=copy.copy(part),
        )
        replaced = [types.Part(text=f'[Uploaded Artifact: "{file_name}"]')]
        if self._attach_file_reference:
            reference = await self._build_file_reference_part(
                invocation_context=ctx,
                filename=file_name,
                version=version,
                mime_type=inline.mime_type,
                display_name=file_name,
            )
            if reference:
                replaced.append(reference)
        delta[file_name] = version
        logger.info(f"Successfully saved artifact: {file_name}")
        return replaced

    async def before_agent_callback(
        self, *, agent: BaseAgent, callback_context: CallbackContext
    ) -> types.Content | None:
        """The noted versions go into this event's artifact_delta (once)."""
        pending: Any = callback_context.state.get(self._pending_key)
        if pending:
            try:
                callback_context.actions.artifact_delta |= pending
            except TypeError as error:
                logger.warning("Incompatible pending_delta type: %s", error)
            finally:
                callback_context.state[self._pending_key] = {}
        return None

    async def _build_file_reference_part(
        self,
        *,
        invocation_context: InvocationContext,
        filename: str,
        version: int,
        mime_type: str | None,
        display_name: str,
    ) -> types.Part | None:
        """A file_data part for the saved version, if a model can fetch its URI."""
        service = invocation_context.artifact_service
        if not service:
            return None
        try:
            info = await service.get_artifact_version(
                app_name=invocation_context.app_name,
                user_id=invocation_context.user_id,
                session_id=invocation_context.session.id,
                filename=filename,
                version=version,
            )
        except Exception as error:
            logger.warning("Failed to resolve artifact version for %s: %s", filename, error)
            return None
        if not info or not info.canonical_uri or not _is_model_accessible_uri(info.canonical_uri):
            return None
        return types.Part(
            file_data=types.FileData(
                file_uri=info.canonical_uri,
                mime_type=mime_type or info.mime_type,
                display_name=display_name,
            )
        )


def _is_model_accessible_uri(uri: str) -> bool:
    try:
        scheme = urllib.parse.urlparse(uri).scheme
    except ValueError:
        return False
    return bool(scheme) and scheme.lower() in _MODEL_ACCESSIBLE_URI_SCHEMES
