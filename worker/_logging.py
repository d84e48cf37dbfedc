"""structlog setup: readable in a terminal, JSON lines otherwise (or when asked).

Runs on: process side.
"""

from __future__ import annotations

import logging
import os
import sys

import structlog

from ._scrub import scrub_credentials


def configure_logging(fmt: str | None = None, level: str = "INFO") -> None:
    """fmt: 'console', 'json' or None (console on a TTY, JSON otherwise)."""
    fmt = (
        fmt
        or os.environ.get("DURABLE_ADK_LOG_FORMAT")
        or ("console" if sys.stderr.isatty() else "json")
    )
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso"),
    ]
    # exceptions become text first, so the scrubber covers their messages and tracebacks
    last: list[structlog.types.Processor] = [
        structlog.processors.format_exc_info,
        scrub_credentials,
    ]
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer()
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[*shared, *last, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                *last,
                renderer,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
