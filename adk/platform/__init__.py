"""Indirection points for time, ids, randomness and threads, as google-adk 2.13's.

Runs on: process and activity side. `time.get_time()`, `uuid.new_uuid()` and
`get_random()` ask a provider held in a ContextVar (so a test or a host may set its
own for the current context: `set_time_provider`, `set_id_provider`,
`set_random_provider`); `thread.create_thread` makes threads. The adk-side defaults
that google-adk takes from here take them from here too (an Event's id and
timestamp, function-call and invocation ids, session ids and times): in the
process and in the activity that makes them. The workflow never asks them: its ids
and times are `workflow.uuid4()` / `workflow.now()`, so replay stays exact, and a
provider set in the client's process does not reach the worker's activities (each
runs in a context of its own).
"""

from __future__ import annotations

from ._random import get_random, reset_random_provider, set_random_provider

__all__ = ["get_random", "reset_random_provider", "set_random_provider"]
