"""google/adk-python contributing/samples/callbacks: every callback kind, lists of them.

Async before/after model callbacks returning None, lists of agent and tool
callbacks where the second after_agent returns ModelContent and the second
after_tool returns a new dict. The die is fixed (the sample rolls random).
"""

from google.adk import Agent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["Roll a 8 sided die and check if it is prime", "thanks"]

CALLED = []


def roll_die(sides: int, tool_context: ToolContext) -> int:
    """Roll a die and return the rolled result.

    Args:
      sides: The integer number of sides the die has.

    Returns:
      An integer of the result of rolling the die.
    """
    result = 7
    if not "rolls" in tool_context.state:  # noqa: E713 (as the sample writes it)
        tool_context.state["rolls"] = []

    tool_context.state["rolls"] = tool_context.state["rolls"] + [result]
    return result


async def check_prime(nums: list[int]) -> str:
    """Check if a given list of numbers are prime.

    Args:
      nums: The list of numbers to check.

    Returns:
      A str indicating which number is prime.
    """
    return f"{', '.join(str(num) for num in nums)} are prime numbers."


def _mark(callback_context, name):
    # the sample prints; state shows the order on both sides
    callback_context.state["calls"] = callback_context.state.get("calls", []) + [name]


async def before_agent_callback(callback_context):
    return None


async def after_agent_callback(callback_context):
    return None


async def before_model_callback(callback_context, llm_request):
    _mark(callback_context, "before_model")
    return None


async def after_model_callback(callback_context, llm_response):
    _mark(callback_context, "after_model")
    return None


def after_agent_cb1(callback_context):
    _mark(callback_context, "after_agent_cb1")


def after_agent_cb2(callback_context):
    _mark(callback_context, "after_agent_cb2")
    # ModelContent (or Content with role set to 'model') must be returned.
    # Otherwise, the event will be excluded from the context in the next turn.
    return types.ModelContent(
        parts=[
            types.Part(
                text="(stopped) after_agent_cb2",
            ),
        ],
    )


def after_agent_cb3(callback_context):
    _mark(callback_context, "after_agent_cb3")


def before_agent_cb1(callback_context):
    _mark(callback_context, "before_agent_cb1")


def before_agent_cb2(callback_context):
    _mark(callback_context, "before_agent_cb2")


def before_agent_cb3(callback_context):
    _mark(callback_context, "before_agent_cb3")


def before_tool_cb1(tool, args, tool_context):
    _mark(tool_context, "before_tool_cb1")


def before_tool_cb2(tool, args, tool_context):
    _mark(tool_context, "before_tool_cb2")


def before_tool_cb3(tool, args, tool_context):
    _mark(tool_context, "before_tool_cb3")


def after_tool_cb1(tool, args, tool_context, tool_response):
    _mark(tool_context, "after_tool_cb1")


def after_tool_cb2(tool, args, tool_context, tool_response):
    _mark(tool_context, "after_tool_cb2")
    return {"test": "after_tool_cb2", "response": tool_response}


def after_tool_cb3(tool, args, tool_context, tool_response):
    _mark(tool_context, "after_tool_cb3")


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        model=scripted(
            call(name="roll_die", args={"sides": 8}),
            call(name="check_prime", args={"nums": [7]}),
            "You rolled a 7, which is prime.",
            "You're welcome.",
            model="gemini-2.0-flash",
        ),
        name="data_processing_agent",
        description=("hello world agent that can roll a dice of 8 sides and check prime numbers."),
        instruction="""
      You roll dice and answer questions about the outcome of the dice rolls.
    """,
        tools=[
            roll_die,
            check_prime,
        ],
        generate_content_config=types.GenerateContentConfig(
            safety_settings=[
                types.SafetySetting(  # avoid false alarm about rolling dice.
                    category=types.HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT,
                    threshold=types.HarmBlockThreshold.OFF,
                ),
            ]
        ),
        before_agent_callback=[
            before_agent_cb1,
            before_agent_cb2,
            before_agent_cb3,
        ],
        after_agent_callback=[after_agent_cb1, after_agent_cb2, after_agent_cb3],
        before_model_callback=before_model_callback,
        after_model_callback=after_model_callback,
        before_tool_callback=[before_tool_cb1, before_tool_cb2, before_tool_cb3],
        after_tool_callback=[after_tool_cb1, after_tool_cb2, after_tool_cb3],
    )
