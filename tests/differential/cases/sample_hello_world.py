"""google/adk-python contributing/samples/hello_world: dice and primes.

A sync tool writing a list to state through ToolContext, an async tool taking
list[int], generate_content_config with safety settings, a multi-line
instruction. The die is fixed (the sample rolls random.randint).
"""

from google.adk import Agent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = [
    "Hi",
    "Roll a die with 100 sides",
    "Roll a die again with 100 sides.",
    "What numbers did I got?",
]

_ROLLS = iter([17, 42])


def roll_die(sides: int, tool_context: ToolContext) -> int:
    """Roll a die and return the rolled result.

    Args:
      sides: The integer number of sides the die has.

    Returns:
      An integer of the result of rolling the die.
    """
    result = next(_ROLLS)
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
    primes = set()
    for number in nums:
        number = int(number)
        if number <= 1:
            continue
        is_prime = True
        for i in range(2, int(number**0.5) + 1):
            if number % i == 0:
                is_prime = False
                break
        if is_prime:
            primes.add(number)
    return (
        "No prime numbers found."
        if not primes
        else f"{', '.join(str(num) for num in primes)} are prime numbers."
    )


def build(scripted):
    call = types.Part.from_function_call
    return Agent(
        model=scripted(
            "Hello! Ask me to roll a die.",
            call(name="roll_die", args={"sides": 100}),
            "You rolled 17.",
            call(name="roll_die", args={"sides": 100}),
            call(name="check_prime", args={"nums": [17, 42]}),
            "You rolled 42; 17 is prime.",
            "You got 17 and 42.",
            model="gemini-2.0-flash",
        ),
        name="hello_world_agent",
        description=("hello world agent that can roll a dice of 8 sides and check prime numbers."),
        instruction="""
      You roll dice and answer questions about the outcome of the dice rolls.
      You can roll dice of different sizes.
      You can use multiple tools in parallel by calling functions in parallel(in one request and in one round).
      It is ok to discuss previous dice roles, and comment on the dice rolls.
      When you are asked to roll a die, you must call the roll_die tool with the number of sides. Be sure to pass in an integer. Do not pass in a string.
      You should never roll a die on your own.
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
    )
