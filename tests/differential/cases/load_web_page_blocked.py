"""load_web_page as a function tool: its declaration in the request as 2.13 sends
it, and what it answers for URLs it refuses without a connection (loopback, a
metadata name, a private or link-local address, NAT64 to the metadata endpoint, a
scheme other than http(s)): `Failed to fetch url: <url>` each, in one parallel
step, then the model's answer."""

from google.adk.agents import LlmAgent
from google.adk.tools.load_web_page import load_web_page
from google.genai import types

TURNS = ["read my internal pages"]

REFUSED = [
    "http://localhost:8080/admin",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://10.1.2.3/",
    "https://169.254.169.254/latest/meta-data/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://intranet.local/wiki",
    "file:///etc/passwd",
]


def build(scripted):
    return LlmAgent(
        name="reader",
        instruction="Read the pages the user names.",
        tools=[load_web_page],
        model=scripted(
            [types.Part.from_function_call(name="load_web_page", args={"url": u}) for u in REFUSED],
            "None of them could be fetched.",
        ),
    )
