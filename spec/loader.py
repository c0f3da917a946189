"""Read a specification's TOML files into :mod:`spec.model` values, checking them.

A specification is a folder under ``spec/`` holding ``spec.toml`` (title, contract,
the order of the type files), one TOML file per type, and ``errata.toml``. The kit's own
are in this package's folder; a specification kept elsewhere is found through
:data:`KITS_VARIABLE`.
Every mistake in the data is reported as a :class:`SpecDataError` naming the file
and the entry, so a reviewer can fix the data without reading this code. Every table
may hold only the keys its :mod:`spec.model` class declares (:func:`spec.model.keys_of`),
so a misspelt key is refused, never read as absent.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from speckit.core import UserError

from .model import (
    CodeRule,
    Constant,
    Enumeration,
    Erratum,
    ErratumKind,
    ExceptionClass,
    KitDeclaration,
    Mirror,
    Operation,
    OperationKind,
    Parameter,
    Side,
    Specification,
    TypeSpec,
    keys_of,
    shapes_of,
    tables_of,
)

Table = dict[str, Any]
"""A TOML table as :mod:`tomllib` reads it."""

DATA_ROOT = Path(__file__).parent
"""The folder of the kit's own specifications."""
KITS_VARIABLE = "SPECKIT_KITS"
"""The environment variable naming more kit roots, separated by ``os.pathsep``: folders each holding
``spec/<name>/`` for specifications kept outside the kit, and the parts their ``[kit]`` tables name
(paths relative to that root, the reference a package in it). The kit's own come first."""
KINDS = frozenset(kind.value for kind in OperationKind)
ERRATUM_KINDS = frozenset(kind.value for kind in ErratumKind)
_SIGNATURE = re.compile(r"^(?P<name>\w+)\((?P<params>[\w,\s]*)\)\s*->\s*(?P<result>\w+)$")


class SpecDataError(UserError, ValueError):
    """The specification data is malformed; the message names the file and entry."""


def spec_folders() -> tuple[Path, ...]:
    """The folders holding specifications: the kit's own, then ``spec/`` of each root :data:`KITS_VARIABLE` names."""
    extra = (Path(root) / "spec" for root in os.environ.get(KITS_VARIABLE, "").split(os.pathsep) if root)
    return (DATA_ROOT, *extra)


def available() -> tuple[str, ...]:
    """The names of the specifications the kit knows: its own and those of :data:`KITS_VARIABLE`'s roots."""
    return tuple(sorted({p.parent.name for base in spec_folders() for p in base.glob("*/spec.toml")}))


def folder(name: str) -> Path:
    """The folder of the specification called ``name`` (the first one found, the kit's own first)."""
    found = next((base / name for base in spec_folders() if (base / name / "spec.toml").is_file()), None)
    if found is None:
        known = ", ".join(available()) or "none"
        raise SpecDataError(f"no specification called {name!r} (known: {known})")
    return found


@cache
def load(name: str) -> Specification:
    """Load and check the specification called ``name`` (a folder under ``spec/``)."""
    home = folder(name)
    meta = _read(home / "spec.toml")
    _known_keys("spec.toml", meta, keys_of(Specification) | tables_of(Specification), Specification)
    types = tuple(_load_type(home / f"{module}.toml") for module in meta["types"])
    errata = _load_errata(home / "errata.toml")
    spec = Specification(
        name=name,
        title=meta["title"],
        source=meta["source"],
        summary=meta["summary"].strip(),
        contract=meta["contract"].strip(),
        primitives=dict(meta.get("primitives", {})),
        types=types,
        errata=errata,
        kit=_load_kit(meta.get("kit")),
        rules=tuple(_load_rule(entry) for entry in meta.get("rule", [])),
    )
    _check_references(spec)
    return spec


def _load_kit(table: Table | None) -> KitDeclaration:
    if not table:
        raise SpecDataError("spec.toml: no [kit] table (reference, suite, zoo, readings, alternative, rubric)")
    known = keys_of(KitDeclaration)
    unknown = sorted(set(table) - known)
    if unknown:
        raise SpecDataError(f"spec.toml: [kit] has unknown keys {unknown} (known: {sorted(known)})")
    for key, shape in shapes_of(KitDeclaration).items():
        if key in table and not isinstance(table[key], shape):
            raise SpecDataError(f"spec.toml: [kit] {key} must be {_SHAPE_WORDS[shape]}")
    try:
        return KitDeclaration(
            reference=table["reference"],
            suite=table["suite"],
            zoo=table["zoo"],
            readings=table["readings"],
            alternative=table["alternative"],
            rubric=table["rubric"],
            supplied=tuple(table.get("supplied", ())),
            served=tuple(table.get("served", ())),
            mirrors=_load_mirrors(table.get("mirrors", {}), table.get("served", ())),
            other_tests=tuple(table.get("other_tests", ())),
            time_limits={name: float(seconds) for name, seconds in table.get("time_limits", {}).items()},
            scripts=tuple(table.get("scripts", ())),
            student_scripts=dict(table.get("student_scripts", {})),
            results_by_value=tuple(table.get("results_by_value", ())),
            main=bool(table.get("main", False)),
            mutants=table.get("mutants", ""),
        )
    except KeyError as e:
        raise SpecDataError(f"spec.toml: [kit] misses the key {e.args[0]!r}") from None


def _load_mirrors(table: Table, served: list[str] | tuple[str, ...]) -> dict[str, Mirror]:
    """``[kit.mirrors]``: how each served class it names travels to the sandbox's server."""
    mirrors = {}
    for name, entry in table.items():
        where = f"spec.toml: [kit.mirrors] {name!r}"
        if name not in served:
            raise SpecDataError(f"{where}: not a served class (served: {list(served)})")
        _checked(where, entry, Mirror)
        fields = entry.get("fields")
        mirrors[name] = Mirror(
            stream=entry.get("stream", ""),
            lines=entry.get("lines", ""),
            fields=None if fields is None else tuple(fields),
        )
    return mirrors


RULE_SYNTAX = frozenset({"dict", "set"})


def _load_rule(entry: Table) -> CodeRule:
    where = f"spec.toml: rule {entry.get('id', '?')}"
    _checked(where, entry, CodeRule)
    try:
        rule = CodeRule(
            id=entry["id"],
            title=entry["title"],
            type_name=entry["type"],
            operations=tuple(entry["operations"]),
            says=entry["says"].strip(),
            follow_imports=bool(entry.get("follow_imports", False)),
            **{
                key: tuple(entry.get(key, ()))
                for key in ("forbid_names", "forbid_syntax", "forbid_imports", "allow_imports", "require_attributes")
            },
        )
    except KeyError as e:
        raise SpecDataError(f"{where}: missing key {e.args[0]!r}") from None
    if not set(rule.forbid_syntax) <= RULE_SYNTAX:
        raise SpecDataError(f"{where}: forbid_syntax may hold only {sorted(RULE_SYNTAX)}")
    return rule


def _read(path: Path) -> Table:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise SpecDataError(f"{path.name}: file is missing") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecDataError(f"{path.name}: not valid TOML: {e}") from None


def _load_type(path: Path) -> TypeSpec:
    data = _read(path)
    _known_keys(path.name, data, {"type"} | tables_of(TypeSpec))
    head = data.get("type")
    if not head:
        raise SpecDataError(f"{path.name}: no [type] table")
    _checked(f"{path.name}: [type]", head, TypeSpec)
    name = head["name"]
    module = path.stem
    expected = head.get("module", module_name(name))
    if module != expected:
        raise SpecDataError(f"{path.name}: type {name} belongs in {expected}.toml")
    operations = tuple(_load_operation(path.name, name, entry) for entry in data.get("operation", []))
    names = [op.name for op in operations]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        raise SpecDataError(f"{path.name}: operations listed twice: {', '.join(sorted(duplicated))}")
    return TypeSpec(
        name=name,
        module=module,
        purpose=head["purpose"].strip(),
        components=tuple(head.get("components", ())),
        value_range=head.get("range", "").strip(),
        default=head.get("default", "").strip(),
        imports=tuple(head.get("imports", ())),
        operations=operations,
        supplied=head.get("supplied", False),
        note=head.get("note", "").strip(),
        class_name=head.get("class", ""),
        constants=tuple(_load_constant(path.name, entry) for entry in data.get("constant", [])),
        enumerations=tuple(_load_enumeration(path.name, entry) for entry in data.get("enumeration", [])),
        exceptions=tuple(_load_exception(path.name, entry) for entry in data.get("exception", [])),
    )


ENUMERATION_BASES = ("Enum", "IntEnum")


def _load_enumeration(filename: str, entry: Table) -> Enumeration:
    where = f"{filename}: enumeration {entry.get('name', '?')!r}"
    _checked(where, entry, Enumeration)
    try:
        name, members, meaning = entry["name"], tuple(entry["members"]), entry["meaning"].strip()
    except KeyError as e:
        raise SpecDataError(f"{where}: missing key {e.args[0]!r}") from None
    base, values = entry.get("base", "Enum"), tuple(entry.get("values", ()))
    names = [name, *members]
    if not all(isinstance(n, str) and n.isidentifier() for n in names):
        raise SpecDataError(f"{where}: the name and every member must be Python identifiers")
    if not members or len(set(members)) != len(members):
        raise SpecDataError(f"{where}: members must be given, each once")
    if base not in ENUMERATION_BASES:
        raise SpecDataError(f"{where}: base {base!r} is not one of {', '.join(ENUMERATION_BASES)}")
    if (
        (base == "IntEnum") != bool(values)
        or values
        and (len(values) != len(members) or not all(type(v) is int for v in values))
    ):
        raise SpecDataError(f"{where}: an IntEnum gives one whole number per member in values, an Enum none")
    return Enumeration(name, members, meaning, base, values)


def _load_exception(filename: str, entry: Table) -> ExceptionClass:
    where = f"{filename}: exception {entry.get('name', '?')!r}"
    _checked(where, entry, ExceptionClass)
    try:
        name, meaning = entry["name"], entry["meaning"].strip()
    except KeyError as e:
        raise SpecDataError(f"{where}: missing key {e.args[0]!r}") from None
    aliases = tuple(entry.get("aliases", ()))
    if not all(isinstance(n, str) and n.isidentifier() for n in (name, *aliases)):
        raise SpecDataError(f"{where}: the name and every alias must be Python identifiers")
    return ExceptionClass(name, meaning, aliases)


_SHAPE_WORDS = {list: "a list", str: "text", bool: "true or false", dict: "a table"}


def _known_keys(where: str, entry: Table, known: set[str] | frozenset[str], cls: type | None = None) -> None:
    """A SpecDataError naming ``where`` (the file and the table) and the keys of ``entry`` not in ``known``,
    or, given the model class ``cls``, a key whose value has not the TOML type its field needs."""
    if not isinstance(entry, dict):
        raise SpecDataError(f"{where}: must be a table, not {type(entry).__name__}")
    unknown = sorted(set(entry) - known)
    if unknown:
        raise SpecDataError(f"{where}: unknown keys {unknown} (known: {sorted(known)})")
    for key, shape in (shapes_of(cls) if cls is not None else {}).items():
        if key in entry and not isinstance(entry[key], shape):
            raise SpecDataError(f"{where}: {key} must be {_SHAPE_WORDS[shape]}")


def _checked(where: str, entry: Table, cls: type) -> None:
    """``entry`` holds only keys of ``cls``'s table (:func:`spec.model.keys_of`), each of the TOML type it needs."""
    _known_keys(where, entry, keys_of(cls), cls)


def _load_constant(filename: str, entry: Table) -> Constant:
    where = f"{filename}: constant {entry.get('name', '?')!r}"
    _checked(where, entry, Constant)
    try:
        name, value, meaning = entry["name"], entry["value"], entry["meaning"].strip()
    except KeyError as e:
        raise SpecDataError(f"{where}: missing key {e.args[0]!r}") from None
    if not name.isidentifier():
        raise SpecDataError(f"{where}: the name is not a Python identifier")
    if type(value) not in (int, str, bool):
        raise SpecDataError(f"{where}: the value must be a whole number, text or a Boolean, not {type(value).__name__}")
    return Constant(name, value, meaning)


def _load_operation(filename: str, type_name: str, entry: Table) -> Operation:
    where = f"{filename}: operation {entry.get('name', '?')!r}"
    _checked(where, entry, Operation)
    try:
        name = entry["name"]
        forms = [_parse_signature(where, s) for s in entry["signatures"]]
        names = entry.get("params", [])
        kind = entry["kind"]
        behaviour = entry["behaviour"].strip()
    except KeyError as e:
        raise SpecDataError(f"{where}: missing key {e.args[0]!r}") from None
    if kind not in KINDS:
        raise SpecDataError(f"{where}: kind {kind!r} is not one of {', '.join(sorted(KINDS))}")
    if any(f[0] != name for f in forms):
        raise SpecDataError(f"{where}: a signature names another operation")
    results = {f[2] for f in forms}
    if len(results) != 1:
        raise SpecDataError(f"{where}: overloads disagree on the result type")
    forms.sort(key=lambda f: len(f[1]))
    longest = forms[-1][1]
    for _, types, _ in forms:
        if tuple(types) != tuple(longest[: len(types)]):
            raise SpecDataError(f"{where}: overloads must take prefixes of the longest form")
    if len(names) != len(longest):
        raise SpecDataError(f"{where}: {len(names)} parameter names for {len(longest)} parameters")
    shortest = len(forms[0][1])
    params = tuple(
        Parameter(name=n, type=t, optional=i >= shortest) for i, (n, t) in enumerate(zip(names, longest, strict=True))
    )
    return Operation(
        type_name=type_name,
        name=name,
        params=params,
        result=forms[0][2],
        kind=kind,
        behaviour=behaviour,
        preconditions=tuple(entry.get("preconditions", ())),
        calls=tuple(entry.get("calls", ())),
        arities=tuple(len(f[1]) for f in forms),
        extension=entry.get("extension", False),
        note=entry.get("note", "").strip(),
        requirement=entry.get("requirement", "").strip(),
        decisions=tuple(entry.get("decisions", ())),
    )


def _parse_signature(where: str, text: str) -> tuple[str, list[str], str]:
    match = _SIGNATURE.match(text.strip())
    if not match:
        raise SpecDataError(f"{where}: cannot read signature {text!r} (expected 'name(T1, T2) -> R')")
    params = [p.strip() for p in match["params"].split(",") if p.strip()]
    return match["name"], params, match["result"]


def _load_errata(path: Path) -> tuple[Erratum, ...]:
    data = _read(path)
    _known_keys(path.name, data, {"erratum"})
    errata = []
    for entry in data.get("erratum", []):
        where = f"{path.name}: erratum {entry.get('id', '?')}"
        _checked(where, entry, Erratum)
        for side in entry.get("sides", ()):
            _checked(f"{where}: side", side, Side)
        if "kind" in entry and entry["kind"] not in ERRATUM_KINDS:
            raise SpecDataError(f"{where}: kind {entry['kind']!r} is not one of {sorted(ERRATUM_KINDS)}")
        if not isinstance(entry.get("several_readings", False), bool):
            raise SpecDataError(f"{where}: several_readings must be true or false")
        try:
            erratum = Erratum(
                id=entry["id"],
                title=entry["title"],
                kind=entry["kind"],
                operations=tuple(entry["operations"]),
                sides=tuple(Side(where=s["where"], says=s["says"].strip()) for s in entry["sides"]),
                ruling=entry["ruling"].strip(),
                reason=entry["reason"].strip(),
                accepts=entry["accepts"].strip(),
                several_readings=entry.get("several_readings", False),
                no_patch=entry.get("no_patch", "").strip(),
                optional_forms=tuple(entry.get("optional_forms", ())),
            )
        except KeyError as e:
            raise SpecDataError(f"{where}: missing key {e.args[0]!r}") from None
        if len(erratum.sides) < 1:
            raise SpecDataError(f"{where}: says nothing about what the document says")
        errata.append(erratum)
    ids = [e.id for e in errata]
    if len(set(ids)) != len(ids):
        raise SpecDataError(f"{path.name}: erratum ids are not unique")
    return tuple(errata)


def _check_references(spec: Specification) -> None:
    """Every call, parameter type and erratum target must name something specified."""
    type_names = {t.name for t in spec.types} | set(spec.primitives)
    for op in spec.operations(extensions=True):
        for t in [p.type for p in op.params] + [op.result]:
            if t not in type_names:
                raise SpecDataError(f"{op.qualname}: unknown type {t!r}")
        for call in op.calls:
            _resolve(spec, call, f"{op.qualname} calls")
    for rule in spec.rules:
        if rule.type_name not in {t.name for t in spec.types}:
            raise SpecDataError(f"rule {rule.id}: unknown type {rule.type_name!r}")
        for qualname in rule.operations:
            _resolve(spec, qualname, f"rule {rule.id} fails")
    for qualname in spec.kit.time_limits:
        _resolve(spec, qualname, "[kit] time_limits names")
    for qualname in spec.kit.results_by_value:
        _resolve(spec, qualname, "[kit] results_by_value names")
    for erratum in spec.errata:
        for target in erratum.operations:
            if "." in target:
                _resolve(spec, target, f"erratum {erratum.id}")
            elif target not in type_names:
                raise SpecDataError(f"erratum {erratum.id}: unknown type {target!r}")
        forms = {form for target in erratum.operations if "." in target for form in spec.operation(target).signatures}
        for form in erratum.optional_forms:
            if form not in forms:
                raise SpecDataError(
                    f"erratum {erratum.id}: optional form {form!r} is no documented form of its operations "
                    f"({', '.join(sorted(forms))})"
                )


def _resolve(spec: Specification, qualname: str, context: str) -> None:
    try:
        spec.operation(qualname)
    except KeyError:
        raise SpecDataError(f"{context} {qualname!r}, which is not specified") from None


def module_name(type_name: str) -> str:
    """The contract's module for a type: snake_case of the name minus ``Type``."""
    stem = type_name.removesuffix("Type")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", stem).lower()
