"""``speckit coverage`` and ``speckit skeleton``: what a specification's tests cover, and a package to start from."""

from __future__ import annotations

import argparse
from pathlib import Path

import spec as spec_data

from .. import registry
from . import EXIT_FAILED, EXIT_OK, spec_option


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``speckit coverage`` and ``speckit skeleton``."""
    coverage = commands.add_parser(
        "coverage",
        help="list each documented operation with the tests that cover it",
        description=(
            "List every documented operation of a specification with the tests that declare they cover it "
            "(their covers markers), then the operations students write that no test covers and any marker "
            "naming an unknown operation. Operations of the types the kit supplies are listed, not required. "
            "Exit status 0 when every operation to implement is covered, 1 otherwise."
        ),
    )
    spec_option(coverage)
    coverage.set_defaults(run=_coverage)

    skeleton = commands.add_parser(
        "skeleton",
        help="write a package with every module and operation of a specification, ready to implement",
        description="Write a student skeleton: every module and function of the contract, "
        "with docstrings from the specification and bodies that raise NotImplementedError.",
    )
    skeleton.add_argument("directory", help="the folder to create (must be empty or absent)")
    spec_option(skeleton)
    skeleton.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not empty: add the modules it lacks; every existing file is kept as it is",
    )
    skeleton.set_defaults(run=_skeleton)


def _coverage(args: argparse.Namespace) -> int:
    from ..traceability import covering_tests, uncovered, unknown_names

    specification = spec_data.load(args.spec)
    coverage = covering_tests(specification)
    for op in specification.operations(extensions=True):
        tests = coverage.get(op.qualname, ())
        tag = (
            " [extension]"
            if op.extension
            else " [supplied by the kit]"
            if specification.type(op.type_name).supplied
            else ""
        )
        print(f"{op.qualname}{tag}: {len(tests)} test{'s' if len(tests) != 1 else ''}")
        for test in tests:
            print(f"    {test}")
    to_write = [op for op in specification.operations() if not specification.type(op.type_name).supplied]
    missing, unknown = uncovered(specification), unknown_names(specification)
    print(f"\n{len(to_write) - len(missing)} of {len(to_write)} documented operations to implement are covered.")
    for name in missing:
        print(f"not covered: {name}")
    for name in unknown:
        print(f"marker names an unknown operation: {name}")
    return EXIT_OK if not missing and not unknown else EXIT_FAILED


def _skeleton(args: argparse.Namespace) -> int:
    from ..skeleton import fill_skeleton

    specification = spec_data.load(args.spec)
    result = fill_skeleton(specification, Path(args.directory), force=args.force)
    spec_flag = "" if args.spec == registry.main_spec() else f" --spec {args.spec}"
    print(
        f"Wrote {len(result.written)} file{'s' if len(result.written) != 1 else ''} to {args.directory}"
        + "".join(f"\n  wrote  {p.name}" for p in result.written if args.force)
    )
    if result.unchanged:
        print(f"Left {len(result.unchanged)} as generated: {', '.join(p.name for p in result.unchanged)}")
    if result.kept:
        print(
            f"Kept {len(result.kept)} you changed (never overwritten; to regenerate one, move it aside and run again): "
            + ", ".join(p.name for p in result.kept)
        )
    print(f"Next: implement a type, then run `speckit check{spec_flag} {args.directory}`.")
    return EXIT_OK
