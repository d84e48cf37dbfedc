"""adk.utils._copying.deep_copy: the copy request building makes of each content.

Runs on: test process only.
"""

from __future__ import annotations

import copy

from google.genai import types

from adk.utils._copying import deep_copy


def _content() -> types.Content:
    call = types.Part.from_function_call(name="f", args={"x": [1, {"y": "z"}], "n": None})
    data = types.Part.from_bytes(data=b"\x00\x01", mime_type="image/png")
    text = types.Part(text="hi", thought=True)
    return types.Content(role="model", parts=[text, call, data])


def test_a_copy_equals_deepcopys_and_shares_nothing_mutable() -> None:
    original = _content()
    copied = deep_copy(original)
    assert copied == original == copy.deepcopy(original)
    assert copied.model_dump(exclude_unset=True) == original.model_dump(exclude_unset=True)
    assert copied.model_fields_set == original.model_fields_set
    assert copied.parts is not None and original.parts is not None
    copied.parts[0].text = "changed"
    copied.parts.append(types.Part(text="more"))
    call = copied.parts[1].function_call
    assert call is not None and call.args is not None
    call.args["x"][1]["y"] = "changed"
    call.id = "set"
    assert original == _content()
