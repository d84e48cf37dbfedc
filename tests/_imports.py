"""The import graph of our own packages, read from the source (never by importing it).

Only imports that run when a module is imported count: module level, class
bodies and module-level `if`/`try` blocks, but not `if TYPE_CHECKING:` blocks
and not function bodies (a function-local import runs when the function does).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = ["adk", "workflows", "activities", "worker", "client", "durable_adk", "api"]


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    ours: set[str] = field(default_factory=set)
    """Our modules it imports: those it names, and their packages (whose `__init__`
    runs first) unless the package is its own or an ancestor of it (already importing)."""
    external: dict[str, int] = field(default_factory=dict)
    """Other modules it imports -> the line of the first such import."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    """The absolute module name of `from <level dots><module> import ...` inside `importer`."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_time_nodes(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run when a module with this body is imported."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _import_time_nodes(node.body)
            found += _import_time_nodes(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                found += _import_time_nodes(block)
            for handler in node.handlers:
                found += _import_time_nodes(handler.body)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            found += _import_time_nodes(node.body)
    return found


def _is_ours(name: str) -> bool:
    return name.split(".", 1)[0] in OURS


def graph() -> dict[str, Module]:
    """Every module of our packages, with what it imports at import time."""
    modules: dict[str, Module] = {}
    for package in OURS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                name = module_name(path)
                modules[name] = Module(name, path, path.name == "__init__.py")
    for module in modules.values():
        tree = ast.parse(module.path.read_text(encoding="utf-8"), filename=str(module.path))
        for node in _import_time_nodes(tree.body):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                source = absolute(node.module, node.level, module.name, module.is_package)
                # `from pkg import submodule` names the submodule (pkg is its parent)
                subs = [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [source, *subs]
            for target in targets:
                if _is_ours(target):
                    module.ours.update(
                        name
                        for name in _with_parents(target, modules)
                        if not (module.name + ".").startswith(name + ".")
                    )
                else:
                    module.external.setdefault(target, node.lineno)
    return modules


def _with_parents(name: str, modules: dict[str, Module]) -> list[str]:
    """The module and the packages Python imports before it (their __init__ runs)."""
    parts = name.split(".")
    return [p for i in range(1, len(parts) + 1) if (p := ".".join(parts[:i])) in modules]


def closure(roots: list[str], modules: dict[str, Module]) -> dict[str, list[str]]:
    """Every module of ours that importing `roots` runs -> one chain of imports to it."""
    chains: dict[str, list[str]] = {}
    todo: list[tuple[str, list[str]]] = []
    for root in roots:
        todo += [(name, [name]) for name in _with_parents(root, modules)]
    while todo:
        name, chain = todo.pop()
        if name in chains:
            continue
        chains[name] = chain
        for target in sorted(modules[name].ours):
            todo += [(dep, [*chain, dep]) for dep in _with_parents(target, modules)]
    return chains


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """Import cycles among our modules (edges: `Module.ours`)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        path.append(name)
        for target in sorted(modules[name].ours):
            if state.get(target) == 1:
                found.append(path[path.index(target) :] + [target])
            elif target not in state:
                visit(target)
        path.pop()
        state[name] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name)
    return found
