"""ADK docs, callbacks/types-of-callbacks: callbacks that edit what passes through.

before_model prefixes the system instruction (as a Content, the docs' way)
and blocks on 'BLOCK'; after_model rewrites 'joke' in a deep copy of the
parts; before_tool edits args in place (Canada -> France); after_tool returns
a modified copy of the result.
"""

import copy
from typing import Any, Dict, Optional

from google.adk.agents import LlmAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.models import LlmRequest, LlmResponse
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = [
    "What is the capital of canada?",
    "And of the United States? Tell me a joke too.",
    "BLOCK this one",
]


def get_capital_city(country: str) -> str:
    """Retrieves the capital city of a given country."""
    country_capitals = {
        "united states": "Washington, D.C.",
        "canada": "Ottawa",
        "france": "Paris",
        "germany": "Berlin",
    }
    return country_capitals.get(country.lower(), f"Capital not found for {country}")


def simple_before_model_modifier(
    callback_context: CallbackContext, llm_request: LlmRequest
) -> Optional[LlmResponse]:
    """Inspects/modifies the LLM request or skips the call."""
    last_user_message = ""
    if llm_request.contents and llm_request.contents[-1].role == "user":
        if llm_request.contents[-1].parts:
            last_user_message = llm_request.contents[-1].parts[0].text or ""
    original_instruction = llm_request.config.system_instruction or types.Content(
        role="system", parts=[]
    )
    prefix = "[Modified by Callback] "
    if not isinstance(original_instruction, types.Content):
        original_instruction = types.Content(
            role="system", parts=[types.Part(text=str(original_instruction))]
        )
    if not original_instruction.parts:
        original_instruction.parts.append(types.Part(text=""))
    modified_text = prefix + (original_instruction.parts[0].text or "")
    original_instruction.parts[0].text = modified_text
    llm_request.config.system_instruction = original_instruction
    if "BLOCK" in last_user_message.upper():
        return LlmResponse(
            content=types.Content(
                role="model",
                parts=[types.Part(text="LLM call was blocked by before_model_callback.")],
            )
        )
    return None


def simple_after_model_modifier(
    callback_context: CallbackContext, llm_response: LlmResponse
) -> Optional[LlmResponse]:
    """Inspects/modifies the LLM response after it's received."""
    original_text = ""
    if llm_response.content and llm_response.content.parts:
        if llm_response.content.parts[0].text:
            original_text = llm_response.content.parts[0].text
        elif llm_response.content.parts[0].function_call:
            return None
        else:
            return None
    elif llm_response.error_message:
        return None
    else:
        return None
    search_term = "joke"
    replace_term = "funny story"
    if search_term in original_text.lower():
        modified_parts = [copy.deepcopy(part) for part in llm_response.content.parts]
        modified_parts[0].text = original_text.replace(search_term, replace_term)
        new_response = LlmResponse(
            content=types.Content(role="model", parts=modified_parts),
            grounding_metadata=llm_response.grounding_metadata,
        )
        return new_response
    return None


def simple_before_tool_modifier(
    tool: BaseTool, args: Dict[str, Any], tool_context: ToolContext
) -> Optional[Dict]:
    """Inspects/modifies tool args or skips the tool call."""
    tool_name = tool.name
    if tool_name == "get_capital_city" and args.get("country", "").lower() == "canada":
        args["country"] = "France"
        return None
    if tool_name == "get_capital_city" and args.get("country", "").upper() == "BLOCK":
        return {"result": "Tool execution was blocked by before_tool_callback."}
    return None


def simple_after_tool_modifier(
    tool: BaseTool, args: Dict[str, Any], tool_context: ToolContext, tool_response: Dict
) -> Optional[Dict]:
    """Inspects/modifies the tool result after execution."""
    tool_name = tool.name
    original_result_value = tool_response.get("result", "")
    if tool_name == "get_capital_city" and original_result_value == "Washington, D.C.":
        modified_response = copy.deepcopy(tool_response)
        modified_response["result"] = (
            f"{original_result_value} (Note: This is the capital of the USA)."
        )
        modified_response["note_added_by_callback"] = True
        return modified_response
    return None


def build(scripted):
    call = types.Part.from_function_call
    return LlmAgent(
        name="CapitalAgent",
        model=scripted(
            call(name="get_capital_city", args={"country": "canada"}),
            "The capital is Paris.",
            call(name="get_capital_city", args={"country": "united states"}),
            "Washington, D.C. Here is a joke: none.",
            model="gemini-2.0-flash",
        ),
        instruction="You are an agent that can find capital cities. Use the get_capital_city tool.",
        description="An LLM agent demonstrating callbacks",
        tools=[get_capital_city],
        before_model_callback=simple_before_model_modifier,
        after_model_callback=simple_after_model_modifier,
        before_tool_callback=simple_before_tool_modifier,
        after_tool_callback=simple_after_tool_modifier,
    )
