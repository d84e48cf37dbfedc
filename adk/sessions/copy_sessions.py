"""Copy every session of one store into a DatabaseSessionService: the way from the SQLite
store's file to a shared database (`python -m client copy-sessions SOURCE TARGET`).

Runs on: process side (run it with the workers stopped).

Each session is created in the target, its events appended in their recorded order
(so the target numbers them and keeps what each overwrote, as for its own appends),
and then its state, its app's and its user's set to exactly what the source holds
(state a session was created with is in no event). A session the target already
has is left alone and counted as skipped: a second run copies only what the first
did not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adk.errors.already_exists_error import AlreadyExistsError

from .database_session_service import DatabaseSessionService
from .sqlite_session_service import SqliteSessionService


@dataclass
class CopyReport:
    copied: list[tuple[str, str, str]] = field(default_factory=list)
    """(app, user, session) of each session copied."""
    skipped: list[tuple[str, str, str]] = field(default_factory=list)
    """Sessions the target already had."""
    events: int = 0


async def copy_sessions(
    source: SqliteSessionService | DatabaseSessionService, target: DatabaseSessionService
) -> CopyReport:
    """Copy `source`'s sessions (the SQLite store, or another DatabaseSessionService)
    into `target`."""
    report = CopyReport()
    for app_name in await source.list_app_names():
        for listed in (await source.list_sessions(app_name=app_name)).sessions:
            key = (app_name, listed.user_id, listed.id)
            session = await source.get_session(
                app_name=app_name, user_id=listed.user_id, session_id=listed.id
            )
            if session is None:  # deleted meanwhile
                continue
            try:
                copy = await target.create_session(
                    app_name=app_name, user_id=listed.user_id, session_id=listed.id
                )
            except AlreadyExistsError:
                report.skipped.append(key)
                continue
            for event in session.events:
                await target.append_event(copy, event.model_copy(deep=True))
            await target.overwrite_state(key, session.state)
            report.copied.append(key)
            report.events += len(session.events)
    return report
