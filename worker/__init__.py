"""The worker process: loads apps, connects to Temporal, serves workflows and activities.

Runs on: process side.
"""

from adk.agents._orchestrating import publish_apps

from ._build import build_worker, connect, connect_config, ensure_search_attributes, shut_down
from ._loader import AppLoadError, load_app, load_apps

__all__ = [
    "AppLoadError",
    "build_worker",
    "connect",
    "connect_config",
    "ensure_search_attributes",
    "load_app",
    "load_apps",
    "publish_apps",
    "shut_down",
]
