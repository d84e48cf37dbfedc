"""SaveFilesAsArtifactsPlugin under a SequentialAgent: the pending versions go into the
first agent's before_agent event (the SequentialAgent's), once; the sub-agents (child
runs here) see the cleared note; a second turn without files adds nothing."""

from google.adk.agents import LlmAgent, SequentialAgent
from google.adk.artifacts import InMemoryArtifactService
from google.adk.plugins.save_files_as_artifacts_plugin import SaveFilesAsArtifactsPlugin
from google.genai import types


def upload(events):
    return types.Content(
        role="user",
        parts=[
            types.Part.from_text(text="Summarize this."),
            types.Part(
                inline_data=types.Blob(data=b"hello", mime_type="text/plain", display_name="a.txt")
            ),
        ],
    )


TURNS = [upload, "again"]


def artifact_service():
    return InMemoryArtifactService()


def plugins():
    return [SaveFilesAsArtifactsPlugin(attach_file_reference=False)]


def build(scripted):
    first = LlmAgent(name="first", model=scripted("One.", "Three."), instruction="Read.")

    def pending(ctx):  # what the plugin noted, as each agent sees it
        return f"Pending: {ctx.state.get('save_files_as_artifacts_plugin:pending_delta')}"

    second = LlmAgent(name="second", model=scripted("Two.", "Four."), instruction=pending)
    return SequentialAgent(name="root", sub_agents=[first, second])
