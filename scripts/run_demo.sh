#!/usr/bin/env bash
# The main job: dev server + worker (background, kept running) + one sample
# invocation of examples/weather whose events print as they happen.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DURABLE_ADK_DATA_DIR:-$PWD/.data}"
export DURABLE_ADK_DATA_DIR="$DATA"
mkdir -p "$DATA"
PY=.venv/bin/python

bash scripts/dev_server.sh start
bash scripts/worker.sh restart examples/weather

echo
echo "── sample invocation ─────────────────────────────────────────────"
SESSION="demo-$(date +%s)"
$PY -m client run --app weather --session "$SESSION" --state '{"user:name": "Ada"}' \
  "What's the weather in Paris?"
echo
echo "Next turn of the same conversation:"
echo "  .venv/bin/python -m client run --app weather --session $SESSION \"How about in Tokyo?\""
echo "The dev server (Web UI http://localhost:${TEMPORAL_UI_PORT:-8233}) and the worker keep running; stop them with: make stop"
