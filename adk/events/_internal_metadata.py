"""`Event.custom_metadata`: the keys only ADK may write, and RunConfig.custom_metadata
merged into the events of a run (google-adk 2.13's rules).

Runs on: both sides (pure functions over data, sandbox-safe).

google-adk 2.13 merges `RunConfig.custom_metadata` into every event its runner
records for the run: the user's message, and each event the agents yield (model
responses, function responses, callbacks' events, a plugin's before_run answer),
before the plugins' on_event_callback sees it. An event's own keys win. Keys with
the internal prefix are dropped from the run's metadata first. Compaction events
are appended outside that path and are not stamped.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..agents.run_config import RunConfig
    from .event import Event

logger = logging.getLogger(__name__)

INTERNAL_METADATA_PREFIX = "__adk_internal_"
"""Prefix of `custom_metadata` keys that callers cannot set (google-adk 2.13's)."""


def _is_internal_key(key: Any) -> bool:
    return isinstance(key, str) and key.startswith(INTERNAL_METADATA_PREFIX)


def without_internal_metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """`metadata` without its internal keys (a new dict; `None` stays `None`)."""
    if not isinstance(metadata, Mapping):
        return metadata
    kept = {key: value for key, value in metadata.items() if not _is_internal_key(key)}
    if len(kept) != len(metadata):
        logger.debug(
            "Dropping ADK-internal custom_metadata keys: %s",
            sorted(metadata.keys() - kept.keys()),
        )
    return kept


def internal_metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """Only the internal keys of `metadata`."""
    if not isinstance(metadata, Mapping):
        return {}
    return {key: value for key, value in metadata.items() if _is_internal_key(key)}


def apply_run_metadata(event: Event, run_config: RunConfig | None) -> Event:
    """Merge the run's custom metadata (internal keys dropped) into `event`, in place,
    under the event's own keys; nothing changes when the run has none. Idempotent:
    the same event stamped again (a retried record) is stamped the same."""
    run_metadata = without_internal_metadata(run_config.custom_metadata if run_config else None)
    if run_metadata:
        event.custom_metadata = {**run_metadata, **(event.custom_metadata or {})}
    return event
