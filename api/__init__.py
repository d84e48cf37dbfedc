"""The REST API: google-adk 2.13's `adk api_server` HTTP API over durable invocations.

Runs on: process side. The API process is a client (client.AgentClient), never a
worker: each run is an invocation workflow a worker of its app runs, and its
events are read from the session store the workers write. FastAPI and uvicorn come
with the `api` extra (`pip install 'durable-adk[api]'`).
"""

from ._deps import require_extra

require_extra()

from ._app import create_app  # noqa: E402
from ._catalog import AppCatalog  # noqa: E402
from ._temporal import TemporalConnection  # noqa: E402

__all__ = ["AppCatalog", "TemporalConnection", "create_app"]
