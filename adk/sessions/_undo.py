"""Undoing an event's state writes: what lets a retried step's record replace its first attempt's.

Runs on: activity and process side (pure functions over the SQLite store's rows).

An activity may run more than once (a worker killed after its write, before Temporal
heard of its completion). The second attempt must see the state as of its step, and
its record must replace the first attempt's in full. So each stored event keeps its
*prior*: for every key its state delta wrote, the value the key had before (`[value]`,
or `[]` when the key was absent). Undoing the event restores those values, except
where the key has changed since (another writer's value is kept, never clobbered).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from .state import State

Held = list[Any]
"""A key's value as held: `[value]`, or `[]` when the key is absent."""


def stored_delta(delta: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of a state delta that are stored (`temp:` keys never are)."""
    return {k: v for k, v in delta.items() if not k.startswith(State.TEMP_PREFIX)}


def restorations(
    delta: Mapping[str, Any], prior_json: str | None, current: Callable[[str], Held]
) -> dict[str, Held]:
    """What undoing an event sets: each key it wrote, back to its prior value, unless the
    key no longer holds what the event wrote. An event stored without a prior (before
    priors existed) undoes nothing."""
    prior: dict[str, Held] = json.loads(prior_json) if prior_json else {}
    return {
        key: prior[key]
        for key, written in stored_delta(delta).items()
        if key in prior and current(key) == [written]
    }


def undo_in(state: dict[str, Any], undone: Mapping[str, Held]) -> None:
    """Apply restorations to a merged state dict (prefixed keys)."""
    for key, held in undone.items():
        if held:
            state[key] = held[0]
        else:
            state.pop(key, None)


class Scopes:
    """The app, user and session state of one session, each loaded on first use and
    written back (once) by `flush` when it changed. Keys carry their prefixes."""

    def __init__(self, conn: sqlite3.Connection, app_name: str, user_id: str, session_id: str):
        self._conn = conn
        self._where: dict[str, tuple[str, tuple[str, ...]]] = {
            "app": ("SELECT state FROM app_states WHERE app_name = ?", (app_name,)),
            "user": (
                "SELECT state FROM user_states WHERE app_name = ? AND user_id = ?",
                (app_name, user_id),
            ),
            "session": (
                "SELECT state FROM sessions WHERE app_name = ? AND user_id = ? AND id = ?",
                (app_name, user_id, session_id),
            ),
        }
        self._loaded: dict[str, dict[str, Any]] = {}
        self._dirty: set[str] = set()

    @staticmethod
    def _split(key: str) -> tuple[str, str]:
        for scope, prefix in (("app", State.APP_PREFIX), ("user", State.USER_PREFIX)):
            if key.startswith(prefix):
                return scope, key.removeprefix(prefix)
        return "session", key

    def _state(self, scope: str) -> dict[str, Any]:
        if scope not in self._loaded:
            sql, params = self._where[scope]
            row = self._conn.execute(sql, params).fetchone()
            self._loaded[scope] = {} if row is None else json.loads(row[0])
        return self._loaded[scope]

    def get(self, key: str) -> Held:
        scope, name = self._split(key)
        state = self._state(scope)
        return [state[name]] if name in state else []

    def set(self, key: str, held: Held) -> None:
        scope, name = self._split(key)
        state = self._state(scope)
        if held:
            state[name] = held[0]
        else:
            state.pop(name, None)
        self._dirty.add(scope)

    def flush(self) -> None:
        """Write back the changed scopes. The session row must exist (the caller checks)."""
        for scope in sorted(self._dirty):
            state = json.dumps(self._loaded[scope], separators=(",", ":"))
            _, params = self._where[scope]
            if scope == "app":
                sql = "INSERT OR REPLACE INTO app_states (app_name, state) VALUES (?, ?)"
            elif scope == "user":
                sql = (
                    "INSERT OR REPLACE INTO user_states (app_name, user_id, state) VALUES (?, ?, ?)"
                )
            else:
                sql = "UPDATE sessions SET state = ? WHERE app_name = ? AND user_id = ? AND id = ?"
                self._conn.execute(sql, (state, *params))
                continue
            self._conn.execute(sql, (*params, state))
        self._dirty.clear()
