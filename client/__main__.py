"""`python -m client ...`: run invocations and inspect sessions from a terminal.

Runs on: process side.
"""

from __future__ import annotations

import asyncio
import signal
import sys
import traceback

from ._cli import parser
from ._exits import explain, leave


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `... | head` ends quietly
    args = parser().parse_args(argv)
    try:
        return int(asyncio.run(args.handler(args)))
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # one line per failure; --debug adds the traceback
        if args.debug:
            traceback.print_exc()
        code, text = explain(error, args)
        print(f"error: {text}", file=sys.stderr)
        return code


def _quiet_core() -> None:
    """Temporal's core logs a warning per retried call while the server is away;
    the CLI says it in one line instead (--debug keeps them)."""
    from temporalio.runtime import LoggingConfig, Runtime, TelemetryConfig, TelemetryFilter

    quiet = TelemetryFilter(core_level="ERROR", other_level="ERROR")
    Runtime.set_default(Runtime(telemetry=TelemetryConfig(logging=LoggingConfig(filter=quiet))))


if __name__ == "__main__":
    if "--debug" not in sys.argv:
        _quiet_core()
    leave(main())
