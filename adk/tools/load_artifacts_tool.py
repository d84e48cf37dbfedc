"""load_artifacts: lets the model load the session's artifacts (google-adk 2.13's tool).

Runs on: activity side. Its request processing runs in the model-step activity:
it lists the artifacts in the instruction and, right after the model called the
tool, puts the named artifacts into that request (never into the session, nor
into workflow history). The call itself (tool-call activity) only echoes the
names. Texts and the safety conversions are google-adk 2.13's.
"""

from __future__ import annotations

import base64
import binascii
import inspect
import io
import json
import logging
import re
import struct
import zipfile
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from google.genai import types

from .base_tool import BaseTool

if TYPE_CHECKING:
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext

logger = logging.getLogger("google_adk." + __name__)

_USER_PREFIX = "user:"
_INLINE_PREFIXES = ("image/", "audio/", "video/")
"""MIME types Gemini takes as inline data (and application/pdf)."""
_INLINE_TYPES = frozenset({"application/pdf"})
_NOT_INLINE = frozenset({"image/svg", "image/svg+xml", "image/xml"})
"""Image types Gemini refuses inline: sent as text instead."""
_TEXT_LIKE = frozenset(
    {
        "application/csv",
        "application/json",
        "application/svg+xml",
        "application/xml",
        "image/svg",
        "image/svg+xml",
        "image/xml",
    }
)
_SPREADSHEETS = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.ms-excel",
    }
)
_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
_INSTRUCTION = """You have a list of artifacts:
  {names}

  When the user asks questions about any of the artifacts, you should call the
  `load_artifacts` function to load the artifact. Always call load_artifacts
  before answering questions related to the artifacts, regardless of whether the
  artifacts have been loaded before. Do not depend on prior answers about the
  artifacts.
  """
_STATUS = (
    "artifact contents temporarily inserted and removed. to access these artifacts, call"
    " load_artifacts tool again."
)

ProcessArtifactCallback: TypeAlias = Callable[
    [types.Part, str], types.Part | None | Awaitable[types.Part | None]
]


def _normalize_mime_type(mime_type: str | None) -> str | None:
    if not mime_type:
        return None
    return mime_type.split(";", 1)[0].strip().lower()


def _is_inline_mime_type_supported(mime_type: str | None) -> bool:
    normalized = _normalize_mime_type(mime_type)
    if not normalized or normalized in _NOT_INLINE:
        return False
    return normalized.startswith(_INLINE_PREFIXES) or normalized in _INLINE_TYPES


def _maybe_base64_to_bytes(data: str) -> bytes | None:
    for altchars in (None, b"-_"):
        try:
            return base64.b64decode(data, altchars=altchars, validate=True)
        except (binascii.Error, ValueError):
            continue
    return None


def _try_extract_docx_text(data: bytes) -> str | None:
    """The paragraphs of a DOCX (regexes, not an XML parser: no XML bombs; at most
    10 MB read from the zip: no zip bombs); None when it is not one."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as docx:
            if "word/document.xml" not in docx.namelist():
                return None
            with docx.open("word/document.xml") as xml_file:
                xml = xml_file.read(10 * 1024 * 1024).decode("utf-8", errors="ignore")
    except (zipfile.BadZipFile, KeyError, struct.error) as error:
        logger.debug("Failed to parse docx layout: %s", error)
        return None
    namespace = re.search(
        r'xmlns:(\w+)="http://schemas.openxmlformats.org/wordprocessingml/2006/main"', xml
    )
    prefix = namespace.group(1) if namespace else "w"
    paragraphs = []
    for paragraph in re.split(rf"<{prefix}:p(?:[^>]*)>", xml):
        texts = re.findall(rf"<{prefix}:t(?:[^>]*)>([^<]*)</{prefix}:t>", paragraph)
        if texts:
            paragraphs.append("".join(texts))
    return "\n".join(paragraphs)


def _parse_spreadsheet(data: bytes) -> str:
    """The sheets as markdown tables (100 rows each at most); needs pandas."""
    try:
        import pandas as pd  # type: ignore[import-untyped]

        output = []
        with pd.ExcelFile(io.BytesIO(data)) as workbook:
            for sheet in workbook.sheet_names:
                frame = workbook.parse(sheet)
                if frame.empty:
                    continue
                total, limit = len(frame), 100
                notice = (
                    f"\n\n[Output is limited to the first {limit} rows. Total rows: {total}]"
                    if total > limit
                    else ""
                )
                table = frame.head(limit).to_markdown(index=False, numalign="left", stralign="left")
                if table:
                    table += notice
                output.append(f"### Sheet: {sheet}\n\n{table}")
        return "\n\n".join(output) if output else "[Empty Spreadsheet]"
    except ImportError as error:
        logger.warning(f"Missing dependency for spreadsheet parsing: {error!r}")
        return (
            f"[Missing dependency: {error!r}. Pandas and its support libraries are required to"
            " parse spreadsheets. Please install them using `pip install pandas openpyxl"
            " tabulate xlrd`.]"
        )
    except ValueError as error:
        logger.warning(f"Invalid spreadsheet format or data: {error!r}")
        return f"[Invalid spreadsheet format: {error!r}]"
    except Exception as error:
        logger.warning(f"Failed to parse spreadsheet: {error!r}")
        return f"[Error parsing spreadsheet: {error!r}]"


def as_safe_part_for_llm(
    artifact: types.Part, artifact_name: str, enable_spreadsheet_parsing: bool = False
) -> types.Part:
    """A Part the model accepts: inline media as is (MIME type canonicalised), text-like
    content and DOCX as text, anything else as a placeholder describing it."""
    inline = artifact.inline_data
    if inline is None:
        return artifact
    mime_type = _normalize_mime_type(inline.mime_type)
    if inline.mime_type and _is_inline_mime_type_supported(mime_type):
        base, separator, parameters = inline.mime_type.partition(";")
        canonical = f"{base.strip().lower()}{separator}{parameters}"
        if inline.mime_type == canonical:
            return artifact
        return artifact.model_copy(
            update={"inline_data": inline.model_copy(update={"mime_type": canonical})}
        )
    mime_type = mime_type or "application/octet-stream"
    data: Any = inline.data
    if data is None:
        return types.Part.from_text(
            text=f"[Artifact: {artifact_name}, type: {mime_type}. No inline data was provided.]"
        )
    if isinstance(data, str):
        decoded = _maybe_base64_to_bytes(data)
        if decoded is None:
            return types.Part.from_text(text=data)
        data = decoded
    name = artifact_name.lower()
    if mime_type in (_DOCX, "application/octet-stream") or name.endswith(".docx"):
        text = _try_extract_docx_text(data)
        if text is not None:
            return types.Part.from_text(text=text)
    if (
        mime_type.startswith("text/")
        or mime_type in _TEXT_LIKE
        or name.endswith((".csv", ".txt", ".json", ".xml"))
    ):
        return types.Part.from_text(text=data.decode("utf-8", errors="replace"))
    if enable_spreadsheet_parsing and (
        mime_type in _SPREADSHEETS or name.endswith((".xlsx", ".xls"))
    ):
        return types.Part.from_text(text=_parse_spreadsheet(data))
    return types.Part.from_text(
        text=(
            f"[Binary artifact: {artifact_name}, type: {mime_type},"
            f" size: {len(data) / 1024:.1f} KB. Content cannot be displayed inline.]"
        )
    )


def _names(value: Any) -> list[str] | None:
    """A sequence of strings as a list; None for anything else (a str is not one)."""
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, Sequence)
        or not all(isinstance(name, str) for name in value)
    ):
        return None
    return list(value)


def _resolve_requested_artifact_name(requested: str, available: set[str]) -> str | None:
    """The listed name the model meant (it chose it: only a listed name is loaded);
    models often drop a `user:` prefix, or add one to a name listed bare."""
    if requested in available:
        return requested
    if requested.startswith(_USER_PREFIX):
        return requested if requested.removeprefix(_USER_PREFIX) in available else None
    prefixed = _USER_PREFIX + requested
    return prefixed if prefixed in available else None


class LoadArtifactsTool(BaseTool):
    """A tool that loads the artifacts and adds them to the session."""

    def __init__(
        self,
        *,
        process_artifact: ProcessArtifactCallback | None = None,
        enable_spreadsheet_parsing: bool = False,
    ) -> None:
        """`process_artifact(part, name)` (sync or async) replaces the default safety
        conversion; returning None (or raising: logged) leaves the artifact out."""
        super().__init__(
            name="load_artifacts",
            description=(
                "Loads artifacts into the session for this request.\n\nNOTE: Call when you need"
                " access to artifacts (for example, uploads saved by the\nweb UI)."
            ),
        )
        self._process_artifact = process_artifact
        self._enable_spreadsheet_parsing = enable_spreadsheet_parsing

    def _get_declaration(self) -> types.FunctionDeclaration | None:
        return types.FunctionDeclaration(
            name=self.name,
            description=self.description,
            parameters_json_schema={
                "type": "object",
                "properties": {"artifact_names": {"type": "array", "items": {"type": "string"}}},
            },
        )

    async def run_async(self, *, args: dict[str, Any], tool_context: ToolContext) -> Any:
        names = _names(args.get("artifact_names", []))
        if names is None:
            return {
                "error": "'artifact_names' must be a list of strings.",
                "error_code": "INVALID_ARGUMENTS",
            }
        return {"artifact_names": names, "status": _STATUS}

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        await super().process_llm_request(tool_context=tool_context, llm_request=llm_request)
        await self._append_artifacts_to_llm_request(
            tool_context=tool_context, llm_request=llm_request
        )

    async def _append_artifacts_to_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        listed = await tool_context.list_artifacts()
        if not listed:
            return
        llm_request._append_dynamic_instructions([_INSTRUCTION.format(names=json.dumps(listed))])
        last = llm_request.contents[-1] if llm_request.contents else None
        if not last or not last.parts:
            return
        available = set(listed)
        loaded: list[types.Content] = []
        for part in last.parts:
            response = part.function_response
            if not response or response.name != "load_artifacts":
                continue
            requested = _names((response.response or {}).get("artifact_names", []))
            if requested is None:
                logger.warning("Ignoring invalid artifact_names in load_artifacts response.")
                continue
            for name in requested:
                content = await self._loaded(tool_context, name, available)
                if content is not None:
                    loaded.append(content)
        if loaded:  # this request's own list (the step's contents may be shared)
            llm_request.contents = [*llm_request.contents, *loaded]

    async def _loaded(
        self, tool_context: ToolContext, requested: str, available: set[str]
    ) -> types.Content | None:
        """The content showing one requested artifact; None when it is left out."""
        name = _resolve_requested_artifact_name(requested, available)
        if name is None:
            logger.warning('Artifact "%s" is not available in this session, skipping', requested)
            return None
        artifact = await tool_context.load_artifact(name)
        # a store may list a user-scoped artifact by its bare name (listed for this user)
        if artifact is None and not name.startswith(_USER_PREFIX):
            name = _USER_PREFIX + name
            artifact = await tool_context.load_artifact(name)
        if artifact is None:
            logger.warning('Artifact "%s" not found, skipping', name)
            return None
        if self._process_artifact is not None:
            try:
                part = self._process_artifact(artifact, name)
                if inspect.isawaitable(part):
                    part = await part
            except Exception:
                logger.exception('Failed to process artifact "%s", skipping.', name)
                return None
        else:  # the model's own wording: it reads this name
            part = as_safe_part_for_llm(artifact, requested, self._enable_spreadsheet_parsing)
        if part is None:
            return None
        return types.Content(
            role="user", parts=[types.Part.from_text(text=f"Artifact {requested} is:"), part]
        )


load_artifacts_tool = LoadArtifactsTool()
