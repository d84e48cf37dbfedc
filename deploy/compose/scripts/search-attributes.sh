#!/bin/sh
# Registers the Keyword search attributes durable-adk's workflows set, on the
# namespace TEMPORAL_NAMESPACE of the server at TEMPORAL_ADDRESS, skipping those
# already registered: safe to re-run. A namespace created a moment ago is not yet
# known to every part of the server, so listing or creating may fail at first:
# it asks again, every 2 s for up to 5 minutes.
set -eu
ns="${TEMPORAL_NAMESPACE:-default}"
names="AdkApp AdkUser AdkSession AdkAgent AdkStatus"
tries=0
first=true
while :; do
  if listed=$(temporal operator search-attribute list --namespace "$ns" 2>&1); then
    missing=""
    for name in $names; do
      if printf '%s\n' "$listed" | grep -qw "$name"; then
        if $first; then echo "$name: already registered"; fi
      else
        missing="$missing $name"
      fi
    done
    if [ -z "$missing" ]; then
      break
    fi
    first=false
    for name in $missing; do
      if error=$(temporal operator search-attribute create --namespace "$ns" --name "$name" --type Keyword 2>&1); then
        echo "$name: registered"
      else
        listed="$error"
      fi
    done
  fi
  tries=$((tries + 1))
  if [ "$tries" -ge 150 ]; then
    echo "cannot register the search attributes on namespace $ns at $TEMPORAL_ADDRESS: $listed" >&2
    exit 1
  fi
  sleep 2
done
echo "search attributes ready on namespace $ns"
