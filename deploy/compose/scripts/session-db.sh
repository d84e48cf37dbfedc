#!/bin/sh
# The ADK session store's database: a login role `adk` (password: ADK_DB_PASSWORD)
# owning a database `adk`. Idempotent: creates what is missing and sets the
# password again. Connects with the libpq variables (PGHOST, PGUSER, PGPASSWORD,
# PGDATABASE) as a role allowed to create roles and databases. The workers create
# their tables in it on first start.
set -eu
: "${ADK_DB_PASSWORD:?ADK_DB_PASSWORD is required}"
role="${ADK_DB_ROLE:-adk}"
db="${ADK_DB_NAME:-adk}"
tries=0
until pg_isready -q; do
  tries=$((tries + 1))
  if [ "$tries" -ge 60 ]; then
    echo "PostgreSQL at ${PGHOST:-localhost} is not ready" >&2
    exit 1
  fi
  sleep 1
done
# psql variables (:'name', :"name") quote the values: a password may hold anything
psql -v ON_ERROR_STOP=1 -q -v role="$role" -v db="$db" -v password="$ADK_DB_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'role')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'role') \gexec
ALTER ROLE :"role" WITH LOGIN PASSWORD :'password';
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'role')
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'db') \gexec
SQL
echo "session database $db ready (role $role)"
