"""google/adk-python contributing/samples/simple_sequential_agent: tools in a sequence.

roll_agent then prime_agent, each with a tool and generate_content_config;
the second sees the first's tool call and result as other-agent context.
The die is fixed (the sample rolls random).
"""

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent
from google.genai import types

TURNS = ["Roll a 10 sided die and check if the result is prime."]


def roll_die(sides: int) -> int:
    """Roll a die and return the rolled result."""
    return 3


def check_prime(nums: list[int]) -> str:
    """Check if a given list of numbers are prime."""
    return f"{', '.join(str(num) for num in nums)} are prime numbers."


_SAFETY = types.GenerateContentConfig(
    safety_settings=[
        types.SafetySetting(  # avoid false alarm about rolling dice.
            category=types.HarmCategory.HARM_CATEGORY_DANGEROUS_CONTENT,
            threshold=types.HarmBlockThreshold.OFF,
        ),
    ]
)


def build(scripted):
    call = types.Part.from_function_call
    roll_agent = LlmAgent(
        name="roll_agent",
        description="Handles rolling dice of different sizes.",
        model=scripted(
            call(name="roll_die", args={"sides": 10}), "I rolled a 3.", model="gemini-2.0-flash"
        ),
        instruction="""
      You are responsible for rolling dice based on the user's request.
      When asked to roll a die, you must call the roll_die tool with the number of sides as an integer.
    """,
        tools=[roll_die],
        generate_content_config=_SAFETY,
    )
    prime_agent = LlmAgent(
        name="prime_agent",
        description="Handles checking if numbers are prime.",
        model=scripted(
            call(name="check_prime", args={"nums": [3]}), "3 is prime.", model="gemini-2.0-flash"
        ),
        instruction="""
      You are responsible for checking whether numbers are prime.
      When asked to check primes, you must call the check_prime tool with a list of integers.
    """,
        tools=[check_prime],
        generate_content_config=_SAFETY,
    )
    return SequentialAgent(
        name="simple_sequential_agent",
        sub_agents=[roll_agent, prime_agent],
        # The agents will run in the order provided: roll_agent -> prime_agent
    )
