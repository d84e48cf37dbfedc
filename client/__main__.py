"""`python -m client ...`: run invocations and inspect sessions from a terminal.

Runs on: process side.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from ._cli import parser


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `... | head` ends quietly
    args = parser().parse_args(argv)
    return int(asyncio.run(args.handler(args)))


if __name__ == "__main__":
    sys.exit(main())
