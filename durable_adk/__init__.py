"""durable-adk's process-side wiring: the Runner that puts the engine together.

Runs on: process side. This package sits above the engine (`workflows/`,
`activities/`, `worker/`, `client/`), which is built on the pure ADK rules in
`adk/`; `adk.runners` re-exports its Runner under google.adk's module path.
"""

from ._worker_watch import WorkerStoppedError
from .dev_server import DEV_SERVER_ARGS, temporal_binary
from .runner import InMemoryRunner, Runner

__all__ = ["DEV_SERVER_ARGS", "InMemoryRunner", "Runner", "WorkerStoppedError", "temporal_binary"]
