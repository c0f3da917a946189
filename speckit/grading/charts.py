"""The class report's charts, drawn by matplotlib as SVG text to embed in the page.

matplotlib is an optional extra (``speckit[report]``): :func:`available` says whether it
is installed, and nothing here imports it before a chart is asked for. Every chart is
deterministic: a fixed hash salt for the SVG's ids, no date in its metadata, the font
matplotlib ships (DejaVu Sans) drawn as paths, so the same data gives the same bytes on
any machine with the same matplotlib. Each chart's ids carry a prefix of its own, so
several charts live in one page without clashing; the elements a reader (or a test)
may look for have ids: ``<prefix>-student-<i>`` (one block per student in the
histogram), ``<prefix>-row-<i>`` (one heat-map row per operation), ``<prefix>-lost-<i>``.
"""

from __future__ import annotations

import importlib.util
import io
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

INSTALL_HINT = "pip install 'speckit[report]'"
"""How to get the charts where matplotlib is missing."""

RC: dict[RcKeyType, Any] = {
    "svg.hashsalt": "speckit-class-report",
    "svg.fonttype": "path",
    "text.parse_math": False,
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "image.composite_image": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
"""matplotlib settings of every chart: the ones that make the SVG deterministic and self-contained,
and a quiet style."""

BLOCK, EDGE, ACCENT = "#4c72b0", "#ffffff", "#c44e52"
CMAP = "RdYlBu"
"""Pass rates from red (nothing passed) to blue (everything passed): told apart by most colour-blind readers too."""
NOT_GRADED = "#d9d9d9"


def available() -> bool:
    """Whether matplotlib is installed."""
    return importlib.util.find_spec("matplotlib") is not None


def _figure(width: float, height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _svg(figure, prefix: str) -> str:
    """The figure as SVG text for a page: no XML prologue, every id prefixed with ``prefix``."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context(RC):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}-\1"', text)
    text = re.sub(r'href="#([^"]+)"', rf'href="#{prefix}-\1"', text)
    text = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}-\1)", text)
    return text.replace("<svg ", f'<svg role="img" aria-labelledby="{prefix}-caption" ', 1)


def totals_histogram(prefix: str, totals: Sequence[float], maximum: float, marks: dict[str, float]) -> str:
    """A histogram of the totals in which each student is one block, with the given marks (mean,
    median, ...) as lines."""
    import matplotlib
    from matplotlib.patches import Rectangle

    with matplotlib.rc_context(RC):
        figure = _figure(7.5, 3.2)
        ax = figure.add_subplot()
        bins = 20
        width = maximum / bins if maximum > 0 else 1.0
        heights = [0] * bins
        for i, total in enumerate(totals):
            b = min(bins - 1, max(0, math.floor(total / width))) if maximum > 0 else 0
            block = Rectangle((b * width, heights[b]), width, 1, facecolor=BLOCK, edgecolor=EDGE, linewidth=0.6)
            block.set_gid(f"student-{i}")
            ax.add_patch(block)
            heights[b] += 1
        styles = {
            "mean": ("-", ACCENT),
            "median": ("--", "#222222"),
            "first quartile": (":", "#222222"),
            "third quartile": (":", "#222222"),
        }
        for name, value in marks.items():
            style, colour = styles.get(name, ("-", "#888888"))
            ax.axvline(value, linestyle=style, color=colour, linewidth=1.2, label=f"{name} {value:.2f}")
        ax.set_xlim(0, maximum if maximum > 0 else 1)
        ax.set_ylim(0, max(heights + [1]) + 0.5)
        ax.set_xlabel(f"total points (of {maximum:g})")
        ax.set_ylabel("students")
        ax.yaxis.get_major_locator().set_params(integer=True)
        if marks:
            figure.legend(loc="outside upper center", ncols=len(marks), frameon=False, fontsize=8)
    return _svg(figure, prefix)


def type_points(prefix: str, types: Sequence[tuple[str, float, Sequence[float]]]) -> str:
    """One box plot per type (name, maximum, each student's points) of the share of its points
    earned, with the mean as a dot."""
    import matplotlib

    with matplotlib.rc_context(RC):
        figure = _figure(7.5, 0.9 + 0.32 * len(types))
        ax = figure.add_subplot()
        shares = [[100 * p / maximum if maximum else 0 for p in points] for _, maximum, points in types]
        positions = list(range(len(types), 0, -1))
        ax.boxplot(
            shares,
            positions=positions,
            orientation="horizontal",
            widths=0.55,
            showmeans=True,
            patch_artist=True,
            boxprops={"facecolor": "#dbe4f0", "edgecolor": BLOCK},
            medianprops={"color": "#222222"},
            meanprops={"marker": "o", "markerfacecolor": ACCENT, "markeredgecolor": ACCENT, "markersize": 4},
            flierprops={"marker": ".", "markersize": 3},
        )
        ax.set_yticks(positions, [f"{name} ({maximum:g})" for name, maximum, _ in types])
        ax.set_xlim(-2, 102)
        ax.set_xlabel("share of the type's points earned (%); box: quartiles, line: median, dot: mean")
    return _svg(figure, prefix)


def heat_map(
    prefix: str,
    rows: Sequence[tuple[str, Sequence[float | None]]],
    groups: Sequence[tuple[str, int]],
    lost: Sequence[float],
    students: Sequence[str],
) -> str:
    """Operations (rows, with each one's pass rate per student, None where not graded) against the
    students (columns), the rows grouped (type name, number of rows); beside it, per row, the
    fraction of students who lost points."""
    import matplotlib
    import numpy
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    with matplotlib.rc_context(RC):
        n = max(1, len(students))
        figure = _figure(7.5, 1.3 + 0.19 * len(rows))
        heat, bars = figure.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [3.2, 1]})
        cmap = matplotlib.colormaps[CMAP].with_extremes(bad=NOT_GRADED)
        for i, (_, values) in enumerate(rows):
            data = numpy.ma.masked_invalid(numpy.array([[math.nan if v is None else v for v in values]], dtype=float))
            image = heat.imshow(
                data, cmap=cmap, vmin=0, vmax=1, extent=(0, n, i + 1, i), aspect="auto", interpolation="nearest"
            )
            image.set_gid(f"row-{i}")
        heat.set_xlim(0, n)
        heat.set_ylim(len(rows), 0)
        heat.set_yticks([i + 0.5 for i in range(len(rows))], [label for label, _ in rows], fontsize=7)
        if len(students) <= 40:
            heat.set_xticks([j + 0.5 for j in range(len(students))], students, rotation=90, fontsize=6)
        else:
            heat.set_xticks([])
        heat.set_xlabel("students, highest total first")
        start = 0
        for _, count in groups:
            if start:
                heat.axhline(start, color="#222222", linewidth=0.8)
                bars.axhline(start, color="#222222", linewidth=0.8)
            start += count
        mappable = ScalarMappable(norm=Normalize(0, 1), cmap=cmap)
        figure.colorbar(
            mappable,
            ax=heat,
            location="top",
            shrink=0.6,
            label="pass rate (share of the operation's points earned; grey: not graded)",
        )
        for i, fraction in enumerate(lost):
            (bar,) = bars.barh([i + 0.5], [100 * fraction], height=0.75, color=ACCENT)
            bar.set_gid(f"lost-{i}")
        bars.set_xlim(0, 100)
        bars.set_xlabel("lost points (% of class)")
        bars.tick_params(axis="y", left=False)
        bars.xaxis.set_label_position("top")
        bars.xaxis.tick_top()
    return _svg(figure, prefix)
