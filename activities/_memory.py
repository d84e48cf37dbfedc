"""The worker's memory service, in scope while each of its activities runs.

Runs on: activity side (worker process). Tools and callbacks reach memory through
their context (`search_memory`, `add_session_to_memory`, ...), which every
activity builds; the worker puts its memory service in scope for each activity
it runs (`MemoryScope`, a Temporal activity interceptor), and the contexts take
it from there (`memory_service()`). Several workers in one process (a Runner and
a worker, tests) each keep their own.
"""

from __future__ import annotations

import contextvars
from typing import Any

from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from adk.memory.base_memory_service import BaseMemoryService

_MEMORY: contextvars.ContextVar[BaseMemoryService | None] = contextvars.ContextVar(
    "durable_adk_memory_service", default=None
)


def memory_service() -> BaseMemoryService | None:
    """The memory service of the worker running this activity (None: it has none)."""
    return _MEMORY.get()


class MemoryScope(Interceptor):
    """Puts a worker's memory service in scope for each activity it runs."""

    def __init__(self, memory: BaseMemoryService | None) -> None:
        self.memory = memory

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _InScope(next, self.memory)


class _InScope(ActivityInboundInterceptor):
    def __init__(self, next: ActivityInboundInterceptor, memory: BaseMemoryService | None):
        super().__init__(next)
        self._memory = memory

    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        token = _MEMORY.set(self._memory)
        try:
            return await super().execute_activity(input)
        finally:
            _MEMORY.reset(token)
