"""ADK docs, tutorials/agent-team (steps 3-6): the weather bot team.

A root with a stateful tool (reads a user preference from state, writes
last_city_checked_stateful), output_key, greeting/farewell sub-agents reached
by transfer (say_hello with an Optional default), a before_model guardrail
that blocks 'BLOCK' with an LlmResponse and a before_tool guardrail that
blocks Paris with a dict; initial session state as the tutorial creates it.
"""

from typing import Optional

from google.adk.agents import Agent
from google.adk.agents.callback_context import CallbackContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

INITIAL_STATE = {"user_preference_temperature_unit": "Celsius"}
TURNS = [
    "Hello, I'm Ada",
    "What's the weather in London?",
    "BLOCK the request for weather in Tokyo",
    "How about Paris?",
    "Thanks, bye!",
]


def say_hello(name: Optional[str] = None) -> str:
    """Provides a simple greeting. If a name is provided, it will be used.

    Args:
        name (str, optional): The name of the person to greet. Defaults to a generic greeting if not provided.

    Returns:
        str: A friendly greeting message.
    """
    if name:
        greeting = f"Hello, {name}!"
    else:
        greeting = "Hello there!"
    return greeting


def say_goodbye() -> str:
    """Provides a simple farewell message to conclude the conversation."""
    return "Goodbye! Have a great day."


def get_weather_stateful(city: str, tool_context: ToolContext) -> dict:
    """Retrieves weather, converts temp unit based on session state."""
    preferred_unit = tool_context.state.get("user_preference_temperature_unit", "Celsius")
    city_normalized = city.lower().replace(" ", "")
    mock_weather_db = {
        "newyork": {"temp_c": 25, "condition": "sunny"},
        "london": {"temp_c": 15, "condition": "cloudy"},
        "tokyo": {"temp_c": 18, "condition": "light rain"},
    }
    if city_normalized in mock_weather_db:
        data = mock_weather_db[city_normalized]
        temp_c = data["temp_c"]
        condition = data["condition"]
        if preferred_unit == "Fahrenheit":
            temp_value = (temp_c * 9 / 5) + 32
            temp_unit = "°F"
        else:
            temp_value = temp_c
            temp_unit = "°C"
        report = (
            f"The weather in {city.capitalize()} is {condition} with a temperature of"
            f" {temp_value:.0f}{temp_unit}."
        )
        result = {"status": "success", "report": report}
        tool_context.state["last_city_checked_stateful"] = city
        return result
    else:
        error_msg = f"Sorry, I don't have weather information for '{city}'."
        return {"status": "error", "error_message": error_msg}


def block_keyword_guardrail(
    callback_context: CallbackContext, llm_request: LlmRequest
) -> Optional[LlmResponse]:
    """Inspects the latest user message for 'BLOCK'. If found, blocks the LLM call."""
    last_user_message_text = ""
    if llm_request.contents:
        for content in reversed(llm_request.contents):
            if content.role == "user" and content.parts:
                if content.parts[0].text:
                    last_user_message_text = content.parts[0].text
                    break
    keyword_to_block = "BLOCK"
    if keyword_to_block in last_user_message_text.upper():
        callback_context.state["guardrail_block_keyword_triggered"] = True
        return LlmResponse(
            content=types.Content(
                role="model",
                parts=[
                    types.Part(
                        text="I cannot process this request because it contains the blocked"
                        f" keyword '{keyword_to_block}'."
                    )
                ],
            )
        )
    return None


def block_paris_tool_guardrail(
    tool: BaseTool, args: dict, tool_context: ToolContext
) -> Optional[dict]:
    """Checks if 'get_weather_stateful' is called for 'Paris'. If so, blocks it."""
    tool_name = tool.name
    if tool_name == "get_weather_stateful":
        city_argument = args.get("city", "")
        if city_argument and city_argument.lower() == "paris":
            tool_context.state["guardrail_tool_block_triggered"] = True
            return {
                "status": "error",
                "error_message": (
                    f"Policy restriction: Weather checks for '{city_argument.capitalize()}'"
                    " are currently disabled by a tool guardrail."
                ),
            }
    return None


def build(scripted):
    call = types.Part.from_function_call
    greeting_agent = Agent(
        model=scripted(
            call(name="say_hello", args={"name": "Ada"}),
            "Hello, Ada!",
            # turn 2 reaches the greeting agent (it answered last): it hands back
            call(name="transfer_to_agent", args={"agent_name": "weather_agent_v6_tool_guardrail"}),
            model="gemini-2.0-flash",
        ),
        name="greeting_agent",
        instruction="You are the Greeting Agent. Your ONLY task is to provide a friendly greeting"
        " using the 'say_hello' tool. Do nothing else.",
        description="Handles simple greetings and hellos using the 'say_hello' tool.",
        tools=[say_hello],
    )
    farewell_agent = Agent(
        model=scripted(call(name="say_goodbye", args={}), "Goodbye!", model="gemini-2.0-flash"),
        name="farewell_agent",
        instruction="You are the Farewell Agent. Your ONLY task is to provide a polite goodbye"
        " message using the 'say_goodbye' tool. Do not perform any other actions.",
        description="Handles simple farewells and goodbyes using the 'say_goodbye' tool.",
        tools=[say_goodbye],
    )
    root_agent_model = scripted(
        call(name="transfer_to_agent", args={"agent_name": "greeting_agent"}),
        call(name="get_weather_stateful", args={"city": "London"}),
        "It is cloudy in London, 15°C.",
        call(name="get_weather_stateful", args={"city": "Paris"}),
        "Weather checks for Paris are disabled.",
        call(name="transfer_to_agent", args={"agent_name": "farewell_agent"}),
        model="gemini-2.0-flash",
    )
    return Agent(
        name="weather_agent_v6_tool_guardrail",
        model=root_agent_model,
        description="Main agent: Handles weather, delegates greetings/farewells, includes"
        " input AND tool guardrails.",
        instruction="You are the main Weather Agent. Provide weather using"
        " 'get_weather_stateful'. Delegate simple greetings to 'greeting_agent' and"
        " farewells to 'farewell_agent'. Handle only weather, greetings, and farewells.",
        tools=[get_weather_stateful],
        sub_agents=[greeting_agent, farewell_agent],
        output_key="last_weather_report",
        before_model_callback=block_keyword_guardrail,
        before_tool_callback=block_paris_tool_guardrail,
    )
