"""Architecture rules, checked on the source: the workflow side stays deterministic,
the layers import downwards only and in no circle, every module says where it
runs, and the public API is pinned.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from ._imports import OURS, absolute, closure, cycles, graph, module_name

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = OURS

# ── (a) the workflow side imports no I/O and reads no clock, randomness or env ──

FORBIDDEN_IMPORTS = {
    "activities": "activity code (I/O) belongs in activities, called via execute_activity",
    "worker": "the worker process is not workflow code",
    "client": "the client is not workflow code",
    "httpx": "network I/O",
    "httpx2": "network I/O",
    "requests": "network I/O",
    "aiohttp": "network I/O",
    "socket": "network I/O",
    "subprocess": "process I/O",
    "structlog": "use workflow.logger (replay-aware)",
    "sqlite3": "database I/O",
    "os": "environment and file-system access",
    "random": "use workflow.random()",
}
FORBIDDEN_CALLS = {
    "datetime.datetime.now": "use workflow.now()",
    "datetime.datetime.utcnow": "use workflow.now()",
    "datetime.datetime.today": "use workflow.now()",
    "datetime.date.today": "use workflow.now()",
    "time.time": "use workflow.time()/workflow.now()",
    "time.time_ns": "use workflow.time_ns()",
    "time.monotonic": "use workflow.time()",
    "time.perf_counter": "use workflow.time()",
    "uuid.uuid1": "use workflow.uuid4()",
    "uuid.uuid4": "use workflow.uuid4()",
    "open": "file I/O belongs in activities",
}
FORBIDDEN_ATTRIBUTES = {
    "os.environ": "configuration comes in the workflow input",
    "os.getenv": "configuration comes in the workflow input",
}


def _top(name: str) -> str:
    return name.split(".", 1)[0]


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return ".".join(reversed(names))


def workflow_side_violations(
    source: str, filename: str, module: str, is_package: bool
) -> list[str]:
    """'file:line: what' for every forbidden import, call or attribute in `source`."""
    tree = ast.parse(source, filename=filename)
    problems: list[str] = []
    aliases: dict[str, str] = {}  # local name -> qualified name (from the imports)

    def flag(node: ast.AST, what: str) -> None:
        problems.append(f"{filename}:{getattr(node, 'lineno', '?')}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or _top(alias.name)] = (
                    alias.name if alias.asname else _top(alias.name)
                )
                if (top := _top(alias.name)) in FORBIDDEN_IMPORTS:
                    flag(node, f"imports {alias.name} ({FORBIDDEN_IMPORTS[top]})")
        elif isinstance(node, ast.ImportFrom):
            source_module = absolute(node.module, node.level, module, is_package)
            for alias in node.names:
                qualified = f"{source_module}.{alias.name}"
                aliases[alias.asname or alias.name] = qualified
                top = _top(source_module)
                if top in FORBIDDEN_IMPORTS:
                    flag(node, f"imports {qualified} ({FORBIDDEN_IMPORTS[top]})")
                elif source_module == "" and alias.name in FORBIDDEN_IMPORTS:
                    flag(node, f"imports {alias.name} ({FORBIDDEN_IMPORTS[alias.name]})")

    def qualify(dotted: str) -> str:
        head, _, rest = dotted.partition(".")
        resolved = aliases.get(head, head)
        return f"{resolved}.{rest}" if rest else resolved

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (dotted := _dotted(node.func)):
            name = qualify(dotted)
            if name == "datetime.now" or name == "datetime.utcnow":
                name = f"datetime.datetime.{name.rsplit('.', 1)[1]}"
            if name in FORBIDDEN_CALLS:
                flag(node, f"calls {dotted}() ({FORBIDDEN_CALLS[name]})")
            elif name.startswith("random."):
                flag(node, f"calls {dotted}() (use workflow.random())")
        if isinstance(node, (ast.Attribute, ast.Name)) and (dotted := _dotted(node)):
            name = qualify(dotted)
            for forbidden, why in FORBIDDEN_ATTRIBUTES.items():
                if name == forbidden:
                    flag(node, f"reads {dotted} ({why})")
    return sorted(set(problems), key=lambda p: (p.split(":")[0], int(p.split(":")[1])))


def _modules(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


def test_workflow_side_is_deterministic():
    problems: list[str] = []
    for path in _modules("workflows"):
        problems += workflow_side_violations(
            path.read_text(encoding="utf-8"),
            str(path.relative_to(ROOT)),
            module_name(path),
            path.name == "__init__.py",
        )
    assert not problems, "workflow-side code must be deterministic:\n" + "\n".join(problems)


def test_the_checker_catches_each_kind_of_violation():
    source = """\
import os
import random as rnd
from datetime import datetime
from time import time
from uuid import uuid4
import structlog
from .. import activities
from client import AgentClient

def f():
    datetime.now()
    time()
    uuid4()
    rnd.randint(1, 2)
    open("x")
    os.environ.get("A")
    workflow.now()
    workflow.uuid4()
    workflow.random().randint(1, 2)
"""
    found = workflow_side_violations(source, "w.py", "workflows.w", False)
    assert [p.split(": ", 1)[1].split(" (")[0] for p in found] == [
        "imports os",
        "imports random",
        "imports structlog",
        "imports activities",
        "imports client.AgentClient",
        "calls datetime.now()",
        "calls time()",
        "calls uuid4()",
        "calls rnd.randint()",
        "calls open()",
        "reads os.environ",
    ]
    assert [p.split(":")[1] for p in found] == [
        "1", "2", "6", "7", "8", "11", "12", "13", "14", "15", "16"
    ]  # fmt: skip


# ── (a') the layers: adk/ (the pure rules) < engine < durable_adk (the Runner) ──

ENGINE = {"workflows", "activities", "worker", "client", "durable_adk"}


def test_the_whole_import_closure_of_the_workflow_side_is_clean():
    """What importing `workflows` runs, module by module (package `__init__`s included),
    imports no I/O, no process-side layer and never google.adk."""
    modules = graph()
    chains = closure([name for name in modules if _top(name) == "workflows"], modules)
    problems = []
    for name, chain in sorted(chains.items()):
        if _top(name) in ENGINE - {"workflows"}:
            problems.append(f"{name} ({FORBIDDEN_IMPORTS.get(_top(name), 'the Runner')})")
        for imported, line in modules[name].external.items():
            why = FORBIDDEN_IMPORTS.get(_top(imported))
            if imported == "google.adk" or imported.startswith("google.adk."):
                why = "google-adk is the test-only reference"
            if why:
                problems.append(f"{name}:{line} imports {imported} ({why})")
        if problems and problems[-1].startswith(name):
            problems[-1] += "\n    via " + " > ".join(chain)
    assert not problems, "the workflow side must stay pure:\n" + "\n".join(problems)


def test_no_import_cycle_among_our_modules():
    found = [" -> ".join(cycle) for cycle in cycles(graph())]
    assert not found, "import cycles (module level, TYPE_CHECKING aside):\n" + "\n".join(found)


def _all_imports(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in the file, function-local ones included."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = absolute(node.module, node.level, module, path.name == "__init__.py")
            found.append((node.lineno, source))
    return found


def test_adk_imports_no_layer_above_it():
    """adk/ holds the pure ADK rules the engine is built on; only adk/runners.py (a
    lazy re-export of the Runner) reaches above."""
    problems = []
    for path in _modules("adk"):
        module = module_name(path)
        for line, imported in _all_imports(path, module):
            if _top(imported) in ENGINE and module != "adk.runners":
                problems.append(f"{path.relative_to(ROOT)}:{line}: imports {imported}")
    assert not problems, "adk/ must not import the engine or the Runner:\n" + "\n".join(problems)


def test_nothing_imports_the_rest_api():
    """api/ (the REST API process) sits on top: a client of the engine, which never
    depends on it (nor on its web server). The OpenAPI toolset uses FastAPI's OpenAPI
    models (`fastapi.openapi`, `fastapi.encoders`: the openapi extra), as 2.13 does."""
    models = ("fastapi.openapi", "fastapi.encoders")
    problems = [
        f"{path.relative_to(ROOT)}:{line}: imports {imported}"
        for package in PACKAGES
        if package != "api"
        for path in _modules(package)
        for line, imported in _all_imports(path, module_name(path))
        if _top(imported) in ("api", "fastapi", "uvicorn", "starlette")
        and not (
            package == "adk" and any(imported == m or imported.startswith(m + ".") for m in models)
        )
    ]
    assert not problems, "only api/ may import api, fastapi or uvicorn:\n" + "\n".join(problems)


def test_runtime_never_imports_google_adk():
    problems = [
        f"{path.relative_to(ROOT)}:{line}: imports {imported}"
        for package in PACKAGES
        for path in _modules(package)
        for line, imported in _all_imports(path, module_name(path))
        if imported == "google.adk" or imported.startswith("google.adk.")
    ]
    assert not problems, "google-adk is a test-only reference:\n" + "\n".join(problems)


# ── (b) every module says where it runs ──────────────────────────────────────


def test_every_module_says_where_it_runs():
    missing = []
    for package in PACKAGES:
        for path in _modules(package):
            docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            if not docstring or "Runs on:" not in docstring:
                missing.append(str(path.relative_to(ROOT)))
    assert not missing, (
        "these modules need 'Runs on: <workflow | activity side | process side | both sides>'"
        " in their docstring:\n" + "\n".join(missing)
    )


# ── (c) the public API is pinned ─────────────────────────────────────────────

PUBLIC_API = {
    "adk": [
        "ActivityOptions",
        "Agent",
        "Context",
        "Event",
        "LlmAgent",
        "LoopAgent",
        "ParallelAgent",
        "Runner",
        "SequentialAgent",
    ],
    "adk.agents": [
        "Agent",
        "BaseAgent",
        "BaseAgentConfig",
        "CallbackContext",
        "Context",
        "InvocationContext",
        "LlmAgent",
        "LlmAgentConfig",
        "LlmCallsLimitExceededError",
        "LoopAgent",
        "LoopAgentConfig",
        "ParallelAgent",
        "ParallelAgentConfig",
        "ReadonlyContext",
        "RunConfig",
        "SequentialAgent",
        "SequentialAgentConfig",
        "StreamingMode",
    ],
    "adk.tools": [
        "AgentTool",
        "BaseTool",
        "BaseToolset",
        "ExampleTool",
        "FunctionTool",
        "LongRunningFunctionTool",
        "MCPToolset",
        "McpToolset",
        "ToolConfirmation",
        "ToolContext",
        "TransferToAgentTool",
        "VertexAiSearchTool",
        "enterprise_web_search",
        "exit_loop",
        "get_user_choice",
        "google_maps_grounding",
        "google_search",
        "load_artifacts",
        "load_memory",
        "preload_memory",
        "request_input",
        "transfer_to_agent",
        "url_context",
    ],
    "adk.sessions": [
        "AlreadyExistsError",
        "Appended",
        "BaseSessionService",
        "DatabaseSessionService",
        "GetSessionConfig",
        "InMemorySessionService",
        "ListSessionsResponse",
        "Session",
        "SessionWatch",
        "SqliteSessionService",
        "State",
        "StateSchemaError",
    ],
    "adk.models": [
        "BaseLlm",
        "Gemini",
        "LLMRegistry",
        "LlmCapabilities",
        "LlmRequest",
        "LlmResponse",
    ],
    "adk.apps": ["App", "EventsCompactionConfig", "ResumabilityConfig"],
    "adk.events": ["Event", "EventActions", "RequestInput"],
    "adk.workflow": [
        "BaseNode",
        "DEFAULT_ROUTE",
        "Edge",
        "FunctionNode",
        "JoinNode",
        "Node",
        "NodeTimeoutError",
        "RetryConfig",
        "START",
        "Workflow",
        "node",
    ],
    "adk.runners": ["InMemoryRunner", "Runner"],
    "adk.planners": ["BasePlanner", "BuiltInPlanner", "PlanReActPlanner"],
    "adk.platform": ["get_random", "reset_random_provider", "set_random_provider"],
    "adk.code_executors": [
        "BaseCodeExecutor",
        "BuiltInCodeExecutor",
        "CodeExecutorContext",
        "UnsafeLocalCodeExecutor",
    ],
    "adk.plugins": [
        "BasePlugin",
        "DebugLoggingPlugin",
        "LoggingPlugin",
        "PluginManager",
        "ReflectAndRetryModelPlugin",
        "ReflectAndRetryToolPlugin",
        "ToolResultClassification",
        "ToolResultClassifier",
    ],
    "adk.examples": ["BaseExampleProvider", "Example"],
    "adk.memory": [
        "BaseMemoryService",
        "DatabaseMemoryService",
        "InMemoryMemoryService",
        "SqliteMemoryService",
    ],
    "adk.artifacts": [
        "BaseArtifactService",
        "FileArtifactService",
        "GcsArtifactService",
        "InMemoryArtifactService",
    ],
    "durable_adk": [
        "DEV_SERVER_ARGS",
        "InMemoryRunner",
        "Runner",
        "WorkerStoppedError",
        "temporal_binary",
    ],
    "api": ["AppCatalog", "TemporalConnection", "create_app"],
    "client": [
        "AgentClient",
        "AnswerRejectedError",
        "Invocation",
        "InvocationFailedError",
        "InvocationInterruptedError",
        "PendingListing",
        "SessionBusyError",
        "TemporalUnreachableError",
    ],
}


@pytest.mark.parametrize("module_name", sorted(PUBLIC_API))
def test_public_api_is_pinned(module_name):
    expected = PUBLIC_API[module_name]
    assert expected == sorted(expected)
    module = importlib.import_module(module_name)
    assert sorted(module.__all__) == expected, (
        f"{module_name}.__all__ changed: update PUBLIC_API if the change is intended"
    )
    missing = [name for name in expected if getattr(module, name, None) is None]
    assert not missing, f"{module_name} lists names it cannot import: {missing}"
