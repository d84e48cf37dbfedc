"""Plugins: mirrors `google.adk.plugins`.

Runs on: process side (the hooks run in the worker, in activities). Plugins given to
`App(plugins=[...])` or `Runner(plugins=[...])` run as in google-adk 2.13; a built-in
plugin not ported yet raises NotImplementedError at construction.
"""

from typing import Any

from .._unported import unported_attribute
from .base_plugin import BasePlugin
from .logging_plugin import LoggingPlugin
from .plugin_manager import PluginManager
from .reflect_retry_tool_plugin import ReflectAndRetryToolPlugin

__all__ = ["BasePlugin", "LoggingPlugin", "PluginManager", "ReflectAndRetryToolPlugin"]


def __getattr__(name: str) -> Any:
    """google.adk names not ported yet raise NotImplementedError naming them."""
    raise unported_attribute(__name__, name)
