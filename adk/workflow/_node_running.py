"""Running one node once: google-adk 2.13's BaseNode.run normalization, FunctionNode's
parameter binding, coercion and return-value conversion, and the NodeRunner's event
enrichment (author, node path, output_for, branch, state deltas, the error event).

Runs on: activity side (node code is user code: the `adk.run_node` activity calls
`run_node_once`; the workflow schedules the graph).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from dataclasses import dataclass, field
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from google.genai import types
from pydantic import BaseModel, TypeAdapter

from .._unimplemented import not_implemented
from ..events.event import Event
from ..events.request_input import RequestInput
from ..utils.content_utils import extract_text_from_content
from ._base_node import BaseNode
from ._errors import NodeTimeoutError, WorkflowDataError
from ._function_node import FunctionNode

logger = logging.getLogger(__name__)


# ── schemas and coercion (2.13's utils/_schema_utils) ────────────────────────


def _strip_annotated(hint: Any) -> Any:
    return get_args(hint)[0] if get_origin(hint) is Annotated else hint


def annotation_expects_str(hint: Any) -> bool:
    hint = _strip_annotated(hint)
    if hint is str:
        return True
    if get_origin(hint) in (Union, UnionType):
        args = [_strip_annotated(a) for a in get_args(hint)]
        return any(annotation_expects_str(a) for a in args) and all(
            annotation_expects_str(a)
            or a is type(None)
            or (isinstance(a, type) and issubclass(a, types.Content))
            for a in args
        )
    return False


def _accepts_content(hint: Any) -> bool:
    hint = _strip_annotated(hint)
    if hint in (Any, object, types.Content):
        return True
    if isinstance(hint, type) and issubclass(hint, types.Content):
        return True
    if get_origin(hint) in (Union, UnionType):
        return any(_accepts_content(a) for a in get_args(hint))
    return False


def unwrap_content_payload(content: types.Content, hint: Any = None) -> Any:
    """A Content as a str hint wants it (its text), else as is when the hint takes a
    Content, else its text parsed as JSON (the text when it is not JSON)."""
    if annotation_expects_str(hint):
        return extract_text_from_content(content)
    if _accepts_content(hint):
        return content
    text = extract_text_from_content(content)
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _serializable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_none=True)
    if isinstance(value, list):
        return [_serializable(item) for item in value]
    if isinstance(value, dict):
        return {k: _serializable(v) for k, v in value.items()}
    return value


def validate_node_data(schema: Any, data: Any) -> Any:
    """`data` validated against `schema` (a raw dict or genai Schema: not enforced); a
    validated model becomes its dict without None fields."""
    if data is None or schema is None or isinstance(schema, (dict, types.Schema)):
        return data

    def validated(value: Any) -> Any:
        return _serializable(TypeAdapter(schema).validate_python(value))

    if isinstance(data, types.Content):
        payload = unwrap_content_payload(data, schema)
        if payload is data:
            return validated(data)
        return payload if schema is str else validated(payload)
    if isinstance(data, str) and schema is str:
        return data
    return validated(data)


# ── FunctionNode: binding, call, conversion ──────────────────────────────────


def _coerce(node: FunctionNode, param: str, value: Any, hint: Any) -> Any:
    if isinstance(value, types.Content):
        if annotation_expects_str(hint):
            for part in value.parts or []:
                if part.text is None and (
                    part.inline_data or part.file_data or part.executable_code
                ):
                    logger.warning(
                        'Parameter "%s" of function "%s" expects str but received'
                        " Content with non-text parts (e.g. inline_data, file_data)."
                        " Non-text parts are dropped during auto-conversion.",
                        param,
                        node.name,
                    )
        value = unwrap_content_payload(value, hint)
    adapter = node._type_adapters.get(param) or TypeAdapter(hint)
    return adapter.validate_python(value)


def bind_parameters(node: FunctionNode, ctx: Any, node_input: Any) -> dict[str, Any]:
    """State binding: the context parameter gets `ctx`, `node_input` the input, every
    other parameter its state value (coerced to its hint), else its default."""
    kwargs: dict[str, Any] = {}
    state = ctx.state
    hints = node._type_hints
    for name, param in node._sig.parameters.items():
        if name == node._context_param_name:
            continue
        if param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            continue
        if name == "node_input":
            kwargs[name] = (
                _coerce(node, name, node_input, hints[name]) if name in hints else node_input
            )
            continue
        if name in state:
            value = state[name]
            kwargs[name] = _coerce(node, name, value, hints[name]) if name in hints else value
        elif param.default is not inspect.Parameter.empty:
            kwargs[name] = param.default
        else:
            raise WorkflowDataError(
                f'Missing value for parameter "{name}" of function "{node.name}". It was'
                " not found in state and has no default value."
            )
    if node._context_param_name in node._sig.parameters:
        kwargs[node._context_param_name] = ctx
    return kwargs


def _to_event(ctx: Any, data: object) -> Event | RequestInput | None:
    """A function's return (or yielded) value as 2.13 turns it into an event; state
    written through `ctx.state` so far rides on it."""
    delta = dict(ctx.actions.state_delta) if ctx.actions.state_delta else None
    if data is None:
        return Event(actions={"state_delta": delta}) if delta else None
    if isinstance(data, Event):
        if delta:
            data.actions.state_delta.update(delta)
        return data
    if isinstance(data, RequestInput):
        return data
    if isinstance(data, types.Content):
        return Event(content=data, actions={"state_delta": delta or {}})
    if isinstance(data, BaseModel):
        data = data.model_dump()
    return Event(output=data, actions={"state_delta": delta or {}})


async def _steps(iterator: Iterator[Any]) -> AsyncIterator[Any]:
    """A sync generator stepped on a thread (as 2.13 steps it off the event loop)."""
    sentinel = object()
    while True:
        item = await asyncio.to_thread(next, iterator, sentinel)
        if item is sentinel:
            return
        yield item


async def run_function(node: FunctionNode, ctx: Any, node_input: Any) -> AsyncGenerator[Any, None]:
    """FunctionNode._run_impl: sync or async function, sync or async generator."""
    kwargs = bind_parameters(node, ctx, node_input)
    func = node._func
    unwrapped = node._unwrapped_func or func
    items: AsyncIterator[Any] | None = None
    if inspect.isasyncgenfunction(unwrapped) or inspect.isasyncgenfunction(func):
        items = func(**kwargs)
    elif inspect.isgeneratorfunction(unwrapped) or inspect.isgeneratorfunction(func):
        items = _steps(func(**kwargs))
    if items is not None:
        async for item in items:
            event = _to_event(ctx, item)
            if event is not None:
                yield event
        return
    if inspect.iscoroutinefunction(unwrapped) or inspect.iscoroutinefunction(func):
        result = await func(**kwargs)
    else:
        result = func(**kwargs)
        if inspect.isawaitable(result):
            result = await result
    event = _to_event(ctx, result)
    if event is not None:
        yield event


async def normalized(node: BaseNode, ctx: Any, node_input: Any) -> AsyncGenerator[Event, None]:
    """BaseNode.run: input validated, every yield an Event (None skipped, a raw value
    an output event). A RequestInput (human input) is not implemented yet."""
    if node._requires_all_predecessors and node.input_schema and isinstance(node_input, dict):
        # a join validates each predecessor's output (2.13's JoinNode._validate_input_data)
        node_input = {k: validate_node_data(node.input_schema, v) for k, v in node_input.items()}
    else:
        node_input = validate_node_data(node.input_schema, node_input)
    if isinstance(node, FunctionNode):
        source: AsyncGenerator[Any, None] = run_function(node, ctx, node_input)
    else:
        source = node._run_impl(ctx=ctx, node_input=node_input)
    async for item in source:
        if item is None:
            continue
        if isinstance(item, Event):
            if item.output is not None:
                item.output = validate_node_data(node.output_schema, item.output)
            yield item
        elif isinstance(item, RequestInput):
            raise _Unsupported(
                not_implemented(
                    f"RequestInput from node {node.name!r}", "human input in workflow graphs yet"
                )
            )
        else:
            yield Event(output=validate_node_data(node.output_schema, item))


class _Unsupported(Exception):
    """What the engine does not run yet, told apart from the node's own exceptions."""

    def __init__(self, error: NotImplementedError) -> None:
        super().__init__(str(error))
        self.error = error


# ── NodeRunner: one run, its events enriched ─────────────────────────────────


@dataclass
class NodeRun:
    """Where the run is and what it produced."""

    author: str
    invocation_id: str
    node_path: str
    branch: str | None
    output_for_ancestors: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    output: Any = None
    has_output: bool = False
    route: Any = None
    error: BaseException | None = None

    def enrich(self, event: Event) -> Event:
        event.author = self.author
        event.invocation_id = self.invocation_id
        event.node_info.path = self.node_path
        if event.branch is None:
            event.branch = self.branch
        elif event.branch == "":
            event.branch = None
            self.branch = None
        else:
            self.branch = event.branch
        if event.output is not None:
            event.node_info.output_for = [self.node_path, *self.output_for_ancestors]
        return event


def _flush_deltas(ctx: Any, event: Event) -> None:
    delta = ctx.actions.state_delta
    if delta:
        event.actions.state_delta.update(delta)
        delta.clear()
    artifacts = ctx.actions.artifact_delta
    if artifacts:
        event.actions.artifact_delta.update(artifacts)
        artifacts.clear()


async def run_node_once(
    node: BaseNode, ctx: Any, node_input: Any, run: NodeRun, timeout: float | None = None
) -> NodeRun:
    """One attempt of `node` (the workflow retries a failed one). `ctx` is its
    NodeContext: a yielded output sets `ctx.output` (a second one raises 2.13's
    `Output already set.`); one set directly is emitted after the node returns, with the
    state written since its last event. With `timeout`, the run is 2.13's
    `asyncio.wait_for`: past it the node is cancelled and fails with NodeTimeoutError
    (the events it yielded before stay)."""

    async def attempt() -> None:
        async for event in normalized(node, ctx, node_input):
            if event.output is not None:
                ctx.output = event.output
            native = not event.author or event.author == node.name
            if native and event.actions.route is not None:
                ctx.route = event.actions.route
                ctx._route_emitted = True
            run.author = ctx.event_author or node.name
            run.enrich(event)
            if not event.partial:
                _flush_deltas(ctx, event)
            run.events.append(event)
            if event.output is not None:
                ctx._output_emitted = True

    try:
        if timeout is None:
            await attempt()
        else:
            try:
                await asyncio.wait_for(attempt(), timeout=timeout)
            except TimeoutError as expired:
                raise NodeTimeoutError(node_name=node.name, timeout=timeout) from expired
    except _Unsupported as gap:
        raise gap.error from None
    except Exception as error:
        logger.exception("Node execution failed with exception")
        status = getattr(error, "status", None)
        failed = Event(
            error_code=status if isinstance(status, str) else type(error).__name__,
            error_message=str(error),
        )
        run.enrich(failed)
        _flush_deltas(ctx, failed)
        run.events.append(failed)
        run.error = error
        return run
    deferred = ctx.output is not None and not ctx._output_emitted
    route = ctx.route is not None and not ctx._route_emitted
    if deferred or route or ctx.actions.state_delta or ctx.actions.artifact_delta:
        final = run.enrich(
            Event(output=ctx.output if deferred else None, route=ctx.route if route else None)
        )
        _flush_deltas(ctx, final)
        run.events.append(final)
    if ctx.output is not None:
        run.output, run.has_output = ctx.output, True
    run.route = ctx.route
    return run


__all__ = ["NodeRun", "run_node_once", "validate_node_data"]
