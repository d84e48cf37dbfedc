#!/bin/sh
# Registers the Keyword search attributes durable-adk's workflows set, on the
# namespace TEMPORAL_NAMESPACE of the server at TEMPORAL_ADDRESS. Waits for the
# namespace first; skips the attributes already registered, so it is safe to re-run.
set -eu
ns="${TEMPORAL_NAMESPACE:-default}"
tries=0
until temporal operator namespace describe --namespace "$ns" >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 150 ]; then
    echo "namespace $ns not reachable at $TEMPORAL_ADDRESS" >&2
    exit 1
  fi
  echo "waiting for namespace $ns at $TEMPORAL_ADDRESS ..."
  sleep 2
done
for name in AdkApp AdkUser AdkSession AdkAgent AdkStatus; do
  if temporal operator search-attribute list --namespace "$ns" | grep -qw "$name"; then
    echo "$name: already registered"
  else
    temporal operator search-attribute create --namespace "$ns" --name "$name" --type Keyword
  fi
done
echo "search attributes ready on namespace $ns"
