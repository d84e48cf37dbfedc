"""A throwaway PostgreSQL server for tests: Debian's package, in a temp dir, on loopback.

Runs on: test process only.

`initdb` and `pg_ctl` from /usr/lib/postgresql/*/bin (or PATH); as root they run as
the `postgres` user (PostgreSQL refuses root). Outside CI, no binaries means the
Postgres tests skip with that reason; in CI (`CI` set) they fail instead.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

INSTALL_HINT = "apt-get install -y postgresql"


def _binary(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def postgres_server(*, durable: bool = False) -> Iterator[str]:
    """Start a server; yields its asyncpg URL (database `durable`, trust auth).

    Tests run it with fsync off (nothing to keep across a crash); `durable` keeps
    PostgreSQL's defaults (fsync, synchronous_commit), for benchmarks."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        reason = f"PostgreSQL binaries (initdb, pg_ctl) not found: {INSTALL_HINT}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    as_user: list[str] = []
    owner: pwd.struct_passwd | None = None
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        owner = pwd.getpwnam("postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    tmp = Path(tempfile.mkdtemp(prefix="durable-adk-pg-"))
    data = tmp / "data"
    if owner is not None:
        os.chown(tmp, owner.pw_uid, owner.pw_gid)
    port = _free_port()

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)

    try:
        run(initdb, "-D", str(data), "-U", "durable", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-h 127.0.0.1 -p {port} -k {tmp} -c max_connections=200"
        if not durable:
            options += " -c fsync=off"
        run(pg_ctl, "-D", str(data), "-o", options, "-l", str(tmp / "log"), "-w", "start")
        try:
            run(
                _binary("createdb") or "createdb",
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "durable",
                "durable",
            )
            yield f"postgresql+asyncpg://durable@127.0.0.1:{port}/durable"
        finally:
            run(pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


_DATABASES = itertools.count()


async def fresh_postgres_database(server_url: str) -> str:
    """A new, empty database on the test server; its URL."""
    import asyncpg

    name = f"t{os.getpid()}_{next(_DATABASES)}"
    admin = await asyncpg.connect(server_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server_url.rsplit("/", 1)[0] + "/" + name
