"""Which apps the API serves: the app folders of a directory (as `adk api_server
AGENTS_DIR` lists them), or the names given. It never imports an app: workers do.

Runs on: process side.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

_VALID_NAME = re.compile(r"^[a-zA-Z0-9_]+$")
"""google-adk 2.13's rule for an app (agent) name the api_server loads."""


class UnknownAppError(LookupError):
    """No app of that name: the API answers 404 with this text, as google-adk does."""


class AppCatalog:
    """The apps of a folder (`folder`), or a fixed list of names (`names`)."""

    def __init__(self, *, folder: str | os.PathLike[str] | None = None, names: Iterable[str] = ()):
        self.names = sorted(set(names))
        self.folder = None if self.names else Path(folder or ".")
        if folder is not None and self.names:
            raise ValueError("Give an apps folder or app names, not both.")

    def list(self) -> list[str]:
        """The app names, sorted (a folder: its subfolders holding an app, as google-adk)."""
        if self.folder is None:
            return list(self.names)
        return sorted(
            entry.name
            for entry in self.folder.iterdir()
            if entry.is_dir()
            and not entry.name.startswith(".")
            and entry.name != "__pycache__"
            and _looks_like_app(entry)
        )

    def check(self, app_name: str) -> None:
        """UnknownAppError (google-adk's texts for a folder) unless the app is served."""
        if self.folder is None:
            if app_name not in self.names:
                raise UnknownAppError(
                    f"Agent not found: {app_name!r}. This server serves: {', '.join(self.names)}."
                )
            return
        if not _VALID_NAME.match(app_name):
            raise UnknownAppError(
                f"Invalid agent name: {app_name!r}. Agent names must be valid"
                " Python identifiers (letters, digits, and underscores only)."
            )
        path = self.folder / app_name
        if not (path.is_dir() or (self.folder / f"{app_name}.py").is_file()):
            raise UnknownAppError(
                f"Agent not found: {app_name!r}. No matching directory or module"
                f" exists in '{os.path.join(self.folder, app_name)}'."
            )


def _looks_like_app(path: Path) -> bool:
    return any((path / name).is_file() for name in ("agent.py", "root_agent.yaml", "__init__.py"))
