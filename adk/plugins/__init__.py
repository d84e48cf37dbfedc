"""Plugins: mirrors `google.adk.plugins`.

Runs on: process side (the hooks run in the worker, in activities). Plugins given to
`App(plugins=[...])` or `Runner(plugins=[...])` run as in google-adk 2.13; a built-in
plugin not ported yet raises NotImplementedError at construction.
DebugLoggingPlugin is loaded on first use (as 2.13 loads it): it writes files, and
this package is imported by the workflow side too.
"""

import importlib
from typing import TYPE_CHECKING, Any

from .._unported import unported_attribute
from ._callback_helpers import ToolResultClassification, ToolResultClassifier
from .base_plugin import BasePlugin
from .logging_plugin import LoggingPlugin
from .plugin_manager import PluginManager
from .reflect_retry_tool_plugin import ReflectAndRetryToolPlugin

if TYPE_CHECKING:
    from ._reflect_retry_model_plugin import ReflectAndRetryModelPlugin
    from .debug_logging_plugin import DebugLoggingPlugin

__all__ = [
    "BasePlugin",
    "DebugLoggingPlugin",
    "LoggingPlugin",
    "PluginManager",
    "ReflectAndRetryModelPlugin",
    "ReflectAndRetryToolPlugin",
    "ToolResultClassification",
    "ToolResultClassifier",
]

_LAZY = {
    "DebugLoggingPlugin": ".debug_logging_plugin",
    "ReflectAndRetryModelPlugin": "._reflect_retry_model_plugin",
}


def __getattr__(name: str) -> Any:
    """DebugLoggingPlugin and ReflectAndRetryModelPlugin on first use (as 2.13);
    google.adk names not ported yet raise NotImplementedError naming them."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise unported_attribute(__name__, name)
