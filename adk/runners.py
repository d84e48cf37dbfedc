"""Runner and InMemoryRunner, at google.adk's module path.

Runs on: process side. The Runner wires the engine (workflows, worker, client)
together, so it lives above it, in `durable_adk.runner`; this module only
re-exports it. The import is lazy: `import adk` (which the workflow side does
for the pure ADK rules) must not pull the engine in.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from durable_adk.runner import InMemoryRunner, Runner

__all__ = ["InMemoryRunner", "Runner"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("durable_adk.runner"), name)
    globals()[name] = value
    return value
