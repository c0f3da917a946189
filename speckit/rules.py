"""The assignment's rules that are read from an implementation's code, not tested by running it.

A specification declares them as ``[[rule]]`` entries of its ``spec.toml``
(:class:`spec.CodeRule`): names, displays and imports a type's module may not use,
attributes its class must assign. The code is parsed, never imported, so a rule is
checked the same way in-process, in the grading sandbox and on a file that does not
run. A suite's test calls :func:`obey`, so a broken rule fails the operations the
rule names in ``speckit check`` and costs their points in ``speckit grade``; so does a
type's module that is missing or does not parse, since no rule can be read from it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import attrs

from spec import CodeRule, Specification

from .core import ConformanceFailure, MissingOperation, NotImplementedOperation, Presence
from .impl import syntax_problem

SYNTAX = {"dict": (ast.Dict, ast.DictComp), "set": (ast.Set, ast.SetComp)}
"""The displays and comprehensions ``forbid_syntax`` can name."""


@attrs.frozen
class Violation:
    """One place where the code breaks a rule."""

    module: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.module}.py, line {self.line}: {self.what}"


def source_folder(impl: Any) -> Path | None:
    """The folder of an implementation's modules, sandboxed or in-process; None if it has none."""
    path = getattr(impl, "path", None)
    if path is not None:
        return Path(path)
    package = getattr(impl, "package", None)
    folders = list(getattr(package, "__path__", ()) or ())
    return Path(folders[0]) if folders else None


def violations(spec: Specification, rule: CodeRule, folder: Path) -> list[Violation]:
    """Every place in the package at ``folder`` where ``rule`` is broken, in module and line order.

    A module that is missing or does not parse breaks no rule here: :func:`obey` reports
    the rule's own module as unreadable, and the tests of the others' operations report them.
    """
    type_spec = spec.type(rule.type_name)
    supplied = {t.module for t in spec.types if t.supplied}
    found: list[Violation] = []
    for module, tree in _modules(folder, type_spec.module, supplied, rule.follow_imports):
        found += _forbidden(rule, module, tree)
        if module == type_spec.module and type_spec.class_name:
            found += _required(rule, module, tree, type_spec.class_name, folder)
    return found


def obey(impl: Any, spec: Specification, rule_id: str) -> None:
    """Fail, in the assignment's terms, if the implementation's code breaks the rule ``rule_id``."""
    __tracebackhide__ = True
    rule = next((r for r in spec.rules if r.id == rule_id), None)
    if rule is None:
        raise KeyError(f"{spec.name} has no rule {rule_id!r}")
    folder = source_folder(impl)
    if folder is None:
        return  # an installed module rather than a folder of sources: nothing to read
    problem = unreadable(spec.type(rule.type_name).module, folder)
    if problem:
        raise MissingOperation(problem)  # code that cannot be read obeys no rule
    unwritten(impl, rule)
    broken = violations(spec, rule, folder)
    if broken:
        lines = [f"Rule {rule.id}: {rule.title}", "", " ".join(rule.says.split()), "", "Broken at:"]
        lines += [f"  {v}" for v in broken[:20]]
        if len(broken) > 20:
            lines.append(f"  ... and {len(broken) - 20} more")
        raise ConformanceFailure("\n".join(lines))


def unreadable(module: str, folder: Path) -> str:
    """Why the rule's own module cannot be read ("" when it can): it is missing, or does not parse."""
    path = folder / f"{module}.py"
    try:
        ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except OSError:
        return f"the implementation has no module {module} (expected {module}.py)"
    except (SyntaxError, ValueError) as e:
        return syntax_problem(module, e) if isinstance(e, SyntaxError) else f"module {module} could not be read: {e}"
    return ""


def unwritten(impl: Any, rule: CodeRule) -> None:
    """Report the rule's operations as not written yet when none of them is: a rule about code
    holds of a skeleton only because there is no code, and earns nothing for it."""
    states = [impl.state(q) for q in rule.operations]
    if states and all(state in (Presence.MISSING, Presence.NOT_IMPLEMENTED) for state in states):
        names = ", ".join(rule.operations)
        raise NotImplementedOperation(
            f"Rule {rule.id} reads the code of {names}: none of them is written yet", rule.operations[0]
        )


def _modules(folder: Path, first: str, supplied: set[str], follow: bool) -> Iterator[tuple[str, ast.Module]]:
    """The parsed module ``first`` and, with ``follow``, the package's modules it imports, transitively."""
    waiting, seen = [first], set()
    while waiting:
        name = waiting.pop(0)
        if name in seen:
            continue
        seen.add(name)
        try:
            tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            continue
        yield name, tree
        if follow:
            waiting += [m for m in _sibling_imports(tree, folder) if m not in supplied]


def _sibling_imports(tree: ast.Module, folder: Path) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            if node.module:
                names.append(node.module.split(".")[0])
            else:
                names += [alias.name for alias in node.names]
    return [n for n in names if (folder / f"{n}.py").is_file()]


def _forbidden(rule: CodeRule, module: str, tree: ast.Module) -> list[Violation]:
    found = []
    names, imports, allowed = set(rule.forbid_names), set(rule.forbid_imports), set(rule.allow_imports)
    syntax: tuple[type[ast.expr], ...] = tuple(kind for s in rule.forbid_syntax for kind in SYNTAX[s])

    def banned(dotted: str) -> bool:
        parts = dotted.split(".")
        prefixes = {".".join(parts[: i + 1]) for i in range(len(parts))}
        return dotted not in allowed and bool(prefixes & imports)

    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
                if banned(alias.name) and not any(a.startswith(alias.name + ".") for a in allowed):
                    found.append(Violation(module, node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                dotted = node.module if alias.name == "*" else f"{node.module}.{alias.name}"
                if (
                    banned(dotted)
                    or (alias.name == "*" and banned(node.module))
                    or (node.module == "builtins" and alias.name in names)
                ):
                    found.append(Violation(module, node.lineno, f"from {node.module} import {alias.name}"))
    found += [Violation(module, node.lineno, f"uses {node.id}") for node in _builtin_reads(tree, names)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr in names:
                found.append(Violation(module, node.lineno, f"uses {node.attr}"))
            elif isinstance(node.value, ast.Name) and node.value.id in aliases:
                dotted = f"{aliases[node.value.id]}.{node.attr}"
                if banned(dotted) or (aliases[node.value.id] == "builtins" and node.attr in names):
                    found.append(Violation(module, node.lineno, f"uses {dotted}"))
        elif syntax and isinstance(node, syntax):
            kind = "dict" if isinstance(node, SYNTAX["dict"]) else "set"
            found.append(Violation(module, node.lineno, f"makes a {kind} ({ast.unparse(node)[:40]})"))
    return sorted(set(found), key=lambda v: (v.line, v.what))


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _builtin_reads(tree: ast.Module, names: set[str]) -> list[ast.Name]:
    """The reads of ``names`` that reach Python's builtins: a name the code binds itself, in the
    module or in a function or class around the read (a local variable ``hash``, say), is the
    student's own, and assigning a name (``__hash__ = None``) does not use it."""
    found: list[ast.Name] = []

    def visit(node: ast.AST, own: frozenset[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                visit(child, own | _bound_in(child))
            elif (
                isinstance(child, ast.Name)
                and isinstance(child.ctx, ast.Load)
                and child.id in names
                and child.id not in own
            ):
                found.append(child)
            else:
                visit(child, own)

    visit(tree, frozenset(_bound_in(tree)))
    return found


def _bound_in(scope: ast.AST) -> frozenset[str]:
    """The names ``scope`` (a module, function, lambda or class) binds itself, nested scopes left out."""
    bound: set[str] = set()
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        arguments = scope.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        bound |= {a.arg for a in every if a is not None}
    waiting = list(ast.iter_child_nodes(scope))
    while waiting:
        node = waiting.pop()
        if isinstance(node, _SCOPES):
            if not isinstance(node, ast.Lambda):
                bound.add(node.name)
            continue
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound |= set(node.names)
        elif (
            isinstance(node, ast.ExceptHandler)
            and node.name
            or isinstance(node, (ast.MatchAs, ast.MatchStar))
            and node.name
        ):
            bound.add(node.name)
        waiting.extend(ast.iter_child_nodes(node))
    return frozenset(bound)


def _required(rule: CodeRule, module: str, tree: ast.Module, class_name: str, folder: Path) -> list[Violation]:
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if cls is None or not rule.require_attributes:
        return []
    assigned = set()
    for each in _with_bases(cls, tree, folder):
        assigned |= _instance_assignments(each)
    return [
        Violation(module, cls.lineno, f"class {class_name} never assigns the instance variable self.{name}")
        for name in rule.require_attributes
        if name not in assigned
    ]


def _with_bases(cls: ast.ClassDef, tree: ast.Module, folder: Path) -> Iterator[ast.ClassDef]:
    """``cls`` and the base classes the package itself defines (in the same module, or imported
    from a sibling module by name), transitively: an attribute a base's method assigns counts."""
    waiting, seen = [(cls, tree)], set()
    while waiting:
        node, module = waiting.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        for base in node.bases:
            if isinstance(base, ast.Name) and (found := _class_named(base.id, module, folder)) is not None:
                waiting.append(found)


def _class_named(name: str, tree: ast.Module, folder: Path) -> tuple[ast.ClassDef, ast.Module] | None:
    """The class ``name`` as ``tree`` sees it: defined there, or imported from a sibling module."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node, tree
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level <= 1:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    try:
                        sibling = ast.parse((folder / f"{node.module.split('.')[-1]}.py").read_text(encoding="utf-8"))
                    except (OSError, SyntaxError, ValueError):
                        return None
                    return next(
                        ((n, sibling) for n in sibling.body if isinstance(n, ast.ClassDef) and n.name == alias.name),
                        None,
                    )
    return None


def _instance_assignments(cls: ast.ClassDef) -> set[str]:
    """The attributes the methods of ``cls`` assign on their instance (``self.x = ...``), and its properties."""
    assigned = set()
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.args.args:
                instance = node.args.args[0].arg
                for sub in ast.walk(node):
                    targets = (
                        sub.targets
                        if isinstance(sub, ast.Assign)
                        else [sub.target]
                        if isinstance(sub, (ast.AnnAssign, ast.AugAssign))
                        else []
                    )
                    for target in _unpacked(targets):
                        if (
                            isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Name)
                            and target.value.id == instance
                        ):
                            assigned.add(target.attr)
            if any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list):
                assigned.add(node.name)
    return assigned


def _unpacked(targets: Iterable[ast.expr]) -> Iterator[ast.expr]:
    """Assignment targets with tuples and lists opened (``self.a, self.b = ...``), subscripts left whole."""
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from _unpacked(list(target.elts))
        else:
            yield target
