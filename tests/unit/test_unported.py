"""google.adk surface not ported yet raises NotImplementedError naming it (adk/_unported.py).

Runs on: process side (pure: imports only).
"""

from __future__ import annotations

import importlib

import pytest

from adk._reference_surface import EXPORTS, MODULES, VERSION
from scripts.reference_surface import TARGET, reference_surface, render


def test_the_surface_data_is_google_adks() -> None:
    """adk/_reference_surface.py is what the script generates from the installed google-adk."""
    assert VERSION == "2.13.0"
    assert TARGET.read_text() == render(*reference_surface())


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_google_adk_module_path_imports_or_names_itself(module: str) -> None:
    try:
        importlib.import_module(f"adk.{module}")
    except NotImplementedError as error:
        assert "is not implemented by durable-adk yet" in str(error)
        assert f"google.adk.{module.split('.')[0]}" in str(error)


@pytest.mark.parametrize(
    ("package", "name"),
    sorted((package, name) for package, names in EXPORTS.items() for name in names),
)
def test_every_google_adk_export_is_there_or_names_itself(package: str, name: str) -> None:
    try:
        module = importlib.import_module(f"adk.{package}" if package else "adk")
    except NotImplementedError:
        return  # the package itself is not ported: the test above names it
    try:
        if f"{package}.{name}".lstrip(".") in MODULES:  # a submodule: imported, not an attribute
            importlib.import_module(f"{module.__name__}.{name}")
        else:
            getattr(module, name)
    except NotImplementedError as error:
        assert f"{name} (google.adk" in str(error)


def test_names_google_adk_never_had_fail_as_usual() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("adk.tools.no_such_tool")
    with pytest.raises(ImportError, match="cannot import name 'NoSuchAgent'"):
        exec("from adk.agents import NoSuchAgent")


def test_an_unported_module_and_name_raise_naming_themselves() -> None:
    with pytest.raises(NotImplementedError, match=r"adk\.tools\.apihub_tool \(google\.adk\.tools"):
        importlib.import_module("adk.tools.apihub_tool.apihub_toolset")
    with pytest.raises(NotImplementedError, match=r"adk\.agents\.LiveRequestQueue"):
        exec("from adk.agents import LiveRequestQueue")


def test_an_unported_module_is_also_an_import_error_for_optional_import_probes() -> None:
    try:
        importlib.import_module("adk.tools.apihub_tool")
    except ImportError as error:  # what `try: import x / except ImportError` expects
        assert isinstance(error, NotImplementedError)
        assert error.name == "adk.tools.apihub_tool"
    else:
        raise AssertionError("expected the import to fail")


def test_the_version_is_google_adks_that_the_api_follows() -> None:
    """`google.adk.__version__` checks in user code see the API version implemented."""
    version = importlib.import_module("adk.version")
    adk = importlib.import_module("adk")
    assert adk.__version__ == version.__version__ == VERSION
