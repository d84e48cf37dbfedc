#!/usr/bin/env bash
# Start/stop a background worker for the demo (logs in .data/worker.log).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DURABLE_ADK_DATA_DIR:-$PWD/.data}"
export DURABLE_ADK_DATA_DIR="$DATA"
PID="$DATA/worker.pid"
LOG="$DATA/worker.log"

stop() {
  if [ -f "$PID" ] && kill -0 "$(cat "$PID")" 2>/dev/null; then
    kill "$(cat "$PID")"
    for _ in $(seq 1 50); do kill -0 "$(cat "$PID")" 2>/dev/null || break; sleep 0.1; done
    echo "worker stopped"
  fi
  rm -f "$PID"
}

start() {
  : >"$LOG"
  DURABLE_ADK_LOG_FORMAT=json .venv/bin/python -m worker "$@" >>"$LOG" 2>&1 &
  echo $! >"$PID"
  for _ in $(seq 1 100); do
    if grep -q '"worker started"' "$LOG"; then echo "worker running (pid $(cat "$PID"), log $LOG)"; return 0; fi
    if ! kill -0 "$(cat "$PID")" 2>/dev/null; then echo "worker failed to start:" >&2; cat "$LOG" >&2; exit 1; fi
    sleep 0.1
  done
  echo "worker did not start in time; see $LOG" >&2
  exit 1
}

case "${1:-}" in
  start) shift; start "$@" ;;
  restart) shift; stop; start "$@" ;;
  stop) stop ;;
  *) echo "usage: $0 start|restart APP... | stop" >&2; exit 2 ;;
esac
