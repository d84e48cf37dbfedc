"""Plugins: mirrors `google.adk.plugins` (names only: plugins do not run yet).

Runs on: process side. `App(plugins=[...])` and `Runner(plugins=[...])` raise
NotImplementedError naming the plugins, rather than run without them.
"""

from typing import Any

from .._unported import unported_attribute
from .base_plugin import BasePlugin
from .logging_plugin import LoggingPlugin
from .reflect_retry_tool_plugin import ReflectAndRetryToolPlugin

__all__ = ["BasePlugin", "LoggingPlugin", "ReflectAndRetryToolPlugin"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
