from google.adk.agents import Context
from google.adk.events import RequestInput
from google.adk.workflow import START, Workflow, node
from google.genai import types


def answer_first(events):
    return types.Content(
        role="user",
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    id="ask-1", name="adk_request_input", response={"result": "yes"}
                )
            )
        ],
    )


TURNS = ["first", "second", answer_first]


@node(rerun_on_resume=False)
def approve(ctx: Context, node_input):
    n = ctx.state.get("asks", 0) + 1
    ctx.state["asks"] = n
    yield RequestInput(interrupt_id=f"ask-{n}", message="ok?")


def ship(node_input):
    return f"shipped {node_input}"


def build(scripted):
    return Workflow(name="wf", edges=[(START, approve, ship)])
