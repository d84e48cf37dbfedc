"""MultimodalToolResultsPlugin: a tool returns parts (a text part and an image); the
image goes into the function response (the framework carries media), the text part
is attached to the next model request and then cleared; an ordinary dict result
passes through (the plugin returns it, so later after_tool callbacks are skipped)."""

from google.adk.agents import LlmAgent
from google.adk.plugins.multimodal_tool_results_plugin import MultimodalToolResultsPlugin
from google.genai import types

TURNS = ["Show me the chart", "And the numbers?"]
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(32))


def draw_chart(title: str) -> list:
    """Draws a chart.

    Args:
      title: The chart's title.
    """
    return [
        types.Part(text=f"Chart '{title}': sales rose 12%."),
        types.Part(inline_data=types.Blob(mime_type="image/png", data=PNG)),
    ]


def caption(title: str) -> types.Part:
    """A caption for a chart.

    Args:
      title: The chart's title.
    """
    return types.Part(text=f"Caption for {title}")


def numbers() -> dict:
    """The numbers behind the chart."""
    return {"q1": 100, "q2": 112}


def never_seen(tool, args, tool_context, tool_response):
    if isinstance(tool_response, dict):
        return {"replaced": True}  # skipped: the plugin returns the dict result itself
    return None


def plugins():
    return [MultimodalToolResultsPlugin()]


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="root",
        instruction="Show charts.",
        model=scripted(
            [call(name="draw_chart", args={"title": "Sales"})],
            call(name="caption", args={"title": "Sales"}),
            "Here is the chart.",
            call(name="numbers", args={}),
            "Q1 100, Q2 112.",
        ),
        tools=[draw_chart, caption, numbers],
        after_tool_callback=never_seen,
    )
