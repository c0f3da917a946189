"""The specification as typed values: types, operations, parameters and errata.

Everything here is immutable and built only by :mod:`spec.loader`; the conformance
suite, the documentation and the command line all read the same objects.

The fields also say which keys a TOML table may hold: a field's name is its key, unless
its metadata gives another (:func:`key`) or says it is not read from the table (:data:`DERIVED`,
:func:`table`); the loader refuses any other key.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

import attrs

DERIVED = {"key": None}
"""Field metadata: the field is not a key of its table (the loader works it out)."""


def key(name: str) -> dict[str, str | None]:
    """Field metadata: the field is read from the key ``name`` of its table."""
    return {"key": name}


def table(name: str) -> dict[str, str | None]:
    """Field metadata: the field is read from the array of tables ``[[name]]`` of the file, not from a key."""
    return {"key": None, "table": name}


def keys_of(cls: type) -> frozenset[str]:
    """The keys a TOML table of ``cls`` may hold, from its fields."""
    names = (f.metadata.get("key", f.name) for f in attrs.fields(cls))
    return frozenset(name for name in names if name is not None)


_SHAPES = {"tuple": list, "str": str, "bool": bool, "dict": dict}


def shapes_of(cls: type) -> dict[str, type]:
    """The TOML type each key of a table of ``cls`` must have, where its field's annotation fixes
    one: a tuple is read from a list, a str from text, a bool from true or false, a dict from a table."""
    found = {}
    for field in attrs.fields(cls):
        name, head = field.metadata.get("key", field.name), str(field.type).split("[")[0]
        if name is not None and head in _SHAPES:
            found[name] = _SHAPES[head]
    return found


def tables_of(cls: type) -> frozenset[str]:
    """The arrays of tables (``[[operation]]``) a file of ``cls`` may hold besides its own table."""
    return frozenset(f.metadata["table"] for f in attrs.fields(cls) if "table" in f.metadata)


class OperationKind(enum.StrEnum):
    """What an operation does, as the document classifies it."""

    CONSTRUCTOR = "constructor"
    UPDATE = "update"
    ACCESSOR = "accessor"
    PREDICATE = "predicate"
    COMPARISON = "comparison"
    COPY = "copy"
    SHOW = "show"
    QUERY = "query"
    ACTION = "action"


class ErratumKind(enum.StrEnum):
    """What an erratum rules on."""

    CONTRADICTION = "contradiction"
    """The document says two things that cannot both hold."""
    SILENCE = "silence"
    """The document does not say."""
    UNDECLARED = "undeclared"
    """The document uses something it never declares."""


@attrs.frozen
class Parameter:
    """One positional parameter of an operation.

    ``name`` is the Python parameter name used by the reference and the skeleton;
    ``optional`` marks a trailing parameter that only the longer overloads take.
    """

    name: str
    type: str
    optional: bool = False


@attrs.frozen
class Constant:
    """A named value a type's module defines (``number_of_columns = 7``)."""

    name: str
    value: int | str | bool
    meaning: str


@attrs.frozen
class Enumeration:
    """A fixed set of named values a type's module defines as a class (``class SuitT(Enum)``).

    ``base`` is ``"Enum"`` (members told apart with ``==``, their values the implementation's
    choice) or ``"IntEnum"`` (members that are whole numbers, ``values`` giving each one's).
    """

    name: str
    members: tuple[str, ...]
    meaning: str
    base: str = "Enum"
    values: tuple[int, ...] = ()


@attrs.frozen
class ExceptionClass:
    """An exception class a type's module defines (``class InvalidIndex(Exception)``),
    with the other names bound to the same class (``IsEmpty = StackEmpty``)."""

    name: str
    meaning: str
    aliases: tuple[str, ...] = ()


@attrs.frozen
class Operation:
    """A documented operation of one type, with its overloads folded together.

    ``arities`` are the parameter counts of the overloads, shortest first: each
    overload takes a prefix of ``params`` (``newGridType`` takes 0, 1 or 3).
    ``calls`` names the operations it is documented to call, as ``Type.operation``.
    """

    type_name: str = attrs.field(metadata=DERIVED)
    name: str
    params: tuple[Parameter, ...]
    result: str = attrs.field(metadata=DERIVED)
    kind: OperationKind = attrs.field(converter=OperationKind)
    behaviour: str
    preconditions: tuple[str, ...] = ()
    calls: tuple[str, ...] = ()
    arities: tuple[int, ...] = attrs.field(default=(), metadata=key("signatures"))
    extension: bool = False
    note: str = ""
    requirement: str = ""
    """The requirement of the source document the operation traces to, where it names one."""
    decisions: tuple[str, ...] = ()
    """The document's decision table restated, one rule (condition: outcome) per entry."""

    @property
    def qualname(self) -> str:
        """``Type.operation``, the name used by errata, markers and reports."""
        return f"{self.type_name}.{self.name}"

    @property
    def signatures(self) -> tuple[str, ...]:
        """Each overload written as the document writes signatures."""
        forms = []
        for arity in self.arities:
            types = ",".join(p.type for p in self.params[:arity])
            forms.append(f"{self.name}({types}) -> {self.result}")
        return tuple(forms)

    @property
    def python_signature(self) -> str:
        """The contract's Python form: ``occupySquare(grid, location, symbol)``."""
        parts = [f"{p.name}=None" if p.optional else p.name for p in self.params]
        return f"{self.name}({', '.join(parts)})"

    def python_form(self, class_name: str = "") -> str:
        """The contract's Python form when the operation's type is the class ``class_name``.

        Without a class it is :attr:`python_signature`. With one, a constructor is the
        class called (``Board()``) and any other operation a method called on its first
        parameter (``board.Make_Move(column)``), as :mod:`speckit.impl` calls them.
        """
        if not class_name:
            return self.python_signature
        parts = [f"{p.name}=None" if p.optional else p.name for p in self.params]
        if self.kind == "constructor":
            return f"{class_name}({', '.join(parts)})"
        if not parts:
            return f"{class_name}.{self.name}()"
        return f"{self.params[0].name}.{self.name}({', '.join(parts[1:])})"


@attrs.frozen
class TypeSpec:
    """One type of the specification and its operations, in document order.

    ``class_name`` is empty for the module-of-functions contract; for a class-based
    contract it names the class whose methods are the operations (the first parameter
    of each non-constructor operation is the instance).
    """

    name: str
    module: str
    purpose: str
    components: tuple[str, ...]
    value_range: str = attrs.field(metadata=key("range"))
    default: str
    imports: tuple[str, ...]
    operations: tuple[Operation, ...] = attrs.field(metadata=table("operation"))
    supplied: bool = False
    note: str = ""
    class_name: str = attrs.field(default="", metadata=key("class"))
    constants: tuple[Constant, ...] = attrs.field(default=(), metadata=table("constant"))
    """The module's named values, which an implementation must define exactly."""
    enumerations: tuple[Enumeration, ...] = attrs.field(default=(), metadata=table("enumeration"))
    """The enumerations the module defines (``[[enumeration]]``): their classes and member names."""
    exceptions: tuple[ExceptionClass, ...] = attrs.field(default=(), metadata=table("exception"))
    """The exception classes the module defines (``[[exception]]``)."""

    def operation(self, name: str) -> Operation:
        """The operation called ``name``; :class:`KeyError` if there is none."""
        for op in self.operations:
            if op.name == name:
                return op
        raise KeyError(f"{self.name} has no operation {name!r}")

    @property
    def documented(self) -> tuple[Operation, ...]:
        """The operations the document declares (extensions left out)."""
        return tuple(op for op in self.operations if not op.extension)

    def mentions(self) -> tuple[str, ...]:
        """Every type name this type imports, or its operations take, return or call."""
        seen: dict[str, None] = {}
        for name in self.imports:
            seen.setdefault(name, None)
        for op in self.operations:
            for p in op.params:
                seen.setdefault(p.type, None)
            seen.setdefault(op.result, None)
            for call in op.calls:
                seen.setdefault(call.split(".")[0], None)
        seen.pop(self.name, None)
        return tuple(seen)


@attrs.frozen
class Side:
    """What one place in the source document says."""

    where: str
    says: str


@attrs.frozen
class Erratum:
    """A ruling on a place where the document contradicts itself or is silent.

    ``accepts`` says which readings the conformance suite accepts, so a student
    knows exactly what is and is not tested. ``several_readings`` is true when it
    accepts more than one; each such reading the reference does not take is proved by
    a patch in the register of readings (``tests/readings/<spec>/``), unless
    ``no_patch`` says why no patch of the reference can express it.
    """

    id: str
    title: str
    kind: ErratumKind = attrs.field(converter=ErratumKind)
    operations: tuple[str, ...]
    sides: tuple[Side, ...]
    ruling: str
    reason: str
    accepts: str
    several_readings: bool = False
    no_patch: str = ""
    optional_forms: tuple[str, ...] = ()
    """Forms of its overloaded operations (signatures as the spec writes them) a package may
    leave out, as long as it offers one form of each: the structure test does not require them."""


@attrs.frozen
class CodeRule:
    """A rule of the assignment read from an implementation's code, not tested by running it.

    It reads the module of ``type_name`` (and, with ``follow_imports``, the package's
    modules that module imports) and fails ``operations`` when the code reads a builtin
    named in ``forbid_names`` (a name the code binds itself is its own; a dunder is also
    caught as an attribute, ``x.__dict__``), a display or comprehension of a kind in
    ``forbid_syntax`` (``"dict"``, ``"set"``), imports a module or ``module.name`` in
    ``forbid_imports`` (unless ``allow_imports`` lists the name), or when the type's
    class, with the base classes the package defines, never assigns an attribute of
    ``require_attributes`` on ``self``.
    """

    id: str
    title: str
    type_name: str = attrs.field(metadata=key("type"))
    operations: tuple[str, ...]
    says: str
    follow_imports: bool = False
    forbid_names: tuple[str, ...] = ()
    forbid_syntax: tuple[str, ...] = ()
    forbid_imports: tuple[str, ...] = ()
    allow_imports: tuple[str, ...] = ()
    require_attributes: tuple[str, ...] = ()


@attrs.frozen
class Mirror:
    """How an object of a served class travels between a test and the grading sandbox's server:
    the server gets a twin of it, set from the test's object before the calls and copied back
    after them. An entry of ``[kit.mirrors]``, named by the class (``"adt.display.Display"``)."""

    stream: str = ""
    """The attribute holding the object's output stream (None for standard output): the twin's is a
    recorder, and what the implementation writes there is written to the test's stream."""
    lines: str = ""
    """The attribute holding scripted input lines (an iterator, or None): the twin reads the lines
    the test's object has not read yet, and the test's object skips those the twin read."""
    fields: tuple[str, ...] | None = None
    """The attributes mirrored by value (the test's object is the authority before a call, the
    twin after it); absent: every instance attribute (``vars``) but the stream and the lines."""


@attrs.frozen
class KitDeclaration:
    """Where a specification's executable parts live: the ``[kit]`` table of its ``spec.toml``.

    Paths are relative to the kit's root (the folder holding ``spec/`` and ``tests/``);
    modules are import names. The machinery reads only this, so adding a specification
    means adding its folders and this table, never editing the machinery.
    """

    reference: str
    """The reference implementation, as an importable package (``adt``)."""
    suite: str
    """The conformance suite's folder (``tests/connect4``)."""
    zoo: str
    """The folder of faulty variants of the reference that the suite must fail."""
    readings: str
    """The register of readings: the folder of variants of the reference, each taking a reading an
    erratum accepts and the reference does not, that the suite must pass."""
    alternative: str
    """An alternative correct implementation that the suite must pass."""
    rubric: str
    """The default grading rubric."""
    supplied: tuple[str, ...] = ()
    """Modules of the contract that the kit supplies and a package re-exports (``adt.display``)."""
    served: tuple[str, ...] = ()
    """Classes of the supplied modules whose objects a test hands to the implementation
    (``adt.display.Display``): the grading sandbox serves them to the student's code."""
    mirrors: dict[str, Mirror] = attrs.field(factory=dict)
    """How the objects of served classes travel to the sandbox's server (``[kit.mirrors."adt.input.Input"]``,
    :class:`Mirror`); a served class without an entry travels as its instance attributes."""
    other_tests: tuple[str, ...] = ()
    """Test folders or modules outside the suite: the tests of the kit's own programs and of the
    reference's private parts (``tests/programs/<spec>``), never shipped to students. Their
    ``covers`` marks count in coverage and the docs' "Tested by", not in a check."""
    time_limits: dict[str, float] = attrs.field(factory=dict)
    """Seconds one call may take, for the operations that search or play (``Type.operation``)."""
    scripts: tuple[str, ...] = ()
    """The console scripts of the specification's programs."""
    student_scripts: dict[str, str] = attrs.field(factory=dict)
    """The programs a student bundle ships, as console script name -> ``module:function``
    (``connect4 = "adt.play_package:main"``): each plays on a student's package
    (``--impl PATH``) and, with the kit modules it imports, carries no module students write."""
    results_by_value: tuple[str, ...] = ()
    """Operations declared to return a type whose result an accepted reading makes a plain value
    (a Python bool, say): the grading sandbox sends their results back as they are, as a test
    sees them in-process, instead of keeping them as values of the implementation."""
    main: bool = False
    """The kit's main specification: what a command that is not told ``--spec`` works on."""
    mutants: str = ""
    """The register of the reference's mutation analysis (``tests/mutants/connect4.toml``): its reviewed
    equivalent mutants and each type's target; its results are kept beside it (``connect4-results.json``).
    Empty when the kit carries none (a student bundle)."""


@attrs.frozen
class Specification:
    """A whole specification: its types, its errata, its Python contract and its kit."""

    name: str = attrs.field(metadata=DERIVED)
    title: str
    source: str
    summary: str
    contract: str
    primitives: dict[str, str]
    types: tuple[TypeSpec, ...]
    """Read from ``types``, the list of the type files' names, in document order."""
    errata: tuple[Erratum, ...] = attrs.field(metadata=DERIVED)
    """Read from ``errata.toml``."""
    kit: KitDeclaration
    rules: tuple[CodeRule, ...] = attrs.field(default=(), metadata=table("rule"))
    """The assignment's rules checked by reading the code (``[[rule]]`` in spec.toml)."""

    def type(self, name: str) -> TypeSpec:
        """The type called ``name`` (``"GridType"``) or with that module (``"grid"``)."""
        for t in self.types:
            if name in (t.name, t.module):
                return t
        raise KeyError(f"{self.name} has no type {name!r}")

    def operation(self, qualname: str) -> Operation:
        """The operation named ``Type.operation``."""
        type_name, _, op_name = qualname.partition(".")
        return self.type(type_name).operation(op_name)

    def operations(self, *, extensions: bool = False) -> Iterator[Operation]:
        """Every operation in document order; extensions only when asked for."""
        for t in self.types:
            for op in t.operations:
                if extensions or not op.extension:
                    yield op

    @property
    def extensions(self) -> tuple[Operation, ...]:
        """Operations the kit adds beyond the document, each ruled in the errata."""
        return tuple(op for op in self.operations(extensions=True) if op.extension)

    def uses(self, type_name: str) -> tuple[str, ...]:
        """The other specified types that ``type_name`` uses (primitives left out)."""
        known = {t.name for t in self.types}
        return tuple(n for n in self.type(type_name).mentions() if n in known)

    def errata_for(self, qualname: str) -> tuple[Erratum, ...]:
        """The errata entries that touch an operation or, given a type name, a type."""
        return tuple(e for e in self.errata if qualname in e.operations)

    def erratum(self, id: str) -> Erratum:
        """The erratum with the given id."""
        for e in self.errata:
            if e.id == id:
                return e
        raise KeyError(f"{self.name} has no erratum {id!r}")
