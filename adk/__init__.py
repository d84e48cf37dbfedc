"""durable-adk: Google ADK's API, every invocation a durable Temporal workflow.

Import as you would `google.adk`: `from adk import Agent, Runner`,
`from adk.tools import ToolContext`, ...

Runs on: process side (the package API); its modules say where each runs.
`Runner` is imported lazily: the workflow side imports this package for the
pure ADK rules and must not pull in the engine the Runner wires together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._unported import install as _install_unported
from ._unported import unported_attribute
from .activity_options import ActivityOptions
from .agents import Agent, Context, LlmAgent, LoopAgent, ParallelAgent, SequentialAgent
from .events import Event
from .version import __version__ as __version__

if TYPE_CHECKING:
    from .runners import Runner

__all__ = [
    "ActivityOptions",
    "Agent",
    "Context",
    "Event",
    "LlmAgent",
    "LoopAgent",
    "ParallelAgent",
    "Runner",
    "SequentialAgent",
]


_install_unported()  # `import adk.<a google.adk module not ported yet>` names it


def __getattr__(name: str) -> Any:
    if name != "Runner":
        raise unported_attribute(__name__, name)
    from .runners import Runner

    globals()["Runner"] = Runner
    return Runner
