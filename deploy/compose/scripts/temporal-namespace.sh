#!/bin/sh
# Waits until the Temporal server at TEMPORAL_ADDRESS answers, then creates the
# namespace TEMPORAL_NAMESPACE (retention NAMESPACE_RETENTION) unless it exists.
set -eu
ns="${TEMPORAL_NAMESPACE:-default}"
retention="${NAMESPACE_RETENTION:-72h}"
tries=0
until temporal operator cluster health >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 90 ]; then
    echo "Temporal at $TEMPORAL_ADDRESS did not become healthy" >&2
    exit 1
  fi
  echo "waiting for Temporal at $TEMPORAL_ADDRESS ..."
  sleep 2
done
if temporal operator namespace describe --namespace "$ns" >/dev/null 2>&1; then
  echo "namespace $ns: already there"
else
  temporal operator namespace create --namespace "$ns" --retention "$retention"
  echo "namespace $ns created (retention $retention)"
fi
