"""The API's connection to Temporal: made at the first request that needs it, and
kept; while Temporal cannot be reached such a request answers 503.

Runs on: process side.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from temporalio.client import Client


class TemporalUnavailable(Exception):
    """Temporal cannot be reached now (503)."""


class TemporalConnection:
    """A Temporal client, connected on first use by `connect` (worker.connect by default)."""

    def __init__(
        self,
        connect: Callable[[], Awaitable[Client]] | None = None,
        *,
        address: str | None = None,
        namespace: str | None = None,
        client: Client | None = None,
    ) -> None:
        self._connect = connect
        self.address = address
        self.namespace = namespace
        self._client = client
        self._lock = asyncio.Lock()

    async def get(self) -> Client:
        if self._client is not None:
            return self._client
        async with self._lock:
            if self._client is None:
                try:
                    self._client = await self._make()
                except RuntimeError as error:  # temporalio's "Failed client connect: ..."
                    where = f" at {self.address}" if self.address else ""
                    raise TemporalUnavailable(
                        f"Temporal is unreachable{where}: {_one_line(error)}"
                    ) from error
            return self._client

    def settings(self) -> tuple[str, str]:
        """(address, namespace) of the server: the connected client's, else what a
        connection would use (flags, TEMPORAL_* and the profile, as the CLI)."""
        if self._client is not None:
            return self._client.service_client.config.target_host, self._client.namespace
        from worker import connect_config

        try:
            config = connect_config(self.address, self.namespace)
        except ValueError:  # an unreadable profile: the connection will say so
            return self.address or "localhost:7233", self.namespace or "default"
        return str(config["target_host"]), str(config["namespace"])

    async def _make(self) -> Client:
        if self._connect is not None:
            return await self._connect()
        from worker import connect  # our data converter (temp: state sealed), as the CLI

        return await connect(self.address, self.namespace)


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
