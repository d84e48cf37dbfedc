"""The differential kit: one ADK agent script, run on google-adk 2.13 and on ours.

Runs on: process side (the tests' process; ours through a Runner whose worker
runs in this process on the session's local Temporal).

A case is a module under cases/ written exactly as an ADK user writes it
(imports from `google.adk`), plus two names the kit reads:

- `build(scripted)` returns the root agent. `scripted(*replies, model=...)`
  makes a scripted model for the side being run (a BaseLlm subclass of that
  side): its replies (text, a Part, a list of Parts, a Content, a dict of
  LlmResponse fields, or an exception to raise) are consumed in order, one per call; give each agent its own, so
  parallel branches stay deterministic.
- `TURNS`: the user messages, one run_async each, in one session: a text, or
  a function of the events yielded so far returning the message (a Content),
  or run_async's keyword arguments (a dict: `new_message`, `invocation_id`);
  optionally `plugins()` (the app's plugins, given to the Runner; what a plugin
  appends to its `observed` list is compared too),
  `INITIAL_STATE` (the session's state when it is created),
  `RUN_CONFIG` (the RunConfig every run_async gets) and
  `CAPTURE_STDOUT = True` (what the run prints, e.g. LoggingPlugin's lines, is
  compared line by line, the session id named; ours prints in the worker, which
  runs in this process),
  `REFERENCE_ARTIFACT_SERVICE = True` (the reference Runner gets an
  InMemoryArtifactService, as InMemoryRunner has: 2.13 refuses a code executor's
  result without one; ours runs without one as InMemoryRunner does; its artifacts
  are not compared),
  `RESUMABLE = True` (the agent runs in an
  `App(resumability_config=ResumabilityConfig(is_resumable=True))` on both sides),
  `TURN_TIMEOUT` (seconds a turn may take, when it runs many child workflows),
  `BRANCHES_INTERLEAVE = True` (a ParallelAgent's branches, a graph's fan-out: their
  events are compared branch by branch, see `_by_branch`; with `RESUMABLE`, a graph's
  checkpoints among them by the transitions they record, `_checkpoints_by_transition`); `CONTINUE_AFTER_RAISE = True`
  (a turn that raised is not the last: the session goes on);
  `memory_service()` (the side's memory service, given to the Runner) and
  `async seed_memory(service, app_name, user_id)` (what it remembers before the
  first turn, e.g. another session of the user's),
  `events_compaction_config(scripted)` (the side's EventsCompactionConfig: the
  Runner gets an App holding it; a summarizer's scripted model is recorded too),
  `artifact_service()` (the side's artifact service, given to the Runner; every
  artifact of the session and the user at the end is compared, each version's
  content and metadata) and `INITIAL_ARTIFACTS` (filename -> Part, saved before
  the first turn; a `user:` name is the user's).

A case may also be a folder (cases/NAME/) holding an Agent Config YAML app:
`root_agent.yaml` (and the files it refers to), and an `__init__.py` with
`TURNS` (and the optional names above) and `MODELS`, the scripted replies by
model name (`{"kit-root": [...]}`, each name starting with `kit-`): the YAML
names its models (`model: kit-root`) and both sides resolve them through their
LLMRegistry. Each side gets its own copy of the folder (ours with its Python
files' imports ported), imported under the folder's name, and loads the YAML
with its own `config_agent_utils.from_config`.

`load_case` loads the source as-is (reference) or with `google.adk` replaced by
`adk` in its import lines (ours); `run_reference` / `run_ours` run it and return
one JSON-able document (each turn's yielded events or exception, the stored
session, every request each model saw); `assert_same` compares the documents
with ids and timestamps normalised and fails with a unified diff.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import io
import itertools
import json
import re
import shutil
import sys
import tempfile
import types as pytypes
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Union, get_origin

from google.genai import types
from pydantic import PrivateAttr, TypeAdapter
from pydantic_core import to_jsonable_python

from .compare import (
    GAPS,
    assert_same,
    difference,
    gap_values,
    normalise,
    without_gaps,
    without_gaps_everywhere,
)

CASES = Path(__file__).parent / "cases"
APP, USER = "test_app", "u1"
REFERENCE, OURS = "reference", "ours"

_IMPORT = re.compile(r"^(\s*(?:from|import)\s+)google\.adk\b", re.MULTILINE)
_VOLATILE_EVENT_FIELDS = {"timestamp"}
"""Differ on every run by nature (ids are replaced, not dropped: their shape is compared)."""
_counter = itertools.count()
TURN_TIMEOUT = 30.0
"""Seconds one run_async may take (a turn takes ~1 s): a hang shows as a difference.
Not a speed check: on a loaded 2-core machine (load 10) a session's first turn took
over 10 s, and a workflow task Temporal retries after its 10 s timeout must fit."""


def to_ours(source: str) -> str:
    """The porting promise: only the import prefix changes."""
    return _IMPORT.sub(r"\1adk", source)


def case_names() -> list[str]:
    """Every case: the modules cases/NAME.py and the YAML folders cases/NAME/."""
    modules = [p.stem for p in CASES.glob("*.py")]
    return sorted(modules + [p.parent.name for p in CASES.glob("*/root_agent.yaml")])


def load_case(name_or_source: str, side: str) -> pytypes.ModuleType:
    """The case module for one side: a case's name (cases/NAME.py) or its source.

    A fresh module each call: cases hold no shared state.
    """
    if "\n" not in name_or_source and (CASES / name_or_source).is_dir():
        return _load_yaml_case(CASES / name_or_source, side)
    is_source = "\n" in name_or_source
    path = Path("<case source>") if is_source else CASES / f"{name_or_source}.py"
    source = name_or_source if is_source else path.read_text()
    if side == OURS:
        source = to_ours(source)
    name = f"diffcase_{side}_{next(_counter)}"
    module = pytypes.ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module  # pydantic resolves a case's annotations through it
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module


# ── YAML cases: a folder per side, loaded by that side's from_config ──

_COPIES = tempfile.TemporaryDirectory(prefix="diffkit-")
"""Each side's copies of the YAML cases (removed when the process ends)."""


def side_copy(folder: Path, side: str) -> Path:
    """A fresh copy of an app folder for one side: ours has its imports ported."""
    root = Path(tempfile.mkdtemp(prefix=f"{side}-", dir=_COPIES.name))
    copy = Path(shutil.copytree(folder, root / folder.name))
    if side == OURS:
        for source in copy.rglob("*.py"):
            source.write_text(to_ours(source.read_text()))
    return copy


@contextlib.contextmanager
def importable(copy: Path) -> Iterator[None]:
    """The copy's package importable by its folder's name (any earlier one forgotten)."""
    package = copy.name
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]
    sys.path.insert(0, str(copy.parent))
    try:
        yield
    finally:
        sys.path.remove(str(copy.parent))


def from_config(side: str, path: Path) -> Any:
    """The agent a YAML file declares, loaded by that side's config_agent_utils."""
    prefix = "google.adk" if side == REFERENCE else "adk"
    utils = importlib.import_module(f"{prefix}.agents.config_agent_utils")
    return utils.from_config(str(path))


def _load_yaml_case(folder: Path, side: str) -> pytypes.ModuleType:
    copy = side_copy(folder, side)
    with importable(copy):
        case = importlib.import_module(copy.name)

    def build(scripted: Any) -> Any:
        scripted.register(case.MODELS)
        with importable(copy):
            return from_config(side, copy / "root_agent.yaml")

    case.build = build  # type: ignore[attr-defined]
    return case


# ── the scripted model, one class per side ──


class Recorder:
    """The models one run created, in creation order, and what each was asked."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, list[Any]]] = []

    def new(self, label: str) -> list[Any]:
        seen: list[Any] = []
        self.requests.append((f"model#{len(self.requests)} {label}", seen))
        return seen


def _model_factory(side: str, recorder: Recorder) -> Callable[..., Any]:
    if side == REFERENCE:
        from google.adk.models.base_llm import BaseLlm as RefBaseLlm
        from google.adk.models.llm_response import LlmResponse as RefLlmResponse

        base: Any = RefBaseLlm
        response_cls: Any = RefLlmResponse
        error_base: Any = Exception
    else:
        from adk.models._errors import PermanentModelError
        from adk.models.base_llm import BaseLlm as OurBaseLlm
        from adk.models.llm_response import LlmResponse as OurLlmResponse

        base, response_cls = OurBaseLlm, OurLlmResponse
        error_base = PermanentModelError  # ours retries other model errors: not a script's end

    class ScriptExhaustedError(error_base):  # type: ignore[misc, valid-type]
        """Asked for one reply more than scripted (the same class name on both sides)."""

    class ScriptedModel(base):  # type: ignore[misc, valid-type]
        """Replies in order; records each request as JSON when it arrives (it may be reused)."""

        replies: list[Any] = []
        _seen: list[Any] = PrivateAttr(default_factory=list)

        async def generate_content_async(self, llm_request: Any, stream: bool = False) -> Any:
            self._seen.append(dump_request(llm_request))
            turn = len(self._seen) - 1
            if turn >= len(self.replies):
                raise ScriptExhaustedError(
                    f"scripted model {self.model!r} has {len(self.replies)} replies; call"
                    f" #{turn + 1} asked for one more"
                )
            reply = self.replies[turn]
            if isinstance(reply, BaseException):  # the model call fails
                raise reply
            if isinstance(reply, dict):  # LlmResponse fields (content as any reply)
                fields = dict(reply)
                if "content" in fields:
                    fields["content"] = _content(fields["content"])
                yield response_cls(**fields)
                return
            yield response_cls(content=_content(reply))

    def scripted(*replies: Any, model: str = "scripted-model") -> Any:
        instance = ScriptedModel(model=model, replies=list(replies))
        instance._seen = recorder.new(model)  # the recorder's own list: pydantic copies fields
        return instance

    def register(models: dict[str, list[Any]]) -> None:
        """Models by name (`kit-...`) through the side's LLMRegistry: every instance of
        one name shares its script and its record."""
        scripts = {name: (list(replies), recorder.new(name)) for name, replies in models.items()}

        class KitModel(ScriptedModel):  # type: ignore[misc, valid-type]
            @classmethod
            def supported_models(cls) -> list[str]:
                return [r"kit-.*"]

            def model_post_init(self, context: Any) -> None:
                super().model_post_init(context)
                if self.model not in scripts:
                    raise ValueError(
                        f"no script for model {self.model!r} (MODELS: {list(scripts)})"
                    )
                self.replies, self._seen = scripts[self.model]

        registry = "google.adk.models.registry" if side == REFERENCE else "adk.models.registry"
        importlib.import_module(registry).LLMRegistry.register(KitModel)

    scripted.register = register  # type: ignore[attr-defined]
    return scripted


def _content(reply: Any) -> types.Content:
    if isinstance(reply, types.Content):
        return reply
    if isinstance(reply, str):
        reply = types.Part(text=reply)
    if isinstance(reply, types.Part):
        reply = [reply]
    return types.Content(role="model", parts=list(reply))


def _jsonable(value: Any) -> Any:
    def fallback(obj: Any) -> Any:
        if isinstance(obj, type):  # an output_schema class given as response_schema
            schema = getattr(obj, "model_json_schema", None)
            return {"class": obj.__qualname__, "schema": schema() if schema else _schema(obj)}
        if isinstance(obj, pytypes.GenericAlias | pytypes.UnionType) or get_origin(obj) is Union:
            # list[Model], dict[str, int], A | None... given as response_schema
            return {"alias": type(obj).__qualname__, "schema": _schema(obj)}
        return f"<{type(obj).__qualname__}>"

    return to_jsonable_python(value, exclude_none=True, by_alias=False, fallback=fallback)


def _schema(annotation: Any) -> Any:
    try:
        return TypeAdapter(annotation).json_schema()
    except Exception:
        return None


def dump_request(llm_request: Any) -> Any:
    """Every public field of the request but tools_dict (objects; declarations are in config)."""
    fields = {
        name: getattr(llm_request, name)
        for name in type(llm_request).model_fields
        if name != "tools_dict"
    }
    return {k: v for k, v in _jsonable(fields).items() if v not in (None, {}, [])}


def dump_event(event: Any) -> Any:
    data = _jsonable(event)
    for name in _VOLATILE_EVENT_FIELDS:
        data.pop(name, None)
    if data.get("long_running_tool_ids"):  # a set: in the order of the event's calls
        calls = [c.id for c in event.get_function_calls()]
        data["long_running_tool_ids"] = sorted(
            data["long_running_tool_ids"],
            key=lambda i: (calls.index(i), "") if i in calls else (len(calls), i),
        )
    actions = data.get("actions") or {}
    for name in ("requested_tool_confirmations", "requested_auth_configs"):
        if len(actions.get(name) or {}) > 1:  # keyed by call ids: compared in call order
            actions[name] = [[key, value] for key, value in actions[name].items()]
    return data


# ── running one side ──


def _error(error: BaseException) -> dict[str, str]:
    return {"class": type(error).__name__, "message": str(error)}


async def _run_turns(runner: Any, case: pytypes.ModuleType, session: str) -> list[Any]:
    turns: list[Any] = []
    seen: list[Any] = []
    options = {"run_config": case.RUN_CONFIG} if hasattr(case, "RUN_CONFIG") else {}
    for turn in case.TURNS:
        # a text, or a function of the events so far giving the message (e.g. a
        # FunctionResponse answering a long-running call by its id)
        message = (
            turn(seen)
            if callable(turn)
            else types.Content(role="user", parts=[types.Part(text=turn)])
        )
        # (a dict: run_async's arguments, e.g. an invocation_id to resume)
        arguments = message if isinstance(message, dict) else {"new_message": message}
        record: dict[str, Any] = {"message": _jsonable(arguments.get("new_message")), "events": []}
        if "invocation_id" in arguments:
            record["invocation_id"] = arguments["invocation_id"]
        turns.append(record)
        try:
            async with asyncio.timeout(getattr(case, "TURN_TIMEOUT", TURN_TIMEOUT)):
                async for event in runner.run_async(
                    user_id=USER, session_id=session, **arguments, **options
                ):
                    seen.append(event)
                    record["events"].append(dump_event(event))
        except TimeoutError:
            limit = getattr(case, "TURN_TIMEOUT", TURN_TIMEOUT)
            record["raised"] = {"class": "(kit)", "message": f"no end in {limit} s"}
            break
        except Exception as error:  # compared, not hidden: the case's outcome
            record["raised"] = _error(error)
            if not getattr(case, "CONTINUE_AFTER_RAISE", False):
                break
    return turns


async def _document(
    runner: Any, case: pytypes.ModuleType, recorder: Recorder, plugins: list[Any] | None = None
) -> Any:
    service = runner.session_service
    # a session of its own: ours keys a running invocation by session on the shared server
    session_id = f"{case.__name__}-{next(_counter)}"
    state = dict(getattr(case, "INITIAL_STATE", {}))
    await service.create_session(app_name=APP, user_id=USER, session_id=session_id, state=state)
    if hasattr(case, "seed_memory"):
        await case.seed_memory(runner.memory_service, APP, USER)
    artifacts = _artifact_service_of(runner, case)
    for filename, part in getattr(case, "INITIAL_ARTIFACTS", {}).items():
        await artifacts.save_artifact(
            app_name=APP, user_id=USER, session_id=session_id, filename=filename, artifact=part
        )
    printed = io.StringIO()
    if getattr(case, "CAPTURE_STDOUT", False):
        with contextlib.redirect_stdout(printed):
            turns = await _run_turns(runner, case, session_id)
    else:
        turns = await _run_turns(runner, case, session_id)
    for turn in turns:  # an exception's text may name the session (its id differs by side)
        if "raised" in turn:
            turn["raised"] = _named_session(session_id, turn["raised"])
    session = await service.get_session(app_name=APP, user_id=USER, session_id=session_id)
    stored = [dump_event(e) for e in session.events]
    _name_compaction_times(session.events, stored)
    interleave = getattr(case, "BRANCHES_INTERLEAVE", False)
    if interleave and getattr(case, "RESUMABLE", False):
        for turn in turns:
            turn["events"] = _checkpoints_by_transition(turn["events"])
        stored = _checkpoints_by_transition(stored)
    if interleave:
        for turn in turns:
            turn["events"] = _by_branch(turn["events"])
        stored = _by_branch(stored)
    yielded = [e for t in turns for e in t["events"]]
    return {
        **({"branch_runs_sorted": True} if interleave else {}),
        "turns": turns,
        "session": {
            "state": _jsonable(session.state),
            # an event stored as it was yielded is named, not repeated
            "events": [{"same_as_yielded": e["id"]} if e in yielded else e for e in stored],
        },
        "requests": dict(recorder.requests),
        **({"artifacts": await _artifacts(artifacts, session_id)} if artifacts else {}),
        **_named_session(
            session_id,
            {
                **({"stdout": printed.getvalue().splitlines()} if printed.getvalue() else {}),
                # what a plugin noted in its `observed` list (hooks that leave no event)
                **{
                    f"plugin {p.name} observed": _jsonable(p.observed)
                    for p in plugins or []
                    if hasattr(p, "observed")
                },
            },
        ),
    }


def _name_compaction_times(events: list[Any], dumped: list[Any]) -> None:
    """A compaction's range names the stored events at its ends (their times differ by
    run): the first event at its start time, the last at its end time."""
    for event, data in zip(events, dumped, strict=True):
        compaction = event.actions.compaction if event.actions else None
        if compaction is None:
            continue
        times = [
            (index, e.timestamp)
            for index, e in enumerate(events)
            if not (e.actions and e.actions.compaction)
        ]
        starts = [i for i, t in times if t == compaction.start_timestamp]
        ends = [i for i, t in times if t == compaction.end_timestamp]
        named = data["actions"]["compaction"]
        named["start_timestamp"] = f"<time of stored event {starts[0]}>" if starts else "<none>"
        named["end_timestamp"] = f"<time of stored event {ends[-1]}>" if ends else "<none>"


def _named_session(session_id: str, printed: dict[str, Any]) -> dict[str, Any]:
    """What plugins printed or noted, the kit's own session id (one per side) named."""
    return json.loads(json.dumps(printed).replace(json.dumps(session_id)[1:-1], "<session>"))


def _artifact_service_of(runner: Any, case: Any) -> Any:
    """The runner's artifact service when the case gives one (`artifact_service()`):
    its artifacts are then compared (not REFERENCE_ARTIFACT_SERVICE's, one side's)."""
    return runner.artifact_service if hasattr(case, "artifact_service") else None


async def _artifacts(service: Any, session_id: str) -> Any:
    """Every version of every artifact the session sees: content and metadata."""
    scope = {"app_name": APP, "user_id": USER, "session_id": session_id}
    out: dict[str, Any] = {}
    for name in await service.list_artifact_keys(**scope):
        versions = await service.list_artifact_versions(**scope, filename=name)
        out[name] = [
            {
                "content": _jsonable(
                    await service.load_artifact(**scope, filename=name, version=v.version)
                ),
                "metadata": _jsonable(v.model_dump(exclude={"create_time"})),
            }
            for v in versions
        ]
    # the session's id differs by side (URIs name it)
    return json.loads(json.dumps(out).replace(session_id, "<session>"))


def _checkpoints_by_transition(events: list[Any]) -> list[Any]:
    """A resumable graph's checkpoints (`agent_state.nodes`) around concurrent branches.

    Where branch events and checkpoints follow each other (a fan-out running), each
    checkpoint's place and content depend on when each branch's work ends (ADK:
    asyncio's scheduling; ours: activity completions). Such a stretch keeps its branch
    events (compared by `_by_branch`) and becomes one entry: the node transitions each
    of its checkpoints records (node -> status, against the checkpoint before), the
    checkpoints in sorted order, and its last checkpoint whole. Checkpoints elsewhere are compared as they are.
    """

    def checkpoint(event: Any) -> bool:  # a graph's (an agent's state has no "nodes")
        state = (event.get("actions") or {}).get("agent_state")
        return not event.get("branch") and isinstance(state, dict) and "nodes" in state

    out: list[Any] = []
    stretch: list[Any] = []
    before: dict[str, Any] = {}
    transitions: list[Any] = []
    for event in [*events, None]:
        if event is not None and (event.get("branch") or checkpoint(event)):
            stretch.append(event)
            if checkpoint(event):
                nodes = event["actions"]["agent_state"]["nodes"] or {}
                changed = [[n, v] for n, v in nodes.items() if before.get(n) != v]
                transitions.append(sorted(changed, key=json.dumps))
                before = nodes
            continue
        marks = [e for e in stretch if checkpoint(e)]
        if marks and any(e.get("branch") for e in stretch):
            out.extend(e for e in stretch if not checkpoint(e))
            out.append(
                {
                    "id": marks[-1].get("id"),
                    "checkpoint_transitions": sorted(transitions, key=json.dumps),
                    "last_checkpoint": marks[-1],
                }
            )
        else:
            out.extend(stretch)
        stretch, transitions = [], []
        if event is not None:
            out.append(event)
    return out


def _by_branch(events: list[Any]) -> list[Any]:
    """Each run of consecutive branch events in branch order (stable within a branch).

    Concurrent branches interleave as their work finishes: in ADK by asyncio's
    scheduling, in ours by when activities complete. Each branch's own order,
    and the order around the run, is still compared.
    """
    out: list[Any] = []
    run: list[Any] = []
    for event in [*events, None]:
        if event is not None and event.get("branch"):
            run.append(event)
            continue
        out.extend(sorted(run, key=lambda e: e["branch"]))
        run = []
        if event is not None:
            out.append(event)
    return out


async def run_reference(case_name: str) -> Any:
    case = load_case(case_name, REFERENCE)
    recorder = Recorder()
    with warnings.catch_warnings():  # the reference's own (experimental, deprecation) warnings
        warnings.simplefilter("ignore")
        from google.adk.runners import Runner
        from google.adk.sessions import InMemorySessionService

        scripted = _model_factory(REFERENCE, recorder)
        agent = case.build(scripted)
        plugins = _plugins(case)
        options: dict[str, Any] = {
            "artifact_service": _artifact_service(case),
            "memory_service": _memory_service(case),
        }
        if getattr(case, "REFERENCE_ARTIFACT_SERVICE", False):
            from google.adk.artifacts import InMemoryArtifactService

            options["artifact_service"] = InMemoryArtifactService()
        compaction = _compaction(case, scripted)
        resumable = getattr(case, "RESUMABLE", False)
        if compaction is not None or resumable:  # an App (Runner(plugins=) is deprecated)
            from google.adk.apps import App, ResumabilityConfig

            options["app"] = App(
                name=APP,
                root_agent=agent,
                plugins=plugins or [],
                events_compaction_config=compaction,
                resumability_config=ResumabilityConfig(is_resumable=True) if resumable else None,
            )
        else:
            options.update(app_name=APP, agent=agent, plugins=plugins)
        runner = Runner(session_service=InMemorySessionService(), **options)
        try:
            return await _document(runner, case, recorder, plugins)
        finally:
            await runner.close()


async def run_ours(case_name: str, temporal_env: Any) -> Any:
    from tests.workflows.helpers import runner_for

    recorder = Recorder()
    try:
        case = load_case(case_name, OURS)
        scripted = _model_factory(OURS, recorder)
        agent = case.build(scripted)
        compaction = _compaction(case, scripted)
    except Exception as error:  # e.g. a module path we lack: the case cannot even load
        return {"load_error": _error(error)}
    with warnings.catch_warnings():  # as the reference's: a deprecation is not an outcome
        warnings.simplefilter("ignore")
        plugins = _plugins(case)
        async with runner_for(
            temporal_env,
            agent,
            plugins=plugins,
            artifact_service=_artifact_service(case),
            memory_service=_memory_service(case),
            **({"events_compaction_config": compaction} if compaction is not None else {}),
            resumable=getattr(case, "RESUMABLE", False),
        ) as runner:
            return await _document(runner, case, recorder, plugins)


def _compaction(case: Any, scripted: Any) -> Any:
    """The case's `events_compaction_config(scripted)` (its side's class), if any."""
    build = getattr(case, "events_compaction_config", None)
    return build(scripted) if build is not None else None


def _artifact_service(case: Any) -> Any:
    """The case's artifact service (`artifact_service()`: its side's class), if any."""
    build = getattr(case, "artifact_service", None)
    return build() if build is not None else None


def _memory_service(case: Any) -> Any:
    """The case's memory service (`memory_service()`: its side's class), if any."""
    build = getattr(case, "memory_service", None)
    return build() if build is not None else None


def _plugins(case: Any) -> list[Any] | None:
    """The case's plugins (`plugins()`: fresh instances of its side's classes), if any."""
    build = getattr(case, "plugins", None)
    return build() if build is not None else None


__all__ = [
    "GAPS",
    "assert_same",
    "difference",
    "gap_values",
    "load_case",
    "normalise",
    "run_ours",
    "run_reference",
    "to_ours",
    "without_gaps",
    "without_gaps_everywhere",
]
