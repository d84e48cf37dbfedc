"""The CLI's exit codes, and one line for each error a command does not handle itself.

Runs on: process side.
"""

from __future__ import annotations

import argparse
import logging
import os
import sqlite3
import sys
from typing import NoReturn

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from temporalio.service import RPCError, RPCStatusCode

from ._errors import TemporalUnreachableError

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_BUSY, EXIT_WAITING = 0, 1, 2, 3, 4
EXIT_UNREACHABLE = 5
"""Temporal or the session store cannot be used: server down, unknown namespace, bad --db."""
EXIT_NO_WORKER = 6
"""`run` without --wait, and no worker polls the task queue."""
EXIT_LOST = 7
"""Contact with Temporal lost mid-invocation for too long: the invocation may still run."""


class CliError(Exception):
    """A failure the CLI reports in one line with its exit code."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def connect_reason(error: BaseException) -> str:
    text = str(error)
    for known in ("Connection refused", "dns error", "timed out", "certificate"):
        if known.lower() in text.lower():
            return known.lower()
    return _first_line(error)[:160]


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def explain(error: BaseException, args: argparse.Namespace) -> tuple[int, str]:
    """One line and an exit code for an error a command did not handle itself."""
    if isinstance(error, CliError):
        return error.code, str(error)
    if isinstance(error, TemporalUnreachableError):  # contact lost after it was made
        return EXIT_LOST, str(error)
    if isinstance(error, RPCError):
        if error.status == RPCStatusCode.UNAVAILABLE:
            return EXIT_UNREACHABLE, f"cannot reach Temporal at {args.address}: {error.message}"
        if error.status == RPCStatusCode.NOT_FOUND and "amespace" in error.message:
            return (
                EXIT_UNREACHABLE,
                f"{error.message} (server {args.address}; --namespace or TEMPORAL_NAMESPACE)",
            )
        if error.status in (
            RPCStatusCode.INVALID_ARGUMENT,
            RPCStatusCode.RESOURCE_EXHAUSTED,
            RPCStatusCode.OUT_OF_RANGE,
        ):
            too_big = "size exceeds" in error.message.lower()
            what = (
                "the message or state is too large for Temporal"
                if too_big
                else "Temporal refused the request"
            )
            return EXIT_USAGE, f"{what}: {error.message}"
        return EXIT_FAILED, f"Temporal: {error.status.name}: {error.message}"
    if isinstance(error, sqlite3.Error | SQLAlchemyError):
        return EXIT_UNREACHABLE, f"session database {args.db or '(default)'}: {error}"
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        return EXIT_USAGE, f"{first['msg']}" + (f" ({where})" if where else "")
    if isinstance(error, ValueError):
        return EXIT_USAGE, _first_line(error)
    return EXIT_FAILED, f"{type(error).__name__}: {_first_line(error)} (--debug shows where)"


def leave(code: int) -> NoReturn:
    """Exit a process that talked to Temporal without finalizing the interpreter.

    Temporal's Rust core keeps threads that call into Python; an interpreter
    finalizing around them aborts now and then (SIGABRT in PyGILState_Release,
    temporalio/sdk-python#300) after a correct result. Everything is written and
    committed by then: logs and standard streams are flushed, then the process ends.
    """
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
