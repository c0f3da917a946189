"""Write a student's starting package: every operation of the contract, none implemented.

``speckit skeleton mypkg`` calls :func:`write_skeleton`. Each type gets its module
(the contract's name for it) with one function per operation, with the contract's
parameters and a docstring taken from the specification data; each body raises
:class:`NotImplementedError`. A type the contract makes a class (``class = "Board"``)
is written as that class instead: its constructor is ``__init__`` and every other
operation a method whose first parameter, the instance, is ``self``.

What the specification states outright is written as stated, since students copy it
from the interface: the constants a type declares (``number_of_columns = 7``), the
enumerations it declares (``[[enumeration]]``: ``class SuitT(Enum)`` with its members)
and its exception classes (``[[exception]]``: ``class InvalidIndex(Exception)``, with
their other names bound to them) and, for a type with neither operations nor class (an
enumeration such as ``color_type``), one constant per component, whose value is the
student's to change.
Types the kit supplies (``supplied = true``) are written as modules re-exporting the
kit's own module, under the import name ``[kit] supplied`` declares
(:meth:`speckit.registry.Kit.supplied_module`), which a student bundle ships without the reference.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import attrs

import spec as spec_data
from spec import Enumeration, ExceptionClass, Operation, Parameter, Specification, TypeSpec

from .core import UserError
from .registry import kit

WIDTH = 88


class SkeletonError(UserError, ValueError):
    """The skeleton cannot be written where asked; the message says why."""


@attrs.frozen
class SkeletonWrite:
    """What writing a skeleton into a folder did to each of its files."""

    written: list[Path]
    """Files that were missing and are now written."""
    unchanged: list[Path]
    """Files already exactly as the skeleton writes them, left as they are."""
    kept: list[Path]
    """Files that differ from the skeleton (the student's work): never touched."""


def write_skeleton(spec: Specification, dest: Path, force: bool = False) -> list[Path]:
    """Write the skeleton package of ``spec`` into ``dest``; return the files written.

    ``dest`` must not exist, or be an empty folder; with ``force``, a non-empty folder is
    completed as :func:`fill_skeleton` does (only missing files are written).
    """
    return fill_skeleton(spec, dest, force=force).written


def fill_skeleton(spec: Specification, dest: Path, force: bool = False) -> SkeletonWrite:
    """Write the files of the skeleton of ``spec`` that ``dest`` lacks, and say what became of each.

    A file that exists is never overwritten: if it is exactly what the skeleton would
    write it is left as it is, and otherwise it is the student's work and is kept. So
    ``--force`` can add the modules of a type added later, or restore a deleted one,
    without risk. Without ``force``, ``dest`` must be absent or empty.
    """
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        raise SkeletonError(f"{dest} exists and is not a folder")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise SkeletonError(
            f"{dest} is not empty: choose a new folder, or use --force to add the modules it lacks"
            " (existing files are kept)"
        )
    dest.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    unchanged: list[Path] = []
    kept: list[Path] = []
    for name, text in skeleton_files(spec, dest.name).items():
        path = dest / name
        try:
            with path.open("x", encoding="utf-8") as f:  # "x": never replaces a file that appeared meanwhile
                f.write(text)
        except FileExistsError:
            (unchanged if _same_text(path, text) else kept).append(path)
        else:
            written.append(path)
    return SkeletonWrite(written, unchanged, kept)


def skeleton_files(spec: Specification, package: str) -> dict[str, str]:
    """The skeleton's files (name in the package folder, then text), in the order they are written."""
    declared = kit(spec.name)
    files = {"__init__.py": package_source(spec, package)}
    for t in spec.types:
        files[f"{t.module}.py"] = (
            supplied_source(t, declared.supplied_module(t.module)) if t.supplied else module_source(spec, t)
        )
    return files


def _same_text(path: Path, text: str) -> bool:
    """Whether the file at ``path`` holds exactly ``text`` (unreadable or binary counts as different)."""
    try:
        return path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def package_source(spec: Specification, package: str) -> str:
    """The package's ``__init__.py``: what it is and the contract it follows."""
    lines = [
        f"{package}: an implementation of the specification {spec.title!r}.",
        "",
        *_fill(spec.contract),
        "",
        f"Check it with: speckit check --spec {spec.name} {package}",
    ]
    return _docstring(lines, "") + "\n"


def supplied_source(t: TypeSpec, kit_module: str) -> str:
    """A supplied type's module: it re-exports the kit's module ``kit_module`` (``adt.display``)."""
    names = [t.class_name] if t.class_name else list(dict.fromkeys(op.name for op in t.operations))
    doc = _docstring(
        [
            f"{t.name}: supplied by the kit, so this module re-exports {kit_module}.",
            "",
            *_fill(t.purpose),
            "",
            "Do not implement it yourself: the conformance suite uses the kit's own.",
        ],
        "",
    )
    return (
        f"{doc}\n\n"
        f"import {kit_module} as _kit\n"
        f"from {kit_module} import *  # noqa: F403 -- re-exports the kit's module, all of it\n"
        f"from {kit_module} import {', '.join(names)}"
        "  # noqa: F401 -- the names the specification gives, re-exported\n\n"
        f"__all__ = sorted({{*getattr(_kit, '__all__', ()), {', '.join(repr(n) for n in names)}}})\n"
    )


def reference_copy(spec_name: str, destination: Path) -> Path:
    """A copy of the specification's reference at ``destination``, shaped as a student's package is:
    the modules of the supplied types re-export the kit's (:func:`supplied_source`), so what they
    define (a class, an exception class) is the kit's own, as the suite and the grading sandbox
    expect. The zoo and mutation analysis build every faulty variant on such a copy."""
    reference = kit(spec_name)
    shutil.copytree(reference.reference_dir, destination, ignore=shutil.ignore_patterns("__pycache__"))
    for t in spec_data.load(spec_name).types:
        if t.supplied and (destination / f"{t.module}.py").is_file():
            (destination / f"{t.module}.py").write_text(
                supplied_source(t, reference.supplied_module(t.module)), encoding="utf-8"
            )
    return destination


def module_source(spec: Specification, t: TypeSpec) -> str:
    """A student type's module: its constants, then one unimplemented function per operation
    or, for a class-based type, the class with one unimplemented method per operation."""
    header = [*_fill(f"{t.name}: {t.purpose}"), ""]
    header += _fill(f"Components: {'; '.join(t.components)}.") if t.components else []
    header += _fill(f"Range: {t.value_range}") + _fill(f"Default: {t.default}")
    if t.note:
        header += ["", *_fill(t.note)]
    used = [spec.type(name) for name in spec.uses(t.name)]
    if used:
        first = used[0]
        example = (
            f"from .{first.module} import {first.class_name}" if first.class_name else f"from . import {first.module}"
        )
        header += [
            "",
            *_fill(
                f"Uses: {', '.join(f'{u.name} ({u.module})' for u in used)}. Import the modules you"
                " need relatively (mind parameters that share a module's name), for example:"
            ),
            "",
            f"    {example}",
        ]
    parts = [_docstring(header, "")]
    bases = sorted({e.base for e in t.enumerations})
    if bases:
        parts[0] += f"\n\nfrom enum import {', '.join(bases)}"
    declared = constants_source(t)
    if declared:
        parts.append(declared)
    parts += [enumeration_source(e) for e in t.enumerations]
    parts += [exception_source(e) for e in t.exceptions]
    if t.class_name and not (t.class_name in {e.name for e in t.enumerations} and not t.operations):
        parts.append(class_source(spec, t))
    else:
        parts += [function_source(spec, op) for op in t.operations]
    return "\n\n\n".join(parts) + "\n"


_COMPONENT = re.compile(r"^([A-Za-z_]\w*)\s*:\s*(.*)$", re.DOTALL)


def constants(t: TypeSpec) -> list[tuple[str, str, str]]:
    """The module-level constants of a student type, as ``(name, Python value, description)``.

    They are the constants the specification declares (``number_of_columns = 7``) and, for
    a type with neither operations nor class (an enumeration), one constant per component
    named like an identifier (``red: the first player's colour``), whose placeholder value
    is its own name as a string.
    """
    found = {c.name: (c.name, repr(c.value), c.meaning) for c in t.constants}
    if not t.operations and not t.class_name:
        for component in t.components:
            match = _COMPONENT.match(component.strip())
            if match and match[1].isidentifier():
                found.setdefault(match[1], (match[1], repr(match[1]), match[2].strip()))
    return list(found.values())


def constants_source(t: TypeSpec) -> str:
    """The constants of :func:`constants` as assignments, each with its docstring ("" if none)."""
    entries = constants(t)
    if not entries:
        return ""
    lines = []
    if not t.operations and not t.class_name:
        lines += [
            f"# {line}"
            for line in _fill(
                "The names are the contract's; the values are placeholders you may change, as long as they"
                " follow the note above."
            )
        ]
    for name, value, description in entries:
        lines += [f"{name} = {value}", _docstring(_fill(description), ""), ""]
    return "\n".join(lines).rstrip("\n")


def enumeration_source(enumeration: Enumeration) -> str:
    """An enumeration as its class: an ``Enum``'s members numbered in order (any distinct
    values would do), an ``IntEnum``'s with the numbers the specification gives."""
    values = enumeration.values or range(1, len(enumeration.members) + 1)
    members = [f"    {name} = {value}" for name, value in zip(enumeration.members, values, strict=True)]
    doc = _docstring(_fill(enumeration.meaning), "    ")
    return f"class {enumeration.name}({enumeration.base}):\n{doc}\n\n" + "\n".join(members)


def exception_source(exception: ExceptionClass) -> str:
    """An exception class deriving from Exception, then each of its other names bound to it."""
    text = f"class {exception.name}(Exception):\n{_docstring(_fill(exception.meaning), '    ')}"
    aliases = "".join(
        f'\n\n\n{alias} = {exception.name}\n"""The same exception as {exception.name}."""'
        for alias in exception.aliases
    )
    return text + aliases


def class_source(spec: Specification, t: TypeSpec) -> str:
    """A class-based type as its class: the constructor is ``__init__``, the other operations methods.

    Each method takes ``self`` (the instance, the operation's first parameter) and then
    the operation's other parameters.
    """
    constructors = [op for op in t.operations if op.kind == "constructor"]
    if len(constructors) > 1:
        raise SkeletonError(
            f"{t.name} has {len(constructors)} constructors ({', '.join(op.name for op in constructors)}),"
            f" but class {t.class_name} has a single __init__: the skeleton cannot write it"
        )
    lines = [*_fill(f"{t.name}: {t.purpose}")]
    if t.components:
        lines += ["", "Components:"] + [line for c in t.components for line in _fill(c, "- ", "  ")]
    methods = []
    for op in t.operations:
        params = [_parameter(p) for p in op.params]
        if op.kind == "constructor":
            header, decorator = f"def __init__({', '.join(['self', *params])}):", ""
        elif params:
            header, decorator = f"def {op.name}({', '.join(['self', *params[1:]])}):", ""
        else:  # no instance to call it on: the class's own function
            header, decorator = f"def {op.name}():", "@staticmethod\n"
        body = callable_source(header, operation_doc(spec, op, t.class_name), op.qualname, "    ")
        methods.append(textwrap.indent(decorator, "    ") + body)
    return "\n\n".join([f"class {t.class_name}:\n{_docstring(lines, '    ')}", *methods])


def function_source(spec: Specification, op: Operation) -> str:
    """One operation as a function with the contract's signature and a spec docstring."""
    return callable_source(f"def {op.python_signature}:", operation_doc(spec, op), op.qualname, "")


def callable_source(header: str, doc: list[str], qualname: str, indent: str) -> str:
    """A ``def`` at ``indent`` with a docstring and a body raising NotImplementedError naming ``qualname``."""
    inner = indent + "    "
    return (
        f"{indent}{header}\n"
        f"{_docstring(doc, inner)}\n"
        f"{inner}raise NotImplementedError({qualname + ' is not implemented yet'!r})"
    )


def _parameter(p: Parameter) -> str:
    return f"{p.name}=None" if p.optional else p.name


def operation_doc(spec: Specification, op: Operation, class_name: str = "") -> list[str]:
    """The docstring lines of an operation: signatures, Python form, behaviour, preconditions, errata."""
    lines: list[str] = []
    if op.extension:
        lines += _fill(
            "OPTIONAL: a kit extension, not declared by the document. Delete this"
            f" {'method' if class_name else 'function'} if you do not implement it; its tests are then skipped,"
            " not failed."
        ) + [""]
    lines += list(op.signatures) + [""]
    if class_name:
        lines += [f"In Python: {op.python_form(class_name)}", ""]
    lines += _fill(op.behaviour)
    if op.note:
        lines += [""] + _fill(op.note)
    if op.preconditions:
        lines += ["", "Preconditions:"] + [line for p in op.preconditions for line in _fill(p, "- ", "  ")]
    if op.calls:
        lines += ["", *_fill(f"Documented to call: {', '.join(op.calls)}.")]
    errata = spec.errata_for(op.qualname)
    if errata:
        lines += ["", *_fill(f"Errata: {', '.join(e.id for e in errata)} (see the errata register).")]
    return lines


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
