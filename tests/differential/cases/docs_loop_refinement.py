"""ADK docs, agents/workflow-agents/loop-agents: the iterative document refinement.

A SequentialAgent: an initial writer (output_key), then a LoopAgent of a
critic and a refiner whose instructions template {current_document} and
{criticism}; the refiner's own exit_loop function sets
tool_context.actions.escalate (the docs' pattern, not the built-in tool).
"""

from google.adk.agents import LlmAgent, LoopAgent, SequentialAgent
from google.adk.tools.tool_context import ToolContext
from google.genai import types

TURNS = ["Write a short story about a cat."]

STATE_CURRENT_DOC = "current_document"
STATE_CRITICISM = "criticism"
COMPLETION_PHRASE = "No major issues found."


def exit_loop(tool_context: ToolContext):
    """Call this function ONLY when the critique indicates no further changes are needed, signaling the iterative process should end."""
    tool_context.actions.escalate = True
    # Return empty dict as tools should typically return JSON-serializable output
    return {}


def build(scripted):
    call = types.Part.from_function_call
    initial_writer_agent = LlmAgent(
        name="InitialWriterAgent",
        model=scripted("The cat sat.", model="gemini-2.0-flash"),
        include_contents="none",
        instruction="""You are a Creative Writing Assistant tasked with starting a story.
    Write the *first draft* of a short story (aim for 2-4 sentences).
    Base the content *only* on the topic provided below. Try to introduce a specific element (like a character, a setting detail, or a starting action) to make it engaging.
    Topic: {initial_topic?}

    Output *only* the story/document text. Do not add introductions or explanations.
""",
        description="Writes the initial document draft based on the topic, aiming for some initial substance.",
        output_key=STATE_CURRENT_DOC,
    )
    critic_agent_in_loop = LlmAgent(
        name="CriticAgent",
        model=scripted("Add where it sat.", COMPLETION_PHRASE, model="gemini-2.0-flash"),
        include_contents="none",
        instruction=f"""You are a Constructive Critic AI reviewing a short document draft (typically 2-6 sentences). Your goal is balanced feedback.

    **Document to Review:**
    ```
    {{current_document}}
    ```

    IF you identify 1-2 *clear and actionable* ways the document could be improved:
    Provide these specific suggestions concisely. Output *only* the critique text.

    ELSE IF the document is coherent, addresses the topic adequately for its length, and has no glaring errors or obvious omissions:
    Respond *exactly* with the phrase "{COMPLETION_PHRASE}" and nothing else.
""",
        description="Reviews the current draft, providing critique if clear improvements are needed, otherwise signals completion.",
        output_key=STATE_CRITICISM,
    )
    refiner_agent_in_loop = LlmAgent(
        name="RefinerAgent",
        model=scripted(
            "The cat sat on the mat.",
            call(name="exit_loop", args={}),
            # the docs' exit_loop does not skip summarization: the model answers its result
            "Done.",
            model="gemini-2.0-flash",
        ),
        # Relies solely on state via placeholders
        include_contents="none",
        instruction=f"""You are a Creative Writing Assistant refining a document based on feedback OR exiting the process.
    **Current Document:**
    ```
    {{current_document}}
    ```
    **Critique/Suggestions:**
    {{criticism}}

    **Task:**
    Analyze the 'Critique/Suggestions'.
    IF the critique is *exactly* "{COMPLETION_PHRASE}":
    You MUST call the 'exit_loop' function. Do not output any text.
    ELSE (the critique contains actionable feedback):
    Carefully apply the suggestions to improve the 'Current Document'. Output *only* the refined document text.
""",
        description="Refines the document based on critique, or calls exit_loop if critique indicates completion.",
        tools=[exit_loop],
        output_key=STATE_CURRENT_DOC,
    )
    refinement_loop = LoopAgent(
        name="RefinementLoop",
        sub_agents=[critic_agent_in_loop, refiner_agent_in_loop],
        max_iterations=5,
    )
    return SequentialAgent(
        name="IterativeWritingPipeline",
        sub_agents=[initial_writer_agent, refinement_loop],
        description="Writes an initial document and then iteratively refines it with critique using an exit tool.",
    )
