"""The tables of DatabaseSessionService: google-adk 2.13's V1 schema plus durable-adk's columns.

Runs on: activity and process side.

google-adk's `DatabaseSessionService` (its `sessions/schemas/v1.py`) owns five tables:
sessions, events, app_states, user_states and adk_internal_metadata (holding
`schema_version` = "1"). They are declared here column for column, with the same
types per dialect (JSONB on PostgreSQL, LONGTEXT on MySQL, TEXT elsewhere; naive UTC
timestamps with microseconds), keys, foreign key and index names, so that either
implementation opens a database the other created.

What durable-adk needs beyond them lives in nullable columns google-adk never
selects or writes (its ORM names its columns), and in one table of its own:

- events.durable_seq: the event's place in its session (1, 2, ...). google-adk orders
  by timestamp; we order by the order of recording, and streams resume after a seq.
  A row google-adk wrote has none until our next write to the session adopts it
  (numbered after the others, in google-adk's order).
- events.durable_prior: what the event's state delta overwrote (see `_undo.py`), so
  a retried step's record can replace its first attempt's.
- events.durable_revision / sessions.durable_revision: a per-session counter bumped
  by each of our event writes, which lets the event cache refresh from what changed.
- sessions.durable_last_seq: the last seq given in the session. Read from the session
  row an append has locked, it is the latest committed value on every database (a
  MAX over events in the same statement would read the statement's snapshot, taken
  before the lock was granted, on PostgreSQL: two appends could take one seq).
- sessions.durable_deleted: the revision of the last event deleted (a retracted
  record): the cache refreshes from the rows written since only when none was.
- durable_adk_apps: the root agent a worker published per app.
"""

from __future__ import annotations

import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import mssql, mysql, postgresql
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

KEY_LENGTH = 128
VARCHAR_LENGTH = 256
SCHEMA_VERSION_KEY = "schema_version"
SCHEMA_VERSION = "1"


class Json(TypeDecorator[Any]):
    """google-adk's DynamicJSON: JSONB on PostgreSQL, LONGTEXT on MySQL, TEXT elsewhere.

    Binds a dict (serialized here where the column is text); results are returned
    as the driver gives them (a dict from JSONB, a str from text): `loads` decodes."""

    impl = sa.Text
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(postgresql.JSONB())
        if dialect.name == "mysql":
            return dialect.type_descriptor(mysql.LONGTEXT())
        return dialect.type_descriptor(sa.Text())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name == "postgresql":
            return value
        return value if isinstance(value, str) else _dumps(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return value


class Timestamp(TypeDecorator[datetime.datetime]):
    """google-adk's PreciseTimestamp: microseconds on every dialect (naive UTC values)."""

    impl = sa.DateTime
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "mysql":
            return dialect.type_descriptor(mysql.DATETIME(fsp=6))
        if dialect.name == "mssql":
            return dialect.type_descriptor(mssql.DATETIME2(precision=6))
        return self.impl_instance


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value)


metadata = sa.MetaData()

adk_internal_metadata = sa.Table(
    "adk_internal_metadata",
    metadata,
    sa.Column("key", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("value", sa.String(VARCHAR_LENGTH), nullable=False),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("app_name", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("user_id", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("id", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("state", Json(), nullable=False),
    sa.Column("create_time", Timestamp(), nullable=False),
    sa.Column("update_time", Timestamp(), nullable=False),
    sa.Column("durable_revision", sa.BigInteger(), nullable=True),
    sa.Column("durable_last_seq", sa.BigInteger(), nullable=True),
    sa.Column("durable_deleted", sa.BigInteger(), nullable=True),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("id", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("app_name", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("user_id", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("session_id", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("invocation_id", sa.String(VARCHAR_LENGTH), nullable=False),
    sa.Column("timestamp", Timestamp(), nullable=False),
    sa.Column("event_data", Json(), nullable=True),
    sa.Column("durable_seq", sa.BigInteger(), nullable=True),
    sa.Column("durable_prior", sa.Text(), nullable=True),
    sa.Column("durable_revision", sa.BigInteger(), nullable=True),
    sa.ForeignKeyConstraint(
        ["app_name", "user_id", "session_id"],
        ["sessions.app_name", "sessions.user_id", "sessions.id"],
        ondelete="CASCADE",
    ),
    sa.Index(
        "idx_events_app_user_session_ts_id",
        "app_name",
        "user_id",
        "session_id",
        sa.desc("timestamp"),
        sa.desc("id"),
    ),
    sa.Index("durable_events_by_seq", "app_name", "user_id", "session_id", "durable_seq"),
    sa.Index("durable_events_by_revision", "app_name", "user_id", "session_id", "durable_revision"),
)

app_states = sa.Table(
    "app_states",
    metadata,
    sa.Column("app_name", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("state", Json(), nullable=False),
    sa.Column("update_time", Timestamp(), nullable=False),
)

user_states = sa.Table(
    "user_states",
    metadata,
    sa.Column("app_name", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("user_id", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("state", Json(), nullable=False),
    sa.Column("update_time", Timestamp(), nullable=False),
)

apps = sa.Table(
    "durable_adk_apps",
    metadata,
    sa.Column("app_name", sa.String(KEY_LENGTH), primary_key=True),
    sa.Column("root_agent", sa.String(VARCHAR_LENGTH), nullable=False),
    sa.Column("update_time", Timestamp(), nullable=False),
)

ADDED_COLUMNS = {
    "sessions": ("durable_revision", "durable_last_seq", "durable_deleted"),
    "events": ("durable_seq", "durable_prior", "durable_revision"),
}
"""durable-adk's columns in google-adk's tables: added to a database google-adk created."""


class SchemaError(ValueError):
    """The database holds tables this service cannot use as they are."""


def prepare(connection: sa.Connection) -> None:
    """Create what is missing (tables, durable-adk's columns, indexes, the schema
    version); refuse a database in another schema. Idempotent; run in a transaction."""
    inspector = sa.inspect(connection)
    tables = set(inspector.get_table_names())
    if "adk_internal_metadata" in tables:
        version = connection.execute(
            sa.select(adk_internal_metadata.c.value).where(
                adk_internal_metadata.c.key == SCHEMA_VERSION_KEY
            )
        ).scalar_one_or_none()
        if version is not None and version != SCHEMA_VERSION:
            raise SchemaError(
                f"The session database has google-adk schema version {version!r};"
                f" this service reads version {SCHEMA_VERSION!r} (google-adk 2.13's)."
            )
    if "events" in tables:
        columns = {c["name"] for c in inspector.get_columns("events")}
        if "data" in columns and "seq" in columns and "event_data" not in columns:
            raise SchemaError(
                "The session database holds durable-adk's earlier SQLite store"
                " (SqliteSessionService's tables), not google-adk's schema: open that file"
                " by its path (the SQLite store), or start a new database for"
                " DatabaseSessionService (README: Session store)."
            )
        if "actions" in columns and "event_data" not in columns:
            raise SchemaError(
                "The session database uses google-adk's legacy V0 (pickle) schema;"
                " migrate it to V1 with google-adk's `adk migrate session` first."
            )
    metadata.create_all(connection, checkfirst=True)
    for table_name, names in ADDED_COLUMNS.items():
        present = {c["name"] for c in sa.inspect(connection).get_columns(table_name)}
        table = metadata.tables[table_name]
        for name in names:
            if name not in present:
                column = table.c[name]
                kind = column.type.compile(dialect=connection.dialect)
                preparer = connection.dialect.identifier_preparer
                connection.exec_driver_sql(
                    f"ALTER TABLE {preparer.quote(table_name)}"
                    f" ADD COLUMN {preparer.quote(name)} {kind}"
                )
    for table in metadata.sorted_tables:
        for index in table.indexes:
            index.create(connection, checkfirst=True)
    present_version = connection.execute(
        sa.select(adk_internal_metadata.c.value).where(
            adk_internal_metadata.c.key == SCHEMA_VERSION_KEY
        )
    ).scalar_one_or_none()
    if present_version is None:
        connection.execute(
            adk_internal_metadata.insert().values(key=SCHEMA_VERSION_KEY, value=SCHEMA_VERSION)
        )
