"""The specifications the kit knows, each with its executable parts, read from its spec data.

A specification declares itself in the ``[kit]`` table of its ``spec.toml``
(:class:`spec.KitDeclaration`): this module only resolves those declarations to
folders, so adding a specification never means editing this file. A specification kept
outside the kit (:data:`spec.loader.KITS_VARIABLE`) has its parts in its own root.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

import spec as spec_data
from spec import KitDeclaration

from .paths import REPO_ROOT, kit_path


@attrs.frozen
class Kit:
    """One specification's executable parts, as folders of this installation."""

    spec: str
    declaration: KitDeclaration
    root: Path | None = None
    """The root the ``[kit]`` paths are relative to, for a specification kept outside the kit;
    None for the kit's own, whose paths are found by :func:`speckit.paths.kit_path`."""

    def path(self, relative: str) -> Path:
        """Where a path of the ``[kit]`` table (``tests/connect4``) is in this installation."""
        return kit_path(relative) if self.root is None else self.root / relative

    @property
    def reference(self) -> str:
        """The reference implementation, as an importable package name."""
        return self.declaration.reference

    def supplied_module(self, module: str) -> str:
        """The import name of the kit's module for the supplied type whose module is ``module``
        (``display`` gives ``adt.display``): the one ``[kit] supplied`` declares with that last
        part. A student bundle ships it under that name, without the reference around it."""
        found = [name for name in self.declaration.supplied if name.rpartition(".")[2] == module]
        if len(found) != 1:
            raise KeyError(
                f"{self.spec}: [kit] supplied must name exactly one module called {module} for its supplied type,"
                f" not {found or 'none'}"
            )
        return found[0]

    @property
    def reference_dir(self) -> Path:
        """The reference's folder; a KeyError in a kit that carries none (a student bundle)."""
        if not self.reference:
            raise KeyError(f"{self.spec}: this kit carries no reference implementation (a student bundle)")
        return (self.root or REPO_ROOT).joinpath(*self.reference.split("."))

    @property
    def suite_dir(self) -> Path:
        return self.path(self.declaration.suite)

    @property
    def zoo_dir(self) -> Path:
        return self.path(self.declaration.zoo)

    @property
    def readings_dir(self) -> Path | None:
        """The register of readings; None when the kit carries none (a student bundle)."""
        return self.path(self.declaration.readings) if self.declaration.readings else None

    @property
    def alternative_dir(self) -> Path:
        return self.path(self.declaration.alternative)

    @property
    def rubric_path(self) -> Path:
        return self.path(self.declaration.rubric)

    @property
    def mutants_path(self) -> Path | None:
        """The register of the mutation analysis; None when the kit carries none (a student bundle)."""
        return self.path(self.declaration.mutants) if self.declaration.mutants else None


def names() -> tuple[str, ...]:
    """The names of every specification the kit knows, sorted."""
    return spec_data.available()


def kit(name: str) -> Kit:
    """The kit of the specification called ``name``; a one-line error for an unknown name."""
    if name not in names():
        raise KeyError(f"no specification called {name!r} (known: {', '.join(names())})")
    home = spec_data.loader.folder(name)
    if home.parent == spec_data.loader.DATA_ROOT:
        return Kit(name, spec_data.load(name).kit)
    root = home.parent.parent.resolve()
    if str(root) not in sys.path:
        sys.path.append(str(root))  # its packages import as the kit's do (its reference by name)
    return Kit(name, spec_data.load(name).kit, root)


def main_spec() -> str:
    """The kit's main specification: the one whose ``[kit]`` table says ``main = true``."""
    main = [name for name in names() if spec_data.load(name).kit.main]
    if len(main) != 1:
        raise RuntimeError(f"exactly one specification must declare main = true, not {main}")
    return main[0]


def fitting(package: Path) -> tuple[str, ...]:
    """The specifications whose contract a package folder follows most closely: those with the
    most of their modules in it, sorted; none when it has no module of any specification."""
    present = {path.stem for path in Path(package).glob("*.py")}
    scores = {name: len(present & {t.module for t in spec_data.load(name).types}) for name in names()}
    best = max(scores.values(), default=0)
    return tuple(name for name, score in scores.items() if score == best and best > 0)
