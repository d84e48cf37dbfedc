"""Agent Config YAML: Sequential[drafter, Loop[writer, critic]] across files (one in
a subfolder), a tool and a callback by code reference, exit_loop by its built-in name."""

from google.genai import types

TURNS = ["a poem about rain"]

_call = types.Part.from_function_call
MODELS = {
    "kit-drafter": ["rain taps the roof"],
    "kit-writer": [
        _call(name="bump_version", args={}),
        "rain taps the tin roof",
        _call(name="bump_version", args={}),
        "soft rain taps the tin roof",
    ],
    "kit-critic": ["too plain", _call(name="exit_loop", args={})],
}
