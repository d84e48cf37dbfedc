"""VertexAiSearchTool: Gemini's built-in Vertex AI Search retrieval, declared as
google-adk 2.13 declares it.

Runs on: activity side (the model step's request building). The model searches the
data store or engine by itself, inside the model call: there is no tool call to run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from .base_tool import BaseTool
from .google_search_tool import add_builtin, gemini_or_check_off

if TYPE_CHECKING:
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest
    from .tool_context import ToolContext


class VertexAiSearchTool(BaseTool):
    """A model built-in tool: Vertex AI Search over one data store or one engine.

    To set the search up per request (a filter from the session's state), subclass
    and override `_build_vertex_ai_search_config(readonly_context)`.

    `bypass_multi_tools_limit=True` beside other tools or transfer targets makes
    google-adk 2.13 swap in a DiscoveryEngineSearchTool (a function tool calling the
    Discovery Engine API); durable-adk does not implement that tool yet, so that
    combination raises NotImplementedError when the agent's tools are resolved.
    """

    def __init__(
        self,
        *,
        data_store_id: str | None = None,
        data_store_specs: list[types.VertexAISearchDataStoreSpec] | None = None,
        search_engine_id: str | None = None,
        filter: str | None = None,
        max_results: int | None = None,
        bypass_multi_tools_limit: bool = False,
        name: str | None = None,
        description: str | None = None,
    ):
        super().__init__(
            name=name or "vertex_ai_search", description=description or "vertex_ai_search"
        )
        if (data_store_id is None) == (search_engine_id is None):
            raise ValueError("Either data_store_id or search_engine_id must be specified.")
        if data_store_specs is not None and search_engine_id is None:
            raise ValueError("search_engine_id must be specified if data_store_specs is specified.")
        self.data_store_id = data_store_id
        self.data_store_specs = data_store_specs
        self.search_engine_id = search_engine_id
        self.filter = filter
        self.max_results = max_results
        self.bypass_multi_tools_limit = bypass_multi_tools_limit

    def _to_discovery_engine_search_tool(self) -> BaseTool:
        raise NotImplementedError(
            "VertexAiSearchTool(bypass_multi_tools_limit=True) beside other tools or"
            " transfer targets: google-adk 2.13 replaces it with"
            " google.adk.tools.discovery_engine_search_tool.DiscoveryEngineSearchTool,"
            " which durable-adk does not implement yet. Give the search its own agent"
            " (an AgentTool or a sub-agent), or use a Gemini 3+ model without"
            " bypass_multi_tools_limit."
        )

    def _build_vertex_ai_search_config(
        self, readonly_context: ReadonlyContext
    ) -> types.VertexAISearch:
        """The search's configuration for this request; override to compute it from
        the context (e.g. a filter from the session's state)."""
        return types.VertexAISearch(
            datastore=self.data_store_id,
            data_store_specs=self.data_store_specs,
            engine=self.search_engine_id,
            filter=self.filter,
            max_results=self.max_results,
        )

    async def process_llm_request(
        self, *, tool_context: ToolContext, llm_request: LlmRequest
    ) -> None:
        llm_request.config = llm_request.config or types.GenerateContentConfig()
        llm_request.config.tools = llm_request.config.tools or []
        if not gemini_or_check_off(llm_request):
            raise ValueError(
                f"Vertex AI search tool is not supported for model {llm_request.model}"
            )
        config = self._build_vertex_ai_search_config(tool_context)
        add_builtin(llm_request, types.Tool(retrieval=types.Retrieval(vertex_ai_search=config)))
