"""ExampleTool's examples block, compared with google-adk 2.13's text.

Runs on: test process (google-adk is the test-only reference).
"""

from __future__ import annotations

import pytest
from google.genai import types

from adk.examples import BaseExampleProvider, Example
from adk.examples.example_util import build_example_si

EXAMPLES = [
    Example(
        input=types.UserContent(parts=[types.Part(text="Roll a die"), types.Part(text="now")]),
        output=[
            types.ModelContent(
                parts=[types.Part.from_function_call(name="roll_die", args={"sides": 6, "c": "x"})]
            ),
            types.UserContent(
                parts=[types.Part.from_function_response(name="roll_die", response={"r": 4})]
            ),
            types.ModelContent(parts=[types.Part(text="A 4.")]),
            types.ModelContent(parts=[types.Part(text="Again?")]),
        ],
    ),
    Example(input=types.UserContent(parts=[types.Part(text="Hi")]), output=[]),
]


@pytest.mark.parametrize("model", [None, "gemini-2.5-flash", "google.gemini-2.5-flash", "gpt-4o"])
def test_same_text_as_reference(model: str | None) -> None:
    from google.adk.examples import example_util as reference
    from google.adk.examples.example import Example as RefExample

    ref_examples = [RefExample.model_validate(e.model_dump()) for e in EXAMPLES]
    assert build_example_si(EXAMPLES, "q", model) == reference.build_example_si(
        ref_examples, "q", model
    )


def test_a_provider_gets_the_query() -> None:
    asked: list[str] = []

    class Provider(BaseExampleProvider):
        def get_examples(self, query: str) -> list[Example]:
            asked.append(query)
            return EXAMPLES[1:]

    text = build_example_si(Provider(), "roll one", "gemini-2.5-flash")
    assert asked == ["roll one"]
    assert "EXAMPLE 1:\nBegin example\n[user]\nHi\nEnd example" in text
