from google.adk.agents import Context
from google.adk.events import RequestInput
from google.adk.workflow import START, Workflow, node
from google.genai import types


def answer(events):
    fc = [p.function_call for e in events if e.content for p in e.content.parts if p.function_call][
        -1
    ]
    return types.Content(
        role="user",
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    id=fc.id, name=fc.name, response={"result": "yes"}
                )
            )
        ],
    )


TURNS = ["order 3 widgets", answer]


def plan(node_input: str):
    return {"item": "widget", "qty": 3}


@node(rerun_on_resume=False)
def approve(node_input: dict):
    yield RequestInput(interrupt_id="ask1", message=f"Approve {node_input}?")


def ship(ctx: Context, node_input):
    return f"shipped ({node_input})"


def build(scripted):
    return Workflow(name="wf", edges=[(START, plan, approve, ship)])
