"""``speckit check --watch``: check again, the types a change affects, whenever a file of the package is saved.

Watching uses :mod:`watchfiles` (the operating system's change notifications, with a
debounce, so an editor's burst of writes is one change). A changed module affects its
own type and every type that uses it, directly or not; a change to any other file of the
package (``__init__.py``, a helper module) affects every type.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from spec import Specification


def affected_types(spec: Specification, changed: Iterable[Path], only: list[str]) -> list[str]:
    """The types to check again after ``changed`` files: those whose module changed and those
    using them, within ``only`` when given; all of ``only`` (or every type) for any other file."""
    students = [t for t in spec.types if not t.supplied]
    by_module = {t.module: t.name for t in students}
    scope = only or [t.name for t in students]
    hit: set[str] = set()
    for path in changed:
        if path.suffix != ".py":
            continue
        if path.stem not in by_module:
            return scope
        hit.add(by_module[path.stem])
    grown = True
    while grown:  # the users of a changed type are affected too
        users = {t.name for t in students if set(spec.uses(t.name)) & hit}
        grown = not users <= hit
        hit |= users
    return [name for name in scope if name in hit]


def watch(
    check: Callable[[list[str]], int],
    package: Path,
    spec: Specification,
    types: list[str],
    *,
    stop_after: int | None = None,
) -> int:
    """Check once, then again after every change to ``package`` until interrupted.

    ``check`` takes the types to check (an empty list: all of them) and returns an exit
    status; ``stop_after`` ends the watch after that many re-runs (for tests). Returns
    the last check's status.
    """
    from watchfiles import watch as changes

    status = check(types)
    sys.stdout.flush()  # the table before the prompt, even when the output is a pipe
    runs = 0
    print(f"\nWatching {package} for changes (Ctrl-C to stop) ...", file=sys.stderr, flush=True)
    for batch in changes(package, watch_filter=_source_file, raise_interrupt=False):
        affected = affected_types(spec, [Path(p) for _, p in batch], types)
        if not affected:
            continue
        names = ", ".join(sorted({Path(p).name for _, p in batch}))
        print(f"\n{names} changed: checking {', '.join(affected)} again", file=sys.stderr, flush=True)
        status = check(affected if (types or len(affected) < len([t for t in spec.types if not t.supplied])) else [])
        sys.stdout.flush()
        runs += 1
        if stop_after is not None and runs >= stop_after:
            break
        print(f"\nWatching {package} for changes (Ctrl-C to stop) ...", file=sys.stderr, flush=True)
    return status


def _source_file(change, path: str) -> bool:
    """Only Python sources count: not caches, editors' swap files or bytecode."""
    return path.endswith(".py") and "__pycache__" not in path
