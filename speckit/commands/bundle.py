"""``speckit bundle``: build what an instructor hands out (see :mod:`speckit.bundle`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import registry
from . import spec_option

KINDS = {
    "student": "an installable package and docs site for students: the specification, the supplied modules "
    "and the visible tests, no solution and no hidden test",
    "gradescope": "a Gradescope autograder zip: setup.sh, run_autograder, the rubric and the kit with its hidden tests",
    "classroom": "a GitHub Classroom starter repository: the skeleton, "
    "a README for students and an autograding workflow",
}


def register(commands: argparse._SubParsersAction) -> None:
    """Register ``speckit bundle KIND --spec NAME --out PATH``."""
    bundle = commands.add_parser(
        "bundle",
        help="build a student bundle, a Gradescope autograder or a GitHub Classroom starter repository",
        description="Build what an instructor hands out. "
        + " ".join(f"{kind}: {text}." for kind, text in KINDS.items()),
    )
    bundle.add_argument("kind", choices=sorted(KINDS), help="what to build")
    bundle.add_argument(
        "--out", required=True, metavar="PATH", help="where to write it (a new folder; for gradescope, a new .zip file)"
    )
    bundle.add_argument(
        "--rubric", default=None, metavar="FILE", help="gradescope: the rubric (default: the specification's own)"
    )
    spec_option(bundle)
    bundle.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..bundle import classroom, gradescope, student

    spec_name = args.spec or registry.main_spec()
    out = Path(args.out)
    if args.kind == "student":
        built = student.build(spec_name, out)
        print(
            f"Wrote {built.wheel.name} and the docs site to {out}; "
            f"left out {len(built.hidden_tests)} hidden test(s), the reference, the zoo and the rubric."
        )
    elif args.kind == "gradescope":
        gradescope.build(spec_name, out, rubric=args.rubric)
        print(
            f"Wrote {out}: upload it as the assignment's autograder "
            f"(Gradescope: Configure Autograder, zip file upload)."
        )
    else:
        classroom.build(spec_name, out)
        print(
            f"Wrote the starter repository to {out}: "
            f"push it to GitHub and make it the assignment's template in GitHub Classroom."
        )
    return 0
