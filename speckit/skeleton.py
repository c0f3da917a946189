"""Write a student's starting package: every operation of the contract, none implemented.

``speckit skeleton mypkg`` calls :func:`write_skeleton`. Each type gets its module
(the contract's snake_case name) with one function per operation, with the contract's
parameters and a docstring taken from the specification data; each body raises
:class:`NotImplementedError`. Types the kit supplies (``supplied = true``, such as
Display and Input) are written as modules re-exporting the kit's own.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from spec import Operation, Specification, TypeSpec

WIDTH = 88
KIT_PACKAGE = "adt"
"""The package holding the kit's implementations, which supplied types re-export."""


class SkeletonError(ValueError):
    """The skeleton cannot be written where asked; the message says why."""


def write_skeleton(spec: Specification, dest: Path, force: bool = False) -> list[Path]:
    """Write the skeleton package of ``spec`` into ``dest``; return the files written.

    ``dest`` must not exist, or be an empty folder; with ``force``, files of the same
    names in a non-empty folder are overwritten (others are left alone).
    """
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise SkeletonError(f"{dest} exists and is not a folder")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise SkeletonError(f"{dest} is not empty: choose a new folder, or use --force to overwrite its modules")
    dest.mkdir(parents=True, exist_ok=True)
    files = {"__init__.py": package_source(spec, dest.name)}
    for t in spec.types:
        files[f"{t.module}.py"] = supplied_source(t) if t.supplied else module_source(spec, t)
    written = []
    for name, text in files.items():
        path = dest / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def package_source(spec: Specification, package: str) -> str:
    """The package's ``__init__.py``: what it is and the contract it follows."""
    lines = [
        f"{package}: an implementation of the specification {spec.title!r}.",
        "",
        *_fill(spec.contract),
        "",
        f"Check it with: speckit check {package}",
    ]
    return _docstring(lines, "") + "\n"


def supplied_source(t: TypeSpec) -> str:
    """A supplied type's module: it re-exports the kit's implementation."""
    kit = f"{KIT_PACKAGE}.{t.module}"
    names = [op.name for op in t.operations]
    doc = _docstring([f"{t.name}: supplied by the kit, so this module re-exports {kit}.", "", *_fill(t.purpose),
                      "", "Do not implement it yourself: the conformance suite uses the kit's own."], "")
    return (
        f"{doc}\n\n"
        f"import {kit} as _kit\n"
        f"from {kit} import *  # noqa: F401,F403\n"
        f"from {kit} import {', '.join(names)}  # noqa: F401\n\n"
        f"__all__ = sorted({{*getattr(_kit, '__all__', ()), {', '.join(repr(n) for n in names)}}})\n"
    )


def module_source(spec: Specification, t: TypeSpec) -> str:
    """A student type's module: one unimplemented function per operation."""
    header = [*_fill(f"{t.name}: {t.purpose}"), ""]
    header += [f"Components: {'; '.join(t.components)}."] if t.components else []
    header += _fill(f"Range: {t.value_range}") + _fill(f"Default: {t.default}")
    if t.note:
        header += ["", *_fill(t.note)]
    uses = [f"{name} ({spec.type(name).module})" for name in spec.uses(t.name)]
    if uses:
        header += ["", *_fill(f"Uses: {', '.join(uses)}. Import the modules you need, e.g. `from . import index`"
                              " (mind parameters that share a module's name).")]
    parts = [_docstring(header, "")]
    parts += [function_source(spec, op) for op in t.operations]
    return "\n\n\n".join(parts) + "\n"


def function_source(spec: Specification, op: Operation) -> str:
    """One operation as a function with the contract's signature and a spec docstring."""
    lines: list[str] = []
    if op.extension:
        lines += _fill(
            "OPTIONAL: a kit extension, not declared by the document. Delete this function if you do not"
            " implement it; its tests are then skipped, not failed."
        ) + [""]
    lines += list(op.signatures) + [""] + _fill(op.behaviour)
    if op.note:
        lines += [""] + _fill(op.note)
    if op.preconditions:
        lines += ["", "Preconditions:"] + [line for p in op.preconditions for line in _fill(p, "- ", "  ")]
    if op.calls:
        lines += ["", *_fill(f"Documented to call: {', '.join(op.calls)}.")]
    errata = spec.errata_for(op.qualname)
    if errata:
        lines += ["", *_fill(f"Errata: {', '.join(e.id for e in errata)} (see the errata register).")]
    return (
        f"def {op.python_signature}:\n"
        f"{_docstring(lines, '    ')}\n"
        f"    raise NotImplementedError({op.qualname + ' is not implemented yet'!r})"
    )


def _fill(text: str, first: str = "", rest: str = "") -> list[str]:
    """Re-wrap each paragraph of ``text`` (the spec's line breaks are not meaningful)."""
    out: list[str] = []
    for i, paragraph in enumerate(p for p in text.split("\n\n") if p.strip()):
        if i:
            out.append("")
        out += textwrap.wrap(" ".join(paragraph.split()), WIDTH - 8, initial_indent=first, subsequent_indent=rest)
    return out


def _docstring(lines: list[str], indent: str) -> str:
    """A triple-quoted docstring of ``lines`` at ``indent``."""
    safe = [line.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') for line in lines]
    while safe and not safe[-1]:
        safe.pop()
    first, rest = safe[0], safe[1:]
    if not rest:
        return f'{indent}"""{first}"""'
    body = "\n".join(f"{indent}{line}" if line else "" for line in rest)
    return f'{indent}"""{first}\n{body}\n{indent}"""'
