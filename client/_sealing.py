"""`temp:` state never reaches workflow history in plain text: a payload codec seals it.

Runs on: process side (the data converter's codec, in every worker and client).

google-adk keeps short-lived secrets under `temp:` (OAuth tokens, for one), and
promises they are never persisted. The invocation's `temp:` state must still travel
with it (a tool writes it, a later model step or a child agent reads it), through
activity inputs and results that Temporal records. So every value under a key that
starts with `temp:`, anywhere in a JSON payload, is sealed with AES-256-GCM (the key
name is authenticated with it) when the payload leaves the process, and opened when
one arrives: the workflow and activities see plain values; history, the Web UI and
`temporal workflow show` see `{"durable_adk.sealed": "v1.<key id>.<base64>"}`.

The key (32 bytes, URL-safe base64) comes from `$DURABLE_ADK_TEMP_STATE_KEY` (several,
comma-separated: the first seals, all open, for rotation), else from the file
`$DURABLE_ADK_DATA_DIR/temp_state.key`, created on first use (mode 0600). Workers on
several hosts must share the key. A value sealed under a key this process does not
have is dropped (the key reads as unset) with a warning: that is the recovery rule
when a key is lost or rotated out, and deleting a key makes every value it sealed
unreadable.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.client import Client
from temporalio.converter import DataConverter, PayloadCodec

from workflows.converter import data_converter

TEMP_PREFIX = "temp:"
SEALED = "durable_adk.sealed"
"""The one key of the object that replaces a sealed value."""
_MARK = "durable-adk-sealed"
"""Payload metadata: this payload holds sealed values (only those are walked on decode)."""
_NEEDLE = b'"' + TEMP_PREFIX.encode()
KEY_ENV = "DURABLE_ADK_TEMP_STATE_KEY"

log = logging.getLogger("durable_adk.sealing")


class TempStateCodec(PayloadCodec):
    """Seals the values of `temp:` keys in JSON payloads; other payloads pass untouched."""

    def __init__(self, keys: Sequence[bytes]) -> None:
        if not keys:
            raise ValueError("TempStateCodec needs at least one key.")
        for key in keys:
            if len(key) != 32:
                raise ValueError(
                    f"A temp-state key must be 32 bytes (URL-safe base64 in {KEY_ENV}),"
                    f" not {len(key)}."
                )
        self._sealer = AESGCM(keys[0])
        self._sealer_id = key_id(keys[0])
        self._openers = {key_id(key): AESGCM(key) for key in keys}

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self._encode(p) for p in payloads]

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self._decode(p) for p in payloads]

    def _encode(self, payload: Payload) -> Payload:
        if _NEEDLE not in payload.data or payload.metadata.get("encoding") != b"json/plain":
            return payload
        value = json.loads(payload.data)
        if not self._walk(value, self._seal):
            return payload
        return _rewritten(payload, value, {**payload.metadata, _MARK: b"1"})

    def _decode(self, payload: Payload) -> Payload:
        if _MARK not in payload.metadata:
            return payload
        value = json.loads(payload.data)
        self._walk(value, self._open)
        metadata = {k: v for k, v in payload.metadata.items() if k != _MARK}
        return _rewritten(payload, value, metadata)

    def _walk(self, value: Any, change: Any) -> bool:
        """Apply `change(key, value)` to the value of every `temp:` key; True if any."""
        found = False
        if isinstance(value, dict):
            for key in list(value):
                if isinstance(key, str) and key.startswith(TEMP_PREFIX):
                    change(value, key)
                    found = True
                else:
                    found = self._walk(value[key], change) or found
        elif isinstance(value, list):
            for item in value:
                found = self._walk(item, change) or found
        return found

    def _seal(self, holder: dict[str, Any], key: str) -> None:
        value = holder[key]
        if _sealed_text(value) is not None:
            return  # already sealed (a payload re-encoded as it came)
        nonce = os.urandom(12)
        plain = json.dumps(value, separators=(",", ":")).encode()
        sealed = nonce + self._sealer.encrypt(nonce, plain, key.encode())
        text = base64.urlsafe_b64encode(sealed).decode()
        holder[key] = {SEALED: f"v1.{self._sealer_id}.{text}"}

    def _open(self, holder: dict[str, Any], key: str) -> None:
        text = _sealed_text(holder[key])
        if text is None:
            return  # sent plain (by a client without the key, or before sealing existed)
        try:
            version, kid, body = text.split(".", 2)
            sealed = base64.urlsafe_b64decode(body)
            opener = self._openers[kid] if version == "v1" else None
            if opener is None:
                raise KeyError(kid)
            holder[key] = json.loads(opener.decrypt(sealed[:12], sealed[12:], key.encode()))
        except (ValueError, KeyError, InvalidTag):
            del holder[key]
            log.warning(
                "Dropped the value of %s: it was sealed under a temp-state key this process"
                " does not have (%s differs between workers, or was rotated out).",
                key,
                KEY_ENV,
            )


def _sealed_text(value: Any) -> str | None:
    if isinstance(value, dict) and len(value) == 1 and isinstance(value.get(SEALED), str):
        return value[SEALED]  # type: ignore[no-any-return]
    return None


def _rewritten(payload: Payload, value: Any, metadata: dict[str, bytes]) -> Payload:
    data = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    return Payload(metadata=metadata, data=data, external_payloads=payload.external_payloads)


def key_id(key: bytes) -> str:
    """A short, public name for a key (which key sealed a value), not the key."""
    return hashlib.sha256(b"durable-adk temp-state key id\0" + key).hexdigest()[:8]


def load_keys() -> list[bytes]:
    """The keys from $DURABLE_ADK_TEMP_STATE_KEY, else the data folder's key file
    (created with a fresh key, readable by its owner only, the first time)."""
    configured = os.environ.get(KEY_ENV, "").strip()
    if configured:
        try:
            return [base64.urlsafe_b64decode(k.strip()) for k in configured.split(",")]
        except ValueError as error:
            raise ValueError(f"{KEY_ENV} must hold URL-safe base64 keys: {error}") from None
    path = Path(os.environ.get("DURABLE_ADK_DATA_DIR") or ".data") / "temp_state.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it first: read theirs
        else:
            with os.fdopen(fd, "w") as f:
                f.write(new_key() + "\n")
    return [base64.urlsafe_b64decode(path.read_text().strip())]


def new_key() -> str:
    """A fresh key, as $DURABLE_ADK_TEMP_STATE_KEY holds it."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode()


def sealing_converter(keys: Sequence[bytes] | None = None) -> DataConverter:
    """durable-adk's data converter with the temp-state codec (keys: `load_keys()`)."""
    return replace(data_converter, payload_codec=TempStateCodec(keys or load_keys()))


def seals(client: Client) -> bool:
    return isinstance(client.data_converter.payload_codec, TempStateCodec)


def sealing_client(client: Client, keys: Sequence[bytes] | None = None) -> Client:
    """`client`, or the same connection with the sealing converter when it has none.

    A worker built from a client without it would write `temp:` values into history
    in plain text; one with another codec (encryption of everything, say) is kept as
    it is: sealing is for what that codec leaves readable."""
    if client.data_converter.payload_codec is not None:
        return client
    config = client.config()
    config["data_converter"] = sealing_converter(keys)
    return Client(**config)
