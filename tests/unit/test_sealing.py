"""The temp-state codec: `temp:` values sealed in payloads, opened on the way in.

Runs on: test process only.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import stat

import pytest
from temporalio.api.common.v1 import Payload

from client._sealing import (
    KEY_ENV,
    SEALED,
    TempStateCodec,
    load_keys,
    new_key,
    sealing_converter,
)
from workflows.contracts import SessionRef, StepRef

KEY_A, KEY_B = os.urandom(32), os.urandom(32)
SECRET = "ya29.canary-token"


def _payloads(value: object) -> list[Payload]:
    return sealing_converter([KEY_A]).payload_converter.to_payloads([value])


async def test_temp_values_are_sealed_anywhere_and_open_as_they_were() -> None:
    ref = StepRef(
        session=SessionRef(app_name="a", user_id="u", session_id="s"),
        invocation_id="e-1",
        agent_name="agent",
        temp_state={"temp:token": SECRET, "temp:nested": {"k": [1, None, "x"]}},
    )
    value = {"ref": ref.model_dump(), "deep": [{"temp:n": 7, "plain": "visible"}]}
    codec = TempStateCodec([KEY_A])
    [encoded] = await codec.encode(_payloads(value))
    assert SECRET.encode() not in encoded.data and b"canary" not in encoded.data
    assert b'"plain":"visible"' in encoded.data and b'"temp:token"' in encoded.data
    sealed = json.loads(encoded.data)["ref"]["temp_state"]["temp:token"]
    assert set(sealed) == {SEALED} and sealed[SEALED].startswith("v1.")
    [decoded] = await codec.decode([encoded])
    assert json.loads(decoded.data) == json.loads(_payloads(value)[0].data)
    assert dict(decoded.metadata) == dict(_payloads(value)[0].metadata)


async def test_payloads_without_temp_keys_pass_untouched() -> None:
    codec = TempStateCodec([KEY_A])
    [plain] = _payloads({"state": {"count": 1}, "text": "temp: is only a word here"})
    assert await codec.encode([plain]) == [plain]
    assert await codec.decode([plain]) == [plain]
    binary = Payload(metadata={"encoding": b"binary/plain"}, data=b'"temp:x"')
    assert await codec.encode([binary]) == [binary]


async def test_each_seal_differs_and_the_key_name_is_bound() -> None:
    codec = TempStateCodec([KEY_A])
    [one] = await codec.encode(_payloads({"temp:a": SECRET}))
    [two] = await codec.encode(_payloads({"temp:a": SECRET}))
    assert one.data != two.data  # a fresh nonce per seal
    moved = one.data.replace(b'"temp:a"', b'"temp:b"')  # a sealed value under another key
    [opened] = await codec.decode([Payload(metadata=one.metadata, data=moved)])
    assert json.loads(opened.data) == {}  # does not open: dropped


async def test_a_value_sealed_under_an_unknown_key_is_dropped_with_a_warning(caplog) -> None:
    [sealed] = await TempStateCodec([KEY_A]).encode(_payloads({"temp:t": SECRET, "x": 1}))
    with caplog.at_level(logging.WARNING, logger="durable_adk.sealing"):
        [opened] = await TempStateCodec([KEY_B]).decode([sealed])
    assert json.loads(opened.data) == {"x": 1}
    assert "Dropped the value of temp:t" in caplog.text and KEY_ENV in caplog.text
    assert SECRET not in caplog.text


async def test_rotation_seals_with_the_first_key_and_opens_with_any() -> None:
    [old] = await TempStateCodec([KEY_A]).encode(_payloads({"temp:t": SECRET}))
    rotated = TempStateCodec([KEY_B, KEY_A])
    [opened] = await rotated.decode([old])
    assert json.loads(opened.data) == {"temp:t": SECRET}
    [new] = await rotated.encode(_payloads({"temp:t": SECRET}))
    [by_b] = await TempStateCodec([KEY_B]).decode([new])
    assert json.loads(by_b.data) == {"temp:t": SECRET}
    [by_a] = await TempStateCodec([KEY_A]).decode([new])  # sealed under B: A cannot open it
    assert json.loads(by_a.data) == {}


def test_keys_come_from_the_environment_else_a_private_file(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    monkeypatch.setenv("DURABLE_ADK_DATA_DIR", str(tmp_path / "data"))
    first = load_keys()
    path = tmp_path / "data" / "temp_state.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_keys() == first and len(first[0]) == 32  # the same key next time
    one, two = new_key(), new_key()
    monkeypatch.setenv(KEY_ENV, f"{one}, {two}")
    assert load_keys() == [base64.urlsafe_b64decode(one), base64.urlsafe_b64decode(two)]
    monkeypatch.setenv(KEY_ENV, "c2hvcnQ=")
    with pytest.raises(ValueError, match="must be 32 bytes"):
        TempStateCodec(load_keys())
    monkeypatch.setenv(KEY_ENV, "not base64!")
    with pytest.raises(ValueError, match=KEY_ENV):
        load_keys()
