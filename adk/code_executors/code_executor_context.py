"""CodeExecutorContext: a code executor's bookkeeping in the session state (google-adk 2.13's).

Runs on: activity side (the model step and the code-execution activity).

As in 2.13 it writes straight into the state it is given: `_code_execution_context`
(which also reaches the result event's state_delta, so it is persisted), and the
error counts, execution results and input files (never in an event: they last for
the invocation). durable-adk hands the error counts from one activity to the next
with the invocation's `temp:` state (see INVOCATION_KEYS); the results, which
nothing reads, stay in the activity that wrote them.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
from collections.abc import MutableMapping
from typing import Any, cast

from .code_execution_utils import File

_CONTEXT_KEY = "_code_execution_context"
_SESSION_ID_KEY = "execution_session_id"
_PROCESSED_FILE_NAMES_KEY = "processed_input_files"
_INPUT_FILE_KEY = "_code_executor_input_files"
_ERROR_COUNT_KEY = "_code_executor_error_counts"
_CODE_EXECUTION_RESULTS_KEY = "_code_execution_results"

INVOCATION_KEYS = (_ERROR_COUNT_KEY,)
"""durable-adk: what the activities hand on with the invocation's `temp:` state. Of the
keys 2.13 writes into the invocation's state only, the error counts decide what
happens next; the results (every execution's code and output) are read by nothing
and would make each later activity's input grow with every execution."""


class CodeExecutorContext:
    """The persistent context of a code executor, kept in the session state."""

    def __init__(self, session_state: MutableMapping[str, Any]) -> None:
        if _CONTEXT_KEY not in session_state:
            session_state[_CONTEXT_KEY] = {}
        self._context: dict[str, Any] = session_state[_CONTEXT_KEY]
        self._session_state = session_state

    def get_state_delta(self) -> dict[str, Any]:
        """What the result event persists: a copy of the context."""
        return {_CONTEXT_KEY: copy.deepcopy(self._context)}

    def get_execution_id(self) -> str | None:
        return cast(str | None, self._context.get(_SESSION_ID_KEY))

    def set_execution_id(self, session_id: str) -> None:
        self._context[_SESSION_ID_KEY] = session_id

    def get_processed_file_names(self) -> list[str]:
        return cast(list[str], self._context.get(_PROCESSED_FILE_NAMES_KEY) or [])

    def add_processed_file_names(self, file_names: list[str]) -> None:
        names = self.get_processed_file_names()
        names.extend(file_names)
        self._context[_PROCESSED_FILE_NAMES_KEY] = names

    def get_input_files(self) -> list[File]:
        stored = self._session_state.get(_INPUT_FILE_KEY)
        if stored is None:
            return []
        return [File(**file) for file in stored]

    def add_input_files(self, input_files: list[File]) -> None:
        stored = self._session_state.get(_INPUT_FILE_KEY, [])
        stored.extend(dataclasses.asdict(file) for file in input_files)
        self._session_state[_INPUT_FILE_KEY] = stored

    def clear_input_files(self) -> None:
        if _INPUT_FILE_KEY in self._session_state:
            self._session_state[_INPUT_FILE_KEY] = []
        if _PROCESSED_FILE_NAMES_KEY in self._context:
            self._context[_PROCESSED_FILE_NAMES_KEY] = []

    def get_error_count(self, invocation_id: str) -> int:
        counts = self._session_state.get(_ERROR_COUNT_KEY)
        if counts is None:
            return 0
        return cast(int, counts.get(invocation_id, 0))

    def increment_error_count(self, invocation_id: str) -> None:
        counts = self._session_state.get(_ERROR_COUNT_KEY, {})
        counts[invocation_id] = self.get_error_count(invocation_id) + 1
        self._session_state[_ERROR_COUNT_KEY] = counts

    def reset_error_count(self, invocation_id: str) -> None:
        counts = self._session_state.get(_ERROR_COUNT_KEY)
        if counts is None:
            return
        counts.pop(invocation_id, None)
        self._session_state[_ERROR_COUNT_KEY] = counts

    def update_code_execution_result(
        self, invocation_id: str, code: str, result_stdout: str, result_stderr: str
    ) -> None:
        results = self._session_state.get(_CODE_EXECUTION_RESULTS_KEY, {})
        results.setdefault(invocation_id, []).append(
            {
                "code": code,
                "result_stdout": result_stdout,
                "result_stderr": result_stderr,
                "timestamp": int(datetime.datetime.now().timestamp()),
            }
        )
        self._session_state[_CODE_EXECUTION_RESULTS_KEY] = results
