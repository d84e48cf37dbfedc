"""What a session does with a message that arrives while one of its invocations runs.

durable-adk's own App option (`App(busy_policy=...)`). Runs on: both sides (pure
data: the begin activity reads it from the app, the workflow records it).
"""

from __future__ import annotations

from typing import Literal, get_args

BusyPolicy = Literal["reject", "queue", "interrupt"]
"""`reject`: the sender gets SessionBusyError (the default). `queue`: the message
runs as the session's next invocation once the running one ends, in arrival order.
`interrupt`: the running invocation stops before its next model call, then the
message runs."""

BUSY_POLICIES: tuple[str, ...] = get_args(BusyPolicy)
