"""output_schema as a JSON schema dict without tools: the dict goes into the request as
the response schema; output_key holds the parsed JSON, not checked against the schema
(a number where the schema says string is kept). A reply that is not JSON raises
2.13's ValueError ("Invalid JSON in schema value: ...")."""

from google.adk.agents import LlmAgent

TURNS = ["what is the capital of France?", "and of Italy?"]
CONTINUE_AFTER_RAISE = True

SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "The city."}},
    "required": ["city"],
}


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted('{"city": 7, "extra": [1, 2]}', "Rome, of course."),
        instruction="Answer in JSON.",
        output_schema=SCHEMA,
        output_key="answer",
    )
