"""Loads apps in ADK's folder convention: `<app>/agent.py` exposing `root_agent`
(or `app`), else `<app>/root_agent.yaml` (Agent Config YAML).

Runs on: process side (worker start, Runner).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from adk.agents.base_agent import BaseAgent
from adk.apps.app import App, plugin_manager_of, refuse_graph_root
from adk.workflow._base_node import BaseNode

from ._validate import validate_tree


class AppLoadError(Exception):
    """An app could not be loaded: the message says what to fix."""


def load_app(target: str) -> App:
    """An app from a folder (`path/to/weather`) or a module (`examples.weather`)."""
    path = Path(target)
    if path.is_dir() and _is_yaml_app(path):
        app = _app_from_yaml(path)
    else:
        if path.is_dir():
            module, name = _import_folder(path)
        elif path.suffix == ".py" or "/" in target:
            raise AppLoadError(
                f"{target}: not an app folder (expected a folder containing agent.py"
                " or root_agent.yaml)."
            )
        else:
            module, name = _import_module(target)
        app = _app_from_module(module, name, target)
    refuse_graph_root(app.root_agent, app)
    if not isinstance(app.root_agent, BaseAgent):  # a Workflow: its construction validated it
        return app
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
            f"{path} has no agent.py: an app folder needs agent.py defining `root_agent`,"
            " or root_agent.yaml."
        )
    _importable_beside(path)
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
    if isinstance(root_agent, BaseNode) and not isinstance(root_agent, BaseAgent):
        refuse_graph_root(root_agent)  # a Workflow runs what is implemented, else raises
    elif not isinstance(root_agent, BaseAgent):
        raise AppLoadError(
            f"{shown}: `root_agent` is a {type(root_agent).__name__}, not an agent (BaseAgent)."
        )
    try:
        return App(name=name, root_agent=root_agent)
    except ValueError as error:
        raise AppLoadError(f"{shown}: {error}") from error


def _importable_beside(path: Path) -> None:
    """The folder's parent on sys.path: the app imports as a package named after it."""
    parent = str(path.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)


def _is_yaml_app(path: Path) -> bool:
    """ADK's order: agent.py first, else root_agent.yaml."""
    return not (path / "agent.py").is_file() and (path / "root_agent.yaml").is_file()


def _app_from_yaml(path: Path) -> App:
    from adk.agents.config_agent_utils import from_config

    path = path.resolve()
    _importable_beside(path)  # `code:` references name modules of the app's package
    config = path / "root_agent.yaml"
    try:
        root_agent = from_config(str(config))
    except Exception as error:
        raise AppLoadError(config_error_line(error, str(config))) from error
    try:
        return App(name=path.name, root_agent=root_agent)
    except ValueError as error:
        raise AppLoadError(f"{_shown(str(config))}: {_one_line(str(error))}") from error


def config_error_line(error: BaseException, root_config: str) -> str:
    """One line: the YAML file, the key and the reason (the error google-adk 2.13 raises)."""
    from pydantic import ValidationError

    from adk.agents.config_agent_utils import config_error_location

    file, key = config_error_location(error) or (root_config, None)
    where = f"{_shown(file)}: " + (f"{key}: " if key else "")
    if isinstance(error, ValidationError):
        problems = [
            f"{'.'.join(str(part) for part in problem['loc']) or '(file)'}: {problem['msg']}"
            for problem in error.errors()
        ]
        reason = f"{'; '.join(problems)} ({error.title})"
    else:
        reason = f"{type(error).__name__}: {error}"
        cause = error.__cause__
        if cause is not None and str(cause) not in str(error):
            reason += f" ({type(cause).__name__}: {cause})"
    return f"bad agent config {where}{_one_line(reason)}"


def _shown(file: str) -> str:
    """A path relative to the working directory when it is under it."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return file


def _one_line(text: str) -> str:
    return " ".join(text.split())
