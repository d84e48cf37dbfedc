"""The optional packages the REST API needs, and the error naming the extra that brings them.

Runs on: process side.
"""

from __future__ import annotations

import importlib.util

NEEDED = ("fastapi", "uvicorn")


def require_extra() -> None:
    """ImportError naming the `api` extra when FastAPI or uvicorn is missing."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise ImportError(
            f"The REST API needs {' and '.join(missing)}: install durable-adk's `api` extra"
            " (pip install 'durable-adk[api]')."
        )
