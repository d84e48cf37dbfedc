"""Whether a model takes an output schema together with tools (deprecated helper).

Runs on: activity and process side (pure, but for the Vertex AI switch it reads
from the environment). Mirrors google-adk 2.13's
`google.adk.utils.output_schema_utils`: for ADK's internal use there, kept for
code that imports it; read `model.capabilities.output_schema_and_tools` instead.
"""

from __future__ import annotations

from typing import Union

from typing_extensions import deprecated

from ..flows.llm_flows.basic import output_schema_and_tools
from ..models.base_llm import BaseLlm

__all__ = ["can_use_output_schema_with_tools"]


@deprecated("Use model.capabilities.output_schema_and_tools instead.")
def can_use_output_schema_with_tools(model: Union[str, BaseLlm]) -> bool:
    """Whether the model (a name, or a BaseLlm's capabilities) takes an output schema
    with tools: a Gemini name on Vertex AI does."""
    if not isinstance(model, str):
        return model.capabilities.output_schema_and_tools
    return output_schema_and_tools(model)
