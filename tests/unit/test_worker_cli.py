"""`python -m worker`: configuration mistakes stop it at once with a clear message.

Runs on: test process only (the worker's `serve`, with no Temporal reachable).
"""

from __future__ import annotations

import pytest

from worker.__main__ import parse_args, serve

ROOT_APP = "examples/weather"


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DURABLE_ADK_WORKFLOW_SANDBOX", "maybe", "must be one of off, strict"),
        ("DURABLE_ADK_SQLITE_SYNCHRONOUS", "sometimes", "NORMAL or FULL"),
    ],
)
async def test_a_bad_setting_is_reported_before_connecting(
    monkeypatch, tmp_path, capsys, variable, value, message
):
    monkeypatch.setenv(variable, value)
    # an address nobody listens on: the check must come first, so no connect is tried
    args = parse_args(
        [
            ROOT_APP,
            "--address",
            "127.0.0.1:9",
            "--db",
            str(tmp_path / "s.db"),
            "--log-format",
            "json",
        ]
    )
    from worker._logging import configure_logging

    configure_logging("json", "INFO")
    assert await serve(args) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "bad configuration" in text and message in text
    assert "cannot connect" not in text


@pytest.mark.parametrize(
    ("db", "says", "message"),
    [
        ("sqlite:///x.db", "bad configuration", "'sqlite+aiosqlite://' URL instead"),
        ("postgresql+asyncpg://u:secret@127.0.0.1:1/db", "cannot use the session store", "u:***@"),
    ],
)
async def test_a_session_store_url_it_cannot_use_stops_it_before_connecting(
    monkeypatch, capsys, db, says, message
):
    args = parse_args([ROOT_APP, "--address", "127.0.0.1:9", "--db", db, "--log-format", "json"])
    from worker._logging import configure_logging

    configure_logging("json", "INFO")
    assert await serve(args) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert says in text and message in text
    assert "secret" not in text and "cannot connect" not in text


def test_one_setting_names_the_store_a_file_or_a_url(monkeypatch, tmp_path):
    from adk.sessions import DatabaseSessionService, SqliteSessionService
    from adk.sessions._open import open_session_service

    monkeypatch.setenv("DURABLE_ADK_SESSION_DB", f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    assert isinstance(open_session_service(), DatabaseSessionService)
    with pytest.raises(ValueError, match="holds a database URL"):
        SqliteSessionService()
    file_store = open_session_service(str(tmp_path / "b.db"))  # --db wins over the variable
    assert isinstance(file_store, SqliteSessionService)
    file_store.close()
    monkeypatch.setenv("DURABLE_ADK_SESSION_DB", str(tmp_path / "c.db"))
    env_store = open_session_service()
    assert isinstance(env_store, SqliteSessionService) and env_store.db_path.endswith("c.db")
    env_store.close()
