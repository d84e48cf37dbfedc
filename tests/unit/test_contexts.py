"""The contexts' attributes, against google-adk 2.13's: each public name of 2.13's
ReadonlyContext, CallbackContext and ToolContext is ours too, or raises
NotImplementedError naming it (never a bare AttributeError that reads like a typo).

Runs on: test process only.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent as RefAgent  # noqa: E402
from google.adk.agents.callback_context import CallbackContext as RefCallback  # noqa: E402
from google.adk.agents.invocation_context import InvocationContext as RefInvocation  # noqa: E402
from google.adk.agents.readonly_context import ReadonlyContext as RefReadonly  # noqa: E402
from google.adk.sessions import InMemorySessionService as RefSessions  # noqa: E402
from google.adk.sessions import Session as RefSession  # noqa: E402
from google.adk.tools.tool_context import ToolContext as RefTool  # noqa: E402

from adk.agents import LlmAgent  # noqa: E402
from adk.agents.callback_context import CallbackContext  # noqa: E402
from adk.agents.invocation_context import InvocationContext  # noqa: E402
from adk.agents.readonly_context import UNPORTED_CONTEXT_NAMES, ReadonlyContext  # noqa: E402
from adk.sessions import Session  # noqa: E402
from adk.tools.tool_context import ToolContext  # noqa: E402


def _public(obj: Any) -> set[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {n for n in dir(obj) if not n.startswith("_")}


def _pairs() -> list[tuple[str, Any, Any]]:
    reference = RefInvocation(
        invocation_id="i",
        agent=RefAgent(name="a"),
        session=RefSession(id="s", app_name="x", user_id="u"),
        session_service=RefSessions(),
    )
    ours = InvocationContext(
        invocation_id="i",
        agent=LlmAgent(name="a"),
        session=Session(id="s", app_name="x", user_id="u"),
    )
    return [
        ("ReadonlyContext", RefReadonly(reference), ReadonlyContext(ours)),
        ("CallbackContext", RefCallback(reference), CallbackContext(ours)),
        ("ToolContext", RefTool(reference), ToolContext(ours)),
    ]


@pytest.mark.parametrize("name", ["ReadonlyContext", "CallbackContext", "ToolContext"])
def test_every_name_of_2_13_is_ours_or_raises_naming_it(name: str) -> None:
    _, reference, ours = next(p for p in _pairs() if p[0] == name)
    missing = sorted(_public(reference) - _public(ours))
    for attribute in missing:
        with pytest.raises(NotImplementedError, match=rf"\.{attribute} \(google\.adk"):
            getattr(ours, attribute)
    assert set(missing) <= UNPORTED_CONTEXT_NAMES


def test_the_list_names_only_what_2_13_has_and_ours_lacks() -> None:
    pairs = _pairs()
    anywhere = set().union(*(_public(reference) for _, reference, _ in pairs))
    ours = set().union(*(_public(o) for _, _, o in pairs))
    assert UNPORTED_CONTEXT_NAMES <= anywhere
    assert not UNPORTED_CONTEXT_NAMES & ours


def test_a_name_2_13_never_had_is_a_plain_attribute_error() -> None:
    _, _, ours = _pairs()[2]
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        ours.nonsense  # noqa: B018
    assert ours.is_aborted is False


def test_every_name_of_2_13s_invocation_context_is_ours_or_raises_naming_it() -> None:
    from adk.agents.invocation_context import UNPORTED_INVOCATION_NAMES

    reference = RefInvocation(
        invocation_id="i",
        agent=RefAgent(name="a"),
        session=RefSession(id="s", app_name="x", user_id="u"),
        session_service=RefSessions(),
    )
    ours = InvocationContext(
        invocation_id="i",
        agent=LlmAgent(name="a"),
        session=Session(id="s", app_name="x", user_id="u"),
    )
    missing = sorted(_public(reference) - _public(ours))
    for attribute in missing:
        with pytest.raises(NotImplementedError, match=rf"InvocationContext\.{attribute} \("):
            getattr(ours, attribute)
    assert set(missing) == set(UNPORTED_INVOCATION_NAMES)
    assert ours.is_aborted is False
    with pytest.raises(AttributeError):
        ours.nonsense  # noqa: B018


def _contexts_with(metadata: dict[str, Any] | None) -> list[tuple[str, Any, Any]]:
    from google.adk.agents.run_config import RunConfig as RefRunConfig

    from adk.agents.run_config import RunConfig

    reference = RefInvocation(
        invocation_id="i",
        agent=RefAgent(name="a"),
        session=RefSession(id="s", app_name="x", user_id="u"),
        session_service=RefSessions(),
        run_config=RefRunConfig(custom_metadata=metadata),
    )
    ours = InvocationContext(
        invocation_id="i",
        agent=LlmAgent(name="a"),
        session=Session(id="s", app_name="x", user_id="u"),
        run_config=RunConfig(custom_metadata=metadata),
    )
    return [
        ("ReadonlyContext", RefReadonly(reference), ReadonlyContext(ours)),
        ("CallbackContext", RefCallback(reference), CallbackContext(ours)),
        ("ToolContext", RefTool(reference), ToolContext(ours)),
    ]


@pytest.mark.parametrize("metadata", [None, {}, {"tenant": "acme", "__adk_internal_x": 1}])
def test_custom_metadata_is_the_run_configs_without_internal_keys(metadata: Any) -> None:
    for name, reference, ours in _contexts_with(metadata):
        assert dict(ours.custom_metadata) == dict(reference.custom_metadata), name
        assert type(ours.custom_metadata) is type(reference.custom_metadata), name


def test_custom_metadata_is_read_only_in_a_readonly_context_only() -> None:
    for name, reference, ours in _contexts_with({"tenant": "acme"}):
        for context in (reference, ours):
            if name == "ReadonlyContext":
                with pytest.raises(TypeError):
                    context.custom_metadata["tenant"] = "other"
            else:  # the invocation's dict itself
                context.custom_metadata["seen"] = True
        assert dict(ours.custom_metadata) == dict(reference.custom_metadata), name
    # the RunConfig itself is not changed
    assert _contexts_with({"tenant": "acme"})[0][2].run_config.custom_metadata == {"tenant": "acme"}
