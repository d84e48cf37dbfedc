"""MultimodalToolResultsPlugin(retention="session"): the parts a tool returned (a text
part, a file reference and an image) are attached to the next request, and the text
and file parts again to every request of later turns (persisted in state); the image
only rides in the function response."""

from google.adk.agents import LlmAgent
from google.adk.plugins.multimodal_tool_results_plugin import MultimodalToolResultsPlugin
from google.genai import types

TURNS = ["Fetch the report", "Summarise it", "Thanks"]


def fetch_report() -> list:
    """Fetches the quarterly report."""
    return [
        types.Part(text="Quarterly report, 3 pages."),
        types.Part(
            file_data=types.FileData(file_uri="gs://bucket/report.pdf", mime_type="application/pdf")
        ),
        types.Part(inline_data=types.Blob(mime_type="image/png", data=b"\x89PNG-logo")),
    ]


def plugins():
    return [MultimodalToolResultsPlugin(retention="session")]


def build(scripted):
    return LlmAgent(
        name="root",
        model=scripted(
            types.Part.from_function_call(name="fetch_report", args={}),
            "Fetched.",
            "It is about sales.",
            "Welcome.",
        ),
        tools=[fetch_report],
    )
