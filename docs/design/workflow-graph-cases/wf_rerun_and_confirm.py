from google.adk.agents import Context
from google.adk.events import RequestInput
from google.adk.workflow import START, Workflow, node
from google.genai import types


def answer(value):
    def make(events):
        fc = [
            p.function_call for e in events if e.content for p in e.content.parts if p.function_call
        ][-1]
        return types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(id=fc.id, name=fc.name, response=value)
                )
            ],
        )

    return make


TURNS = ["start", answer({"result": "42"}), answer({"confirmed": True})]


@node(rerun_on_resume=True)
async def ask(ctx: Context, node_input):
    got = ctx.resume_inputs.get("q1")
    if got is None:
        yield RequestInput(interrupt_id="q1", message="A number?", response_schema=int)
        return
    yield {"n": got}


@node(require_confirmation=True)
def risky(n: int = 0) -> str:
    return f"did {n}"


def build(scripted):
    return Workflow(name="wf", edges=[(START, ask, risky)])
