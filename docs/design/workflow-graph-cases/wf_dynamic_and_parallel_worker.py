from google.adk.agents import Context
from google.adk.workflow import START, Workflow, node

TURNS = ["a,b,c"]


def split(node_input: str) -> list:
    return node_input.split(",")


@node(parallel_worker=True)
def up(node_input: str) -> str:
    return node_input.upper()


def helper(node_input: str) -> str:
    return "<" + node_input + ">"


@node(rerun_on_resume=True)
async def fan(ctx: Context, node_input: list):
    out = []
    for x in node_input:
        out.append(await ctx.run_node(helper, x))
    return out


def build(scripted):
    return Workflow(name="wf", edges=[(START, split, up, fan)])
