"""The random number generator, behind a provider (google-adk 2.13's platform._random).

Runs on: process and activity side. `random` is imported on first use, not with the
package: adk.platform is in the workflow side's import closure (Event takes its id
and time defaults from here), which imports no randomness.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random


@functools.cache
def _default_random_provider() -> random.Random:
    """One process-wide generator, as google-adk's default."""
    import random

    return random.Random()


_provider: ContextVar[Callable[[], random.Random]] = ContextVar(
    "random_provider", default=_default_random_provider
)


def set_random_provider(provider: Callable[[], random.Random]) -> None:
    """Sets the provider of the generator for the current context. It is called on
    every `get_random()`: return one kept instance (`rng = random.Random(42);
    set_random_provider(lambda: rng)`) for a sequence that goes on across calls."""
    _provider.set(provider)


def reset_random_provider() -> None:
    """Back to the default generator (one process-wide `random.Random()`)."""
    _provider.set(_default_random_provider)


def get_random() -> random.Random:
    """The random number generator."""
    return _provider.get()()
