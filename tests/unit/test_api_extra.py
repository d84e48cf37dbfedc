"""The REST API's optional packages: without them, importing `api` says which extra to install."""

from __future__ import annotations

import importlib.util

import pytest

from api import _deps


def test_a_missing_fastapi_names_the_api_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name, *a)
    )
    with pytest.raises(ImportError) as raised:
        _deps.require_extra()
    assert str(raised.value) == (
        "The REST API needs fastapi: install durable-adk's `api` extra"
        " (pip install 'durable-adk[api]')."
    )


def test_python_m_api_refuses_a_folder_and_names_together(capsys) -> None:
    from api.__main__ import parse_args

    with pytest.raises(SystemExit):
        parse_args(["examples", "--app", "weather"])
    assert "give an apps folder or --app names, not both" in capsys.readouterr().err
