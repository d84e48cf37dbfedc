"""adk.utils.feature_decorator (`experimental`, `working_in_progress`) behaves as
google-adk 2.13's: the same warnings (text, category, once, pointing at the caller),
the same errors, the same environment switches.

Runs on: process side (pure; the reference is the test-only google-adk).
"""

from __future__ import annotations

import enum
import warnings
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

reference = pytest.importorskip("google.adk.utils.feature_decorator")

from adk.utils import feature_decorator as ours  # noqa: E402

SIDES = [pytest.param(reference, id="google.adk"), pytest.param(ours, id="adk")]
_SWITCHES = ("ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS", "ADK_ALLOW_WIP_FEATURES")


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in _SWITCHES:
        monkeypatch.delenv(name, raising=False)
    reference._WARNED_MESSAGES.clear()
    ours._WARNED_MESSAGES.clear()
    yield
    reference._WARNED_MESSAGES.clear()
    ours._WARNED_MESSAGES.clear()


def _using(action: Callable[[], Any]) -> list[tuple[str, str, str]]:
    """(category, message, file) of each warning that using the unit gives."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        action()
    return [(w.category.__name__, str(w.message), w.filename) for w in caught]


def _scenario(module: ModuleType) -> list[Any]:
    """The same uses on one side: what each gives (warnings, results, errors)."""
    out: list[Any] = []

    @module.experimental
    class Bare:
        def __init__(self, x: int = 1) -> None:
            self.x = x

    @module.experimental("Mind the gap.")
    def custom(a: int, *, b: int = 2) -> int:
        """Adds."""
        return a + b

    @module.experimental()
    def empty_parens() -> str:
        return "ok"

    @module.working_in_progress("Not yet.")
    def wip() -> str:
        return "wip ran"

    @module.working_in_progress
    class WipClass:
        pass

    out.append(_using(lambda: out.append(Bare(x=5).x)))
    out.append(_using(lambda: Bare()))  # the same message again: once only
    out.append(_using(lambda: out.append(custom(1, b=3))))
    out.append((custom.__name__, custom.__doc__, Bare.__name__, isinstance(Bare(), Bare)))
    out.append(_using(lambda: out.append(empty_parens())))
    for blocked in (wip, WipClass):
        try:
            blocked()
        except RuntimeError as error:
            out.append(("RuntimeError", str(error)))
    return out


def test_warnings_results_and_errors_are_2_13s() -> None:
    assert _scenario(ours) == _scenario(reference)
    first = _scenario_fresh(ours)[1]  # [0] is what Bare(x=5) gave
    assert first == [
        (
            "UserWarning",
            "[EXPERIMENTAL] Bare: This feature is experimental and may change or be"
            " removed in future versions without notice. It may introduce breaking"
            " changes at any time.",
            __file__,  # the warning points at the line that used the unit
        )
    ]


def _scenario_fresh(module: ModuleType) -> list[Any]:
    module._WARNED_MESSAGES.clear()
    return _scenario(module)


@pytest.mark.parametrize("value", ["true", "1", " YES ", "on"])
def test_the_switches_are_read_at_each_use(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    results = []
    for module in (reference, ours):

        @module.experimental
        def quiet() -> int:
            return 1

        @module.working_in_progress
        def allowed() -> int:
            return 2

        monkeypatch.setenv("ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS", value)
        monkeypatch.setenv("ADK_ALLOW_WIP_FEATURES", value)
        results.append((_using(quiet), _using(allowed)))
        monkeypatch.setenv("ADK_SUPPRESS_EXPERIMENTAL_FEATURE_WARNINGS", "false")
        results.append([w[1] for w in _using(quiet)])
    assert results[0] == results[2] == ([], [])
    assert results[1] == results[3] and len(results[1]) == 1


@pytest.mark.parametrize("side", SIDES)
def test_a_feature_name_or_a_non_callable_is_refused(side: ModuleType) -> None:
    class FeatureName(enum.StrEnum):
        MY_FEATURE = "MY_FEATURE"

    with pytest.raises(TypeError) as by_enum:
        side.experimental(FeatureName.MY_FEATURE)
    with pytest.raises(TypeError) as by_value:
        side.working_in_progress("message")(42)
    with pytest.raises(TypeError) as reference_enum:
        reference.experimental(FeatureName.MY_FEATURE)
    assert str(by_enum.value) == str(reference_enum.value)
    assert str(by_value.value) == "@WIP can only be applied to classes or callable objects"
