"""google/adk-python contributing/samples/workflow_agent_seq: write, review, refactor.

A SequentialAgent of three LlmAgents passing work through output_key and
{state} templating inside fenced code blocks.
"""

from google.adk.agents.llm_agent import LlmAgent
from google.adk.agents.sequential_agent import SequentialAgent

TURNS = ["Write a function that adds two numbers."]

CODE = "```python\ndef add(a, b):\n    return a + b\n```"


def build(scripted):
    code_writer_agent = LlmAgent(
        name="CodeWriterAgent",
        model=scripted(CODE, model="gemini-1.5-flash"),
        instruction="""You are a Python Code Generator.
Based *only* on the user's request, write Python code that fulfills the requirement.
Output *only* the complete Python code block, enclosed in triple backticks (```python ... ```).
Do not add any other text before or after the code block.
""",
        description="Writes initial Python code based on a specification.",
        output_key="generated_code",  # Stores output in state['generated_code']
    )

    code_reviewer_agent = LlmAgent(
        name="CodeReviewerAgent",
        model=scripted("* Add type hints and a docstring.", model="gemini-2.0-flash"),
        instruction="""You are an expert Python Code Reviewer.
    Your task is to provide constructive feedback on the provided code.

    **Code to Review:**
    ```python
    {generated_code}
    ```

**Output:**
Provide your feedback as a concise, bulleted list. Focus on the most important points for improvement.
If the code is excellent and requires no changes, simply state: "No major issues found."
""",
        description="Reviews code and provides feedback.",
        output_key="review_comments",  # Stores output in state['review_comments']
    )

    code_refactorer_agent = LlmAgent(
        name="CodeRefactorerAgent",
        model=scripted(
            '```python\ndef add(a: int, b: int) -> int:\n    """Adds."""\n    return a + b\n```',
            model="gemini-2.0-flash",
        ),
        instruction="""You are a Python Code Refactoring AI.
Your goal is to improve the given Python code based on the provided review comments.

  **Original Code:**
  ```python
  {generated_code}
  ```

  **Review Comments:**
  {review_comments}

**Task:**
Carefully apply the suggestions from the review comments to refactor the original code.
""",
        description="Refactors code based on review comments.",
        output_key="refactored_code",  # Stores output in state['refactored_code']
    )

    code_pipeline_agent = SequentialAgent(
        name="CodePipelineAgent",
        sub_agents=[code_writer_agent, code_reviewer_agent, code_refactorer_agent],
        description=("Executes a sequence of code writing, reviewing, and refactoring."),
        # The agents will run in the order provided: Writer -> Reviewer -> Refactorer
    )

    return code_pipeline_agent
