"""google.adk surface not ported yet raises NotImplementedError naming it.

Runs on: process side (import machinery). A module path or package name that
google-adk 2.13 has (adk/_reference_surface.py) and durable-adk does not
implement yet would otherwise fail with ModuleNotFoundError or ImportError, which
reads like a typo; here `import adk.tools.mcp_tool` and
`from adk.agents import RemoteA2aAgent` raise NotImplementedError naming what is
missing. Names google-adk never had still raise the usual errors.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

from ._reference_surface import EXPORTS, MODULES, VERSION

_ROOT = "adk"
_SEE = "see the README's porting section for what durable-adk implements"


def _relative(fullname: str) -> str | None:
    if fullname == _ROOT:
        return ""
    if fullname.startswith(_ROOT + "."):
        return fullname[len(_ROOT) + 1 :]
    return None


def unported_attribute(package: str, name: str) -> AttributeError:
    """For a package's `__getattr__`: raises NotImplementedError for a name google-adk
    exports there; returns (to be raised) the usual AttributeError otherwise."""
    relative = _relative(package)
    submodule = f"{relative}.{name}" if relative else name
    if submodule in MODULES:  # `from package import module`: the import system goes on
        return AttributeError(f"module {package!r} has no attribute {name!r}")
    if relative is not None and name in EXPORTS.get(relative, ()):
        raise NotImplementedError(
            f"{package}.{name} (google.adk{'.' + relative if relative else ''}.{name} in"
            f" google-adk {VERSION}) is not implemented by durable-adk yet; {_SEE}."
        )
    return AttributeError(f"module {package!r} has no attribute {name!r}")


class UnportedModuleError(NotImplementedError, ImportError):
    """An unported google.adk module: NotImplementedError naming it, and an
    ImportError too, so `try: import x / except ImportError` probes still work."""


class _UnportedLoader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        name = module.__name__
        error = UnportedModuleError(
            f"{name} (google.{name} in google-adk {VERSION}) is not implemented by"
            f" durable-adk yet; {_SEE}."
        )
        error.name = name
        raise error


class _UnportedFinder(importlib.abc.MetaPathFinder):
    """Last on sys.meta_path: consulted only for modules no other finder has."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        relative = _relative(fullname)
        if not relative or relative not in MODULES:
            return None
        return importlib.machinery.ModuleSpec(fullname, _UnportedLoader())


def install() -> None:
    if not any(isinstance(finder, _UnportedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_UnportedFinder())
