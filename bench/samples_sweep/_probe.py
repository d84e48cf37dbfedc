"""One sample, one side: import it, find its agent, build its first model request.

Runs on: process side (a child process of the sweep, one per sample and side).
`python -m bench.samples_sweep._probe SIDE PROJECT_DIR PACKAGE` prints one JSON
line: {"status": "ok" | "error", ...}. SIDE is "ref" (the sample as written,
on google-adk 2.13) or "ours" (the sample rewritten to `adk`). The network is
cut off before the sample is imported: a sample that reaches for it at import
fails with "network disabled by the sweep".
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import socket
import sys
import traceback
import warnings
from typing import Any

# Placeholders so that constructors reading configuration do not fail for lack of it.
_ENV = {
    "GOOGLE_API_KEY": "sweep-fake-key",
    "GEMINI_API_KEY": "sweep-fake-key",
    "GOOGLE_CLOUD_PROJECT": "sweep-fake-project",
    "GOOGLE_CLOUD_LOCATION": "us-central1",
    "GOOGLE_GENAI_USE_VERTEXAI": "0",
    # what some samples insist on before they build their agent
    "GITHUB_TOKEN": "sweep-fake-token",
    "VERTEXAI_DATASTORE_ID": (
        "projects/p/locations/global/collections/default_collection/dataStores/d"
    ),
    "POSTGRES_CONNECTION_STRING": "postgresql://sweep:sweep@127.0.0.1:9/sweep",
}


def _no_network(*_args: Any, **_kwargs: Any) -> Any:
    raise OSError("network disabled by the sweep")


def _cut_network() -> None:
    socket.socket.connect = _no_network  # type: ignore[method-assign]
    socket.socket.connect_ex = _no_network  # type: ignore[method-assign]
    socket.getaddrinfo = _no_network
    socket.create_connection = _no_network


def _error(stage: str, exc: BaseException) -> dict[str, Any]:
    frames = traceback.extract_tb(exc.__traceback__)
    where = [f"{f.filename}:{f.lineno}" for f in frames[-4:]]
    return {
        "status": "error",
        "stage": stage,
        "type": type(exc).__name__,
        "mro": [c.__name__ for c in type(exc).__mro__],
        "module_name": getattr(exc, "name", None) if isinstance(exc, ImportError) else None,
        "message": str(exc)[:600],
        "where": where,
    }


def _find_agent(package: str) -> tuple[str, Any]:
    module = importlib.import_module(package)
    for holder in (module, getattr(module, "agent", None)):
        if holder is None:
            continue
        for name in ("root_agent", "app"):
            if hasattr(holder, name):
                return name, getattr(holder, name)
    agent_module = importlib.import_module(f"{package}.agent")
    for name in ("root_agent", "app"):
        if hasattr(agent_module, name):
            return name, getattr(agent_module, name)
    raise LookupError(f"{package} defines neither root_agent nor app")


def _dump(request: Any) -> dict[str, Any]:
    schema: Any = request.config.response_schema
    if isinstance(schema, type) and hasattr(schema, "model_json_schema"):
        request.config.response_schema = schema.model_json_schema()  # compare JSON schemas
    return {
        "model": request.model,
        "contents": [c.model_dump(mode="json", exclude_none=True) for c in request.contents],
        "config": request.config.model_dump(mode="json", exclude_none=True),
    }


async def _request(side: str, agent: Any) -> dict[str, Any]:
    """The first model request for the user message "Hello", as each side builds it."""
    prefix = "google.adk" if side == "ref" else "adk"
    sessions = importlib.import_module(f"{prefix}.sessions")
    events = importlib.import_module(f"{prefix}.events")
    contexts = importlib.import_module(f"{prefix}.agents.invocation_context")
    run_config = importlib.import_module(f"{prefix}.agents.run_config")
    from google.genai import types

    service = sessions.InMemorySessionService()
    session = await service.create_session(app_name="app", user_id="u", session_id="s")
    user = events.Event(
        id="e0",
        invocation_id="inv-1",
        author="user",
        timestamp=1000.0,
        content=types.Content(role="user", parts=[types.Part(text="Hello")]),
    )
    session.events.append(user)
    ctx = contexts.InvocationContext(
        session_service=service,
        invocation_id="inv-1",
        agent=agent,
        session=session,
        user_content=user.content,
        run_config=run_config.RunConfig(),
    )
    if side == "ref":
        request = importlib.import_module(f"{prefix}.models.llm_request").LlmRequest()
        async for _ in agent._llm_flow._preprocess_async(ctx, request):
            pass
    else:
        pipeline = importlib.import_module("adk.flows.llm_flows.pipeline")
        request = await pipeline.build_llm_request(ctx, agent)
    agent.canonical_model._maybe_append_user_content(request)
    return _dump(request)


def _walk(agent: Any) -> list[Any]:
    found = [agent]
    for sub in getattr(agent, "sub_agents", None) or []:
        found += _walk(sub)
    return found


def _models(root: Any) -> dict[str, dict[str, Any]]:
    """Each LlmAgent's model class in the tree, or the error resolving its model."""
    models: dict[str, dict[str, Any]] = {}
    for agent in _walk(root):
        if not hasattr(type(agent), "canonical_model"):
            continue
        try:
            models[agent.name] = {"class": type(agent.canonical_model).__name__}
        except BaseException as exc:  # noqa: BLE001
            models[agent.name] = {"error": _error("model", exc)}
    return models


def _worker_load(project_dir: str, package: str) -> dict[str, Any]:
    """What a worker does with the sample at start: load the app, build its spec."""
    try:
        from activities._spec import build_spec
        from adk.apps.app import plugin_manager_of
        from worker._loader import load_app

        app = load_app(os.path.join(project_dir, package))
        build_spec(app.root_agent, plugin_manager_of(app)).model_dump_json()
    except BaseException as exc:  # noqa: BLE001
        return _error("worker", exc)
    return {"status": "ok"}


def main(side: str, project_dir: str, package: str) -> dict[str, Any]:
    os.environ.update(_ENV)
    _cut_network()
    warnings.simplefilter("ignore")
    sys.path.insert(0, project_dir)
    try:
        attr, agent = _find_agent(package)
    except BaseException as exc:  # noqa: BLE001 - every failure is a finding
        return _error("import", exc)
    result: dict[str, Any] = {
        "status": "ok",
        "attr": attr,
        "agent_class": type(agent).__name__,
    }
    if side == "ours":
        result["worker"] = _worker_load(project_dir, package)
    if attr == "app":
        agent = getattr(agent, "root_agent", agent)
    models = _models(agent)
    if models:
        result["models"] = models
    if not hasattr(type(agent), "canonical_model") or "error" in models.get(agent.name, {}):
        return result
    try:
        model = agent.canonical_model
        if "Gemini" not in type(model).__name__:
            result["request"] = {"skipped": f"model class {type(model).__name__}"}
            return result
        result["request"] = asyncio.run(_request(side, agent))
    except BaseException as exc:  # noqa: BLE001
        result["request"] = _error("request", exc)
    return result


if __name__ == "__main__":
    print("SWEEP-RESULT " + json.dumps(main(*sys.argv[1:4]), default=str), flush=True)
