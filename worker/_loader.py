"""Loads apps in ADK's folder convention (`<app>/agent.py` exposing `root_agent`).

Runs on: process side (worker start, Runner).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from adk.agents.base_agent import BaseAgent
from adk.apps.app import App, plugin_manager_of

from ._validate import validate_tree


class AppLoadError(Exception):
    """An app could not be loaded: the message says what to fix."""


def load_app(target: str) -> App:
    """An app from a folder (`path/to/weather`) or a module (`examples.weather`)."""
    path = Path(target)
    if path.is_dir():
        module, name = _import_folder(path)
    elif path.suffix == ".py" or "/" in target:
        raise AppLoadError(f"{target}: not an app folder (expected a folder containing agent.py).")
    else:
        module, name = _import_module(target)
    app = _app_from_module(module, name, target)
    try:
        validate_tree(app.root_agent)
    except ValueError as error:
        raise AppLoadError(f"{target}: {error}") from error
    return app


def load_apps(targets: list[str]) -> dict[str, App]:
    apps: dict[str, App] = {}
    for target in targets:
        app = load_app(target)
        if app.name in apps:
            raise AppLoadError(f"Two apps are named {app.name!r}; app names must be unique.")
        apps[app.name] = app
    return apps


def _import_folder(path: Path) -> tuple[ModuleType, str]:
    path = path.resolve()
    if not (path / "agent.py").is_file():
        raise AppLoadError(
            f"{path} has no agent.py: an app folder needs agent.py defining `root_agent`."
        )
    parent = str(path.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    name = path.name
    if (path / "__init__.py").is_file():
        importlib.import_module(name)
    return _import(f"{name}.agent", str(path / "agent.py")), name


def _import_module(target: str) -> tuple[ModuleType, str]:
    if str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    module = _import(target, target)
    if not hasattr(module, "root_agent") and not hasattr(module, "app"):
        try:
            module = importlib.import_module(f"{target}.agent")
        except ModuleNotFoundError:
            pass
    return module, target.rsplit(".", 1)[-1]


def _import(module_name: str, shown: str) -> ModuleType:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name and module_name.startswith(error.name):
            raise AppLoadError(f"Cannot find app {shown!r} ({error}).") from error
        raise AppLoadError(f"{shown} failed to import: {error}") from error
    except Exception as error:
        raise AppLoadError(f"{shown} failed to import: {type(error).__name__}: {error}") from error


def _app_from_module(module: ModuleType, name: str, shown: str) -> App:
    app = getattr(module, "app", None)
    if isinstance(app, App):
        try:
            plugin_manager_of(app)  # two plugins of one name: said now, not at a first run
        except ValueError as error:
            raise AppLoadError(f"{shown}: {error}") from error
        return app
    root_agent = getattr(module, "root_agent", None)
    if root_agent is None:
        raise AppLoadError(f"{shown}: agent.py does not define `root_agent`.")
    if not isinstance(root_agent, BaseAgent):
        raise AppLoadError(
            f"{shown}: `root_agent` is a {type(root_agent).__name__}, not an agent (BaseAgent)."
        )
    try:
        return App(name=name, root_agent=root_agent)
    except ValueError as error:
        raise AppLoadError(f"{shown}: {error}") from error
