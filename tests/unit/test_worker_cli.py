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
        ("DURABLE_ADK_INLINE_WORKFLOW_AGENTS", "sometimes", "must be 1 or 0"),
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


def test_the_artifact_folder_defaults_to_the_data_dir(monkeypatch, tmp_path):
    from adk.artifacts import FileArtifactService
    from worker.__main__ import artifact_service

    monkeypatch.delenv("DURABLE_ADK_ARTIFACTS_DIR", raising=False)
    monkeypatch.setenv("DURABLE_ADK_DATA_DIR", str(tmp_path / "data"))
    default = artifact_service(None)
    assert isinstance(default, FileArtifactService)
    assert default.root_dir == (tmp_path / "data" / "artifacts").resolve()
    monkeypatch.setenv("DURABLE_ADK_ARTIFACTS_DIR", str(tmp_path / "env"))
    assert artifact_service(None).root_dir == (tmp_path / "env").resolve()
    assert artifact_service(str(tmp_path / "flag")).root_dir == (tmp_path / "flag").resolve()
    assert artifact_service("none") is None


async def test_a_bad_artifact_location_is_reported_before_connecting(tmp_path, capsys):
    (tmp_path / "a-file").write_text("not a folder")
    for where, message in (
        ("s3://bucket", "give a folder, gs://BUCKET or none"),
        ("gs://bucket/a/path", "no path"),
        (str(tmp_path / "a-file"), "a-file"),
    ):
        args = parse_args(
            [ROOT_APP, "--address", "127.0.0.1:9", "--db", str(tmp_path / "s.db"),
             "--artifacts", where, "--log-format", "json"]
        )  # fmt: skip
        from worker._logging import configure_logging

        configure_logging("json", "INFO")
        assert await serve(args) == 2
        out = capsys.readouterr()
        text = out.out + out.err
        assert "bad configuration" in text and message in text
        assert "cannot connect" not in text


def test_a_gcs_bucket_is_a_gcs_artifact_service(monkeypatch):
    from adk.artifacts import GcsArtifactService
    from tests.unit import fake_gcs
    from worker.__main__ import artifact_service

    fake_gcs.install(monkeypatch)
    service = artifact_service("gs://team-artifacts/")
    assert isinstance(service, GcsArtifactService) and service.bucket_name == "team-artifacts"


def test_the_memory_a_worker_uses(monkeypatch, tmp_path):
    from worker.__main__ import memory_service

    monkeypatch.setenv("DURABLE_ADK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("DURABLE_ADK_MEMORY_DB", raising=False)
    assert memory_service(None).db_path == str(tmp_path / "data" / "memory.db")
    assert memory_service(str(tmp_path / "m.db")).db_path == str(tmp_path / "m.db")
    assert memory_service("none") is None
    monkeypatch.setenv("DURABLE_ADK_MEMORY_DB", "none")
    assert memory_service(None) is None
    with pytest.raises(ValueError, match="is a directory"):
        memory_service(str(tmp_path))
