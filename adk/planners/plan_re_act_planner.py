"""PlanReActPlanner: plan, act and reason in tagged text, then answer (google-adk 2.13's).

Runs on: activity side (the model step applies it: its instruction when the request is
built, its response processing on the model's answer).

The request carries the planning instruction (and no part is a thought: earlier
planning parts go back to the model as plain text); in the answer, text that starts
with a planning tag becomes a thought without its tags, text before
`/*FINAL_ANSWER*/` a thought and the rest the answer, and after the first function
call only the calls right after it are kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from google.genai import types

from .base_planner import BasePlanner

if TYPE_CHECKING:
    from ..agents.callback_context import CallbackContext
    from ..agents.readonly_context import ReadonlyContext
    from ..models.llm_request import LlmRequest

PLANNING_TAG = "/*PLANNING*/"
REPLANNING_TAG = "/*REPLANNING*/"
REASONING_TAG = "/*REASONING*/"
ACTION_TAG = "/*ACTION*/"
FINAL_ANSWER_TAG = "/*FINAL_ANSWER*/"

_INSTRUCTION = """
When answering the question, try to leverage the available tools to gather the information instead of your memorized knowledge.

Follow this process when answering the question: (1) first come up with a plan in natural language text format; (2) Then use tools to execute the plan and provide reasoning between tool code snippets to make a summary of current state and next step. Tool code snippets and reasoning should be interleaved with each other. (3) In the end, return one final answer.

Follow this format when answering the question: (1) The planning part should be under /*PLANNING*/. (2) The tool code snippets should be under /*ACTION*/, and the reasoning parts should be under /*REASONING*/. (3) The final answer part should be under /*FINAL_ANSWER*/.



Below are the requirements for the planning:
The plan is made to answer the user query if following the plan. The plan is coherent and covers all aspects of information from user query, and only involves the tools that are accessible by the agent. The plan contains the decomposed steps as a numbered list where each step should use one or multiple available tools. By reading the plan, you can intuitively know which tools to trigger or what actions to take.
If the initial plan cannot be successfully executed, you should learn from previous execution results and revise your plan. The revised plan should be under /*REPLANNING*/. Then use tools to follow the new plan.



Below are the requirements for the reasoning:
The reasoning makes a summary of the current trajectory based on the user query and tool outputs. Based on the tool outputs and plan, the reasoning also comes up with instructions to the next steps, making the trajectory closer to the final answer.



Below are the requirements for the final answer:
The final answer should be precise and follow query formatting requirements. Some queries may not be answerable with the available tools and information. In those cases, inform the user why you cannot process their query and ask for more information.



Below are the requirements for the tool code:

**Custom Tools:** The available tools are described in the context and can be directly used.
- Code must be valid self-contained Python snippets with no imports and no references to tools or Python libraries that are not in the context.
- You cannot use any parameters or fields that are not explicitly defined in the APIs in the context.
- The code snippets should be readable, efficient, and directly relevant to the user query and reasoning steps.
- When using the tools, you should use the library name together with the function name, e.g., vertex_search.search().
- If Python libraries are not provided in the context, NEVER write your own code other than the function calls using the provided tools.



VERY IMPORTANT instruction that you MUST follow in addition to the above instructions:

You should ask for clarification if you need more information to answer the question.
You should prefer using the information available in the context instead of repeated tool use.
"""


class PlanReActPlanner(BasePlanner):
    """Makes the model plan before it acts (no built-in thinking needed)."""

    _PLANNING_TAGS = (PLANNING_TAG, REASONING_TAG, ACTION_TAG, REPLANNING_TAG)

    def build_planning_instruction(
        self, readonly_context: ReadonlyContext, llm_request: LlmRequest
    ) -> str:
        return self._build_nl_planner_instruction()

    def process_planning_response(
        self, callback_context: CallbackContext, response_parts: list[types.Part]
    ) -> list[types.Part] | None:
        if not response_parts:
            return None
        kept: list[types.Part] = []
        for index, part in enumerate(response_parts):
            if part.function_call is None:
                self._handle_non_function_call_parts(part, kept)
                continue
            if not part.function_call.name:
                continue  # a nameless call is dropped
            # the first call and the calls right after it; nothing after them
            for following in response_parts[index:]:
                if following is not part and not following.function_call:
                    break
                kept.append(following)
            break
        return kept

    def _split_by_last_pattern(self, text: str, separator: str) -> tuple[str, str]:
        """(text up to and with the last `separator`, the text after it)."""
        index = text.rfind(separator)
        if index == -1:
            return text, ""
        return text[: index + len(separator)], text[index + len(separator) :]

    def _strip_planning_tags(self, text: str) -> str:
        for tag in self._PLANNING_TAGS:
            text = text.replace(tag, "")
        return text

    def _handle_non_function_call_parts(
        self, response_part: types.Part, preserved_parts: list[types.Part]
    ) -> None:
        text = response_part.text or ""
        if FINAL_ANSWER_TAG in text:
            reasoning, answer = self._split_by_last_pattern(text, FINAL_ANSWER_TAG)
            reasoning = self._strip_planning_tags(reasoning.removesuffix(FINAL_ANSWER_TAG))
            if reasoning:
                thought = types.Part(text=reasoning)
                self._mark_as_thought(thought)
                preserved_parts.append(thought)
            if answer:
                preserved_parts.append(types.Part(text=answer))
            return
        if text.startswith(self._PLANNING_TAGS):
            response_part.text = self._strip_planning_tags(text)
            self._mark_as_thought(response_part)
        preserved_parts.append(response_part)

    def _mark_as_thought(self, response_part: types.Part) -> None:
        if response_part.text is not None:
            response_part.thought = True

    def _build_nl_planner_instruction(self) -> str:
        return _INSTRUCTION
