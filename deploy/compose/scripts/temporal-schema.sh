#!/bin/sh
# Temporal's schemas on PostgreSQL, with temporal-sql-tool (temporalio/admin-tools).
# Creates the `temporal` and `temporal_visibility` databases on a first run and
# applies any newer schema version the image ships on later ones, so it runs on
# every `docker compose up`. Reads DB_PORT, POSTGRES_SEEDS, POSTGRES_USER and
# SQL_PASSWORD (the tool's password variable) from the environment.
set -eu
: "${POSTGRES_SEEDS:?POSTGRES_SEEDS is required}"
: "${POSTGRES_USER:?POSTGRES_USER is required}"
: "${SQL_PASSWORD:?SQL_PASSWORD is required}"
port="${DB_PORT:-5432}"
schemas=/etc/temporal/schema/postgresql/v12

sql_tool() {
  temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$port" -u "$POSTGRES_USER" "$@"
}

for pair in temporal:temporal visibility:temporal_visibility; do
  kind="${pair%%:*}"
  db="${pair#*:}"
  echo "schema of $db"
  sql_tool --db "$db" create
  sql_tool --db "$db" setup-schema -v 0.0
  sql_tool --db "$db" update-schema -d "$schemas/$kind/versioned"
done
echo "Temporal schemas ready"
