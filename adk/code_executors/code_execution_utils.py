"""Code execution parts in the conversation (google-adk 2.13's CodeExecutionUtils, in part).

Runs on: activity side (request building).
"""

from __future__ import annotations

from typing import Any

from google.genai import types

from .._unported import unported_attribute


class CodeExecutionUtils:
    """Helpers for the parts a code executor reads and writes."""

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


def __getattr__(name: str) -> Any:
    """The module's other names (File, CodeExecutionInput, ...) are not ported yet."""
    raise unported_attribute(__name__, name)
