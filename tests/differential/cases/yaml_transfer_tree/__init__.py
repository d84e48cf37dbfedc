"""Agent Config YAML: a transfer tree. The root transfers to billing (YAML, inheriting
the root's model), billing answers with a tool then transfers to its peer support
(an agent in Python, by a code: reference); turn 2 goes to support directly."""

from google.genai import types

TURNS = ["what is on invoice 7, and my wifi is down", "still down"]

_call = types.Part.from_function_call
MODELS = {
    # front_desk and billing share it: billing has no model of its own
    "kit-front": [
        _call(name="transfer_to_agent", args={"agent_name": "billing"}),
        _call(name="invoice_total", args={"invoice": "7"}),
        [
            types.Part(text="Invoice 7 is 42 EUR."),
            _call(name="transfer_to_agent", args={"agent_name": "support"}),
        ],
    ],
    "kit-support": ["Restart the router.", "Then call your provider."],
}
