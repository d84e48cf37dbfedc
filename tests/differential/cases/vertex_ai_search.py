"""VertexAiSearchTool: Vertex AI Search declared in the request's config as 2.13
declares it (an engine with data store specs; a subclass building its filter from the
session's state); the model searches by itself, so the answer is one model event."""

from google.adk.agents import LlmAgent
from google.adk.tools import VertexAiSearchTool
from google.genai import types

ENGINE = "projects/p/locations/global/collections/default_collection/engines/policies"
STORE = "projects/p/locations/global/collections/default_collection/dataStores/faq"

INITIAL_STATE = {"tier": "gold"}
TURNS = ["what is the refund policy?", "and for shipping?"]


class TieredSearch(VertexAiSearchTool):
    def _build_vertex_ai_search_config(self, readonly_context):
        config = super()._build_vertex_ai_search_config(readonly_context)
        config.filter = f'tier: ANY("{readonly_context.state["tier"]}")'
        return config


def build(scripted):
    grounding = types.GroundingMetadata(retrieval_queries=["refund policy"])
    return LlmAgent(
        name="policies",
        instruction="Answer from the policy documents.",
        tools=[
            TieredSearch(
                search_engine_id=ENGINE,
                data_store_specs=[types.VertexAISearchDataStoreSpec(data_store=STORE)],
                max_results=3,
            )
        ],
        model=scripted(
            {"content": "Refunds within 30 days.", "grounding_metadata": grounding},
            "Shipping is free over 50.",
            model="gemini-2.5-flash",
        ),
    )
