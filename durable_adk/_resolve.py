"""What a Runner is built from: google.adk 2.13's rules for app/agent/node and
its services, and the NotImplementedError for what is not implemented here yet.

Runs on: process side.
"""

from __future__ import annotations

import warnings
from typing import Any

from adk._unimplemented import not_implemented
from adk.agents.base_agent import BaseAgent
from adk.apps.app import App


def resolve_app(
    app: App | None, app_name: str | None, agent: BaseAgent | None, node: Any, plugins: Any
) -> App:
    """The App to run: exactly one of app, agent or node (google.adk's messages)."""
    given = {"app": app, "agent": agent, "node": node}
    provided = [f"{key}={type(value).__name__}" for key, value in given.items() if value]
    if len(provided) > 1:
        raise ValueError(
            f"Only one of app, agent, or node may be provided, but got: {', '.join(provided)}."
            " Pass exactly one to Runner()."
        )
    if not provided:
        raise ValueError(
            "One of app, agent, or node must be provided. Got none. Pass exactly one to Runner()."
        )
    if plugins is not None:
        if app is not None:
            raise ValueError(
                "When app is provided, plugins should not be provided and should be provided"
                " in the app instead."
            )
        warnings.warn(
            "The `plugins` argument is deprecated. Please use the `app` argument to provide"
            " plugins instead.",
            DeprecationWarning,
            stacklevel=3,
        )
    if node is not None:  # running a node that is not an agent raises (refuse_graph_root)
        return App.model_construct(
            name=app_name or str(getattr(node, "name", "default")),
            root_agent=node,
            plugins=plugins or [],
        )
    if agent is not None:
        if not app_name:
            raise ValueError("app_name is required when agent is provided without app.")
        # as google.adk: the legacy (app_name, agent) form skips App's name checks
        return App.model_construct(name=app_name, root_agent=agent, plugins=plugins or [])
    assert app is not None
    return app


def reject_unimplemented_services(**services: Any) -> None:
    """Raise for a service given that nothing here would use."""
    features = {
        "credential_service": "credential services (tool authentication)",
    }
    for name, service in services.items():
        if service is not None:
            raise not_implemented(f"Runner({name}=...)", features[name])
