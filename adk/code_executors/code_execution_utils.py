"""What a code executor reads and writes, and the code parts in the conversation
(google-adk 2.13's code_execution_utils: File, CodeExecutionInput, CodeExecutionResult,
CodeExecutionUtils).

Runs on: activity side (request building, the model step, the code-execution activity).
"""

from __future__ import annotations

import base64
import binascii
import copy
import dataclasses

from google.genai import types


@dataclasses.dataclass(frozen=True)
class File:
    """A file given to, or produced by, a code execution."""

    name: str
    """The file's name with its extension (e.g. "data.csv")."""
    content: str | bytes
    """The file's bytes, or their base64 encoding."""
    mime_type: str = "text/plain"


@dataclasses.dataclass
class CodeExecutionInput:
    """What one execution runs."""

    code: str
    input_files: list[File] = dataclasses.field(default_factory=list)
    execution_id: str | None = None
    """Set for a stateful executor: the session its executions share."""


@dataclasses.dataclass
class CodeExecutionResult:
    """What one execution gave: a non-empty stderr marks it failed."""

    stdout: str = ""
    stderr: str = ""
    output_files: list[File] = dataclasses.field(default_factory=list)
    exit_code: int | None = None
    """The status the process exited with; None when the executor cannot tell."""


class CodeExecutionUtils:
    """Helpers for the parts a code executor reads and writes."""

    @staticmethod
    def get_encoded_file_content(data: bytes) -> bytes:
        """`data` base64-encoded, unless it already is."""
        try:
            if base64.b64encode(base64.b64decode(data)) == data:
                return data
        except binascii.Error:
            pass
        return base64.b64encode(data)

    @staticmethod
    def extract_code_and_truncate_content(
        content: types.Content, code_block_delimiters: list[tuple[str, str]]
    ) -> str | None:
        """The first code block of `content` (None if it has none); `content` is cut
        after it, the block itself becoming an executable code part."""
        if not content or not content.parts:
            return None
        # an executable code part the model has no result for yet
        for index, part in enumerate(content.parts):
            if part.executable_code and (
                index == len(content.parts) - 1
                or not content.parts[index + 1].code_execution_result
            ):
                content.parts = content.parts[: index + 1]
                return part.executable_code.code
        texts = [part for part in content.parts if part.text]
        if not texts:
            return None
        first = copy.deepcopy(texts[0])
        text = "\n".join(part.text or "" for part in texts)
        found: tuple[int, int, int] | None = None  # (start, code start, end)
        for lead, trail in code_block_delimiters:
            start = text.find(lead)
            if start == -1:
                continue
            end = text.find(trail, start + len(lead))
            if end == -1:
                continue
            if found is None or start < found[0]:  # the earliest block wins
                found = (start, start + len(lead), end)
        if found is None:
            return None
        start, code_start, end = found
        code = text[code_start:end]
        if not code:
            return None
        content.parts = []
        if text[:start]:
            first.text = text[:start]
            content.parts.append(first)
        content.parts.append(CodeExecutionUtils.build_executable_code_part(code))
        return code

    @staticmethod
    def build_executable_code_part(code: str) -> types.Part:
        return types.Part.from_executable_code(code=code, language=types.Language.PYTHON)

    @staticmethod
    def build_code_execution_result_part(code_execution_result: CodeExecutionResult) -> types.Part:
        """The result as the model sees it: stderr when there is one (failed), else the
        output and the names of the files saved."""
        result = code_execution_result
        if result.stderr:
            return types.Part.from_code_execution_result(
                outcome=types.Outcome.OUTCOME_FAILED, output=result.stderr
            )
        sections = []
        if result.stdout or not result.output_files:
            sections.append(f"Code execution result:\n{result.stdout}\n")
        if result.output_files:
            names = ",".join(f"`{file.name}`" for file in result.output_files)
            sections.append(f"Saved artifacts:\n{names}")
        return types.Part.from_code_execution_result(
            outcome=types.Outcome.OUTCOME_OK, output="\n\n".join(sections)
        )

    @staticmethod
    def convert_code_execution_parts(
        content: types.Content,
        code_block_delimiter: tuple[str, str],
        execution_result_delimiters: tuple[str, str],
    ) -> None:
        """Executable code (as the content's last part) and a lone execution result become
        text within their delimiters, as a model that did not run them can read them;
        a result is then said by the user."""
        if not content.parts:
            return
        last = content.parts[-1]
        if last.executable_code:
            code = last.executable_code.code or ""
            content.parts[-1] = types.Part(
                text=code_block_delimiter[0] + code + code_block_delimiter[1]
            )
        elif len(content.parts) == 1 and last.code_execution_result:
            output = last.code_execution_result.output
            content.parts[-1] = types.Part(
                text=""
                if output is None
                else execution_result_delimiters[0] + output + execution_result_delimiters[1]
            )
            content.role = "user"
