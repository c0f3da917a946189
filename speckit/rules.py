"""The assignment's rules that are read from an implementation's code, not tested by running it.

A specification declares them as ``[[rule]]`` entries of its ``spec.toml``
(:class:`spec.CodeRule`): names, displays and imports a type's module may not use,
attributes its class must assign. The code is parsed, never imported, so a rule is
checked the same way in-process, in the grading sandbox and on a file that does not
run. A suite's test calls :func:`obey`, so a broken rule fails the operations the
rule names in ``speckit check`` and costs their points in ``speckit grade``.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterator

import attrs

from spec import CodeRule, Specification

from .testing import ConformanceFailure

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

    A module that is missing or does not parse breaks no rule: the tests of its
    operations report it.
    """
    type_spec = spec.type(rule.type_name)
    supplied = {t.module for t in spec.types if t.supplied}
    found: list[Violation] = []
    for module, tree in _modules(folder, type_spec.module, supplied, rule.follow_imports):
        found += _forbidden(rule, module, tree)
        if module == type_spec.module and type_spec.class_name:
            found += _required(rule, module, tree, type_spec.class_name)
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
    broken = violations(spec, rule, folder)
    if broken:
        lines = [f"Rule {rule.id}: {rule.title}", "", " ".join(rule.says.split()), "", "Broken at:"]
        lines += [f"  {v}" for v in broken[:20]]
        if len(broken) > 20:
            lines.append(f"  ... and {len(broken) - 20} more")
        raise ConformanceFailure("\n".join(lines))


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
    syntax = tuple(kind for s in rule.forbid_syntax for kind in SYNTAX[s])

    def banned(dotted: str) -> bool:
        parts = dotted.split(".")
        prefixes = {".".join(parts[: i + 1]) for i in range(len(parts))}
        return dotted not in allowed and bool(prefixes & imports)

    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
                if banned(alias.name) and not any(a.startswith(alias.name + ".") for a in allowed):
                    found.append(Violation(module, node.lineno, f"import {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                dotted = node.module if alias.name == "*" else f"{node.module}.{alias.name}"
                if banned(dotted) or (alias.name == "*" and banned(node.module)):
                    found.append(Violation(module, node.lineno, f"from {node.module} import {alias.name}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names:
            found.append(Violation(module, node.lineno, f"uses {node.id}"))
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("__") and node.attr in names:
                found.append(Violation(module, node.lineno, f"uses {node.attr}"))
            elif isinstance(node.value, ast.Name) and node.value.id in aliases:
                dotted = f"{aliases[node.value.id]}.{node.attr}"
                if banned(dotted):
                    found.append(Violation(module, node.lineno, f"uses {dotted}"))
        elif syntax and isinstance(node, syntax):
            kind = "dict" if isinstance(node, SYNTAX["dict"]) else "set"
            found.append(Violation(module, node.lineno, f"makes a {kind} ({ast.unparse(node)[:40]})"))
    return sorted(set(found), key=lambda v: (v.line, v.what))


def _required(rule: CodeRule, module: str, tree: ast.Module, class_name: str) -> list[Violation]:
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name), None)
    if cls is None or not rule.require_attributes:
        return []
    assigned = set()
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.args.args:
                instance = node.args.args[0].arg
                for sub in ast.walk(node):
                    targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target] if isinstance(sub, (ast.AnnAssign, ast.AugAssign)) else []
                    for target in _unpacked(targets):
                        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == instance:
                            assigned.add(target.attr)
            if any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list):
                assigned.add(node.name)
    return [
        Violation(module, cls.lineno, f"class {class_name} never assigns the instance variable self.{name}")
        for name in rule.require_attributes
        if name not in assigned
    ]


def _unpacked(targets: list[ast.expr]) -> Iterator[ast.expr]:
    """Assignment targets with tuples and lists opened (``self.a, self.b = ...``), subscripts left whole."""
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from _unpacked(list(target.elts))
        else:
            yield target
