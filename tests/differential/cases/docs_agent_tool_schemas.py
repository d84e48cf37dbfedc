"""ADK docs, tools/function-tools (Agent-as-a-Tool) with schemas.

An AgentTool over an agent with input_schema and output_schema (its
declaration takes the input model's fields; its structured result becomes
the tool's response and the sub-agent's output_key), skip_summarization=True
on a second AgentTool, and generate_content_config on the tool agent.
"""

from google.adk.agents import Agent
from google.adk.tools.agent_tool import AgentTool
from google.genai import types
from pydantic import BaseModel, Field

TURNS = ["What's the capital of France, and summarize 'the cat sat on the mat'."]


class CountryInput(BaseModel):
    country: str = Field(description="The country to look up.")


class CapitalOutput(BaseModel):
    capital: str = Field(description="The capital city.")
    population_millions: float


def build(scripted):
    call = types.Part.from_function_call
    capital_agent = Agent(
        model=scripted('{"capital": "Paris", "population_millions": 2.1}', model="capital-model"),
        name="capital_agent",
        description="Finds the capital of a country.",
        instruction="Give the capital of {country?} as JSON.",
        input_schema=CountryInput,
        output_schema=CapitalOutput,
        output_key="capital_info",
        generate_content_config=types.GenerateContentConfig(temperature=0.0, max_output_tokens=100),
    )
    summary_agent = Agent(
        model=scripted("A cat sat.", model="summary-model"),
        name="summary_agent",
        instruction="You are an expert summarizer. Please read the following text and provide"
        " a concise summary.",
        description="Agent to summarize text",
    )
    return Agent(
        model=scripted(
            [
                call(name="capital_agent", args={"country": "France"}),
            ],
            call(name="summary_agent", args={"request": "the cat sat on the mat"}),
            model="root-model",
        ),
        name="root_agent",
        instruction="You are a helpful assistant. Use capital_agent for capitals and"
        " summary_agent to summarize.",
        tools=[
            AgentTool(agent=capital_agent),
            AgentTool(agent=summary_agent, skip_summarization=True),
        ],
    )
