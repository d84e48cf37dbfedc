"""`python -m bench.chaos {kill,outage,faults,scale,bad-inputs}`: reliability
scenarios that print figures (they assert nothing; not run in CI).

Runs on: process side. Each scenario starts its own dev server (free ports, its
own database file in a temporary folder) and worker processes. See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.chaos", description=__doc__)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (logs)")
    commands = parser.add_subparsers(dest="scenario", required=True)
    kill = commands.add_parser("kill", help="SIGKILL the worker at random moments")
    kill.add_argument("-n", type=int, default=20, help="invocations")
    kill.add_argument("--batch", type=int, default=5, help="invocations per kill")
    kill.add_argument("--seed", type=int, default=1)
    outage = commands.add_parser("outage", help="stop the Temporal server mid-run")
    outage.add_argument("-n", type=int, default=4, help="`client run`s per outage")
    outage.add_argument("--seconds", type=float, nargs="+", default=[5.0, 60.0])
    faults = commands.add_parser("faults", help="a model failing a share of its calls")
    faults.add_argument("-n", type=int, default=20, help="invocations")
    faults.add_argument("--rate", type=float, default=0.3)
    faults.add_argument("--seed", type=int, default=1)
    scale = commands.add_parser("scale", help="workers killed under load")
    scale.add_argument("--in-flight", type=int, default=100)
    scale.add_argument("--duration", type=float, default=90.0, help="seconds of new starts")
    scale.add_argument("--kill-every", type=float, default=10.0)
    scale.add_argument("--workers", type=int, default=3)
    scale.add_argument("--seed", type=int, default=1)
    scale.add_argument(
        "--store",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the session store: a SQLite file, or a throwaway PostgreSQL (Debian's package)",
    )
    commands.add_parser("bad-inputs", help="the CLI's answer to each bad input")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix=f"durable-adk-chaos-{args.scenario}-")
    print(f"logs: {folder}" if args.keep else "", end="\n" if args.keep else "")
    try:
        asyncio.run(_run(args, Path(folder)))
    finally:
        if not args.keep:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


async def _run(args: argparse.Namespace, tmp: Path) -> None:
    if args.scenario == "kill":
        from . import kill

        await kill.run(tmp, args.n, args.batch, args.seed)
    elif args.scenario == "outage":
        from . import outage

        await outage.run(tmp, args.n, args.seconds)
    elif args.scenario == "faults":
        from . import faults

        await faults.run(tmp, args.n, args.rate, args.seed)
    elif args.scenario == "scale":
        from . import scale

        await scale.run(
            tmp,
            args.in_flight,
            args.duration,
            args.kill_every,
            args.workers,
            args.seed,
            args.store,
        )
    else:
        from . import bad_inputs

        await bad_inputs.run(tmp)


if __name__ == "__main__":
    main()
