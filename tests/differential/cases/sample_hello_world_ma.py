"""google/adk-python contributing/samples/hello_world_ma: a root delegating to two sub-agents.

Sub-agents with no model of their own (they inherit the root's), an
ExampleTool on the root, global_instruction, transfers root -> roll_agent ->
prime_agent (a peer transfer). The die is fixed (the sample rolls random).
"""

from google.adk.agents import Agent
from google.adk.examples.example import Example
from google.adk.tools.example_tool import ExampleTool
from google.genai import types

TURNS = ["Roll a 6-sided die.", "Is it a prime number?"]


def roll_die(sides: int) -> int:
    """Roll a die and return the rolled result."""
    return 5


def check_prime(nums: list[int]) -> str:
    """Check if a given list of numbers are prime."""
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
    roll_agent = Agent(
        name="roll_agent",
        description="Handles rolling dice of different sizes.",
        instruction="""
      You are responsible for rolling dice based on the user's request.
      When asked to roll a die, you must call the roll_die tool with the number of sides as an integer.
    """,
        tools=[roll_die],
        generate_content_config=_SAFETY,
    )
    example_tool = ExampleTool(
        examples=[
            Example(
                input=types.UserContent(parts=[types.Part(text="Roll a 6-sided die.")]),
                output=[types.ModelContent(parts=[types.Part(text="I rolled a 4 for you.")])],
            ),
            Example(
                input=types.UserContent(parts=[types.Part(text="Is 7 a prime number?")]),
                output=[types.ModelContent(parts=[types.Part(text="Yes, 7 is a prime number.")])],
            ),
            Example(
                input=types.UserContent(
                    parts=[types.Part(text="Roll a 10-sided die and check if it's prime.")]
                ),
                output=[
                    types.ModelContent(parts=[types.Part(text="I rolled an 8 for you.")]),
                    types.ModelContent(parts=[types.Part(text="8 is not a prime number.")]),
                ],
            ),
        ]
    )
    prime_agent = Agent(
        name="prime_agent",
        description="Handles checking if numbers are prime.",
        instruction="""
      You are responsible for checking whether numbers are prime.
      When asked to check primes, you must call the check_prime tool with a list of integers.
      Never attempt to determine prime numbers manually.
      Return the prime number results to the root agent.
    """,
        tools=[check_prime],
        generate_content_config=_SAFETY,
    )
    return Agent(
        model=scripted(
            call(name="transfer_to_agent", args={"agent_name": "roll_agent"}),
            call(name="roll_die", args={"sides": 6}),
            "I rolled a 5 for you.",
            call(name="transfer_to_agent", args={"agent_name": "prime_agent"}),
            call(name="check_prime", args={"nums": [5]}),
            "5 is a prime number.",
            model="gemini-1.5-flash",
        ),
        name="root_agent",
        instruction="""
      You are a helpful assistant that can roll dice and check if numbers are prime.
      You delegate rolling dice tasks to the roll_agent and prime checking tasks to the prime_agent.
    """,
        global_instruction=("You are DicePrimeBot, ready to roll dice and check prime numbers."),
        sub_agents=[roll_agent, prime_agent],
        tools=[example_tool],
        generate_content_config=_SAFETY,
    )
