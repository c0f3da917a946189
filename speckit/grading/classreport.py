"""The class report, ``report.html``: what the class got wrong, at a glance.

Built from the output folder's records (:mod:`~speckit.grading.classrecord`) alone, so
it can be rebuilt from any run (``speckit grade report DIR``) and a merged run gives the
report a single run gives. One self-contained page: the style inline, the charts inline
SVG (matplotlib, when installed), no script, no network (its Content-Security-Policy
forbids any), links only to the feedback files beside it. Every text that comes from a
submission is HTML-escaped. The same records give the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import charts
from .classdata import ClassData
from .classrecord import RECORDS, RecordError, read_records, write_records
from .classsections import (
    agreed_facts,
    e,
    failures_section,
    grader_section,
    operations_section,
    run_section,
    students_section,
    totals_section,
)
from .reports import write_file

REPORT = "report.html"
"""The report's name in the output folder."""

STYLE = (
    "\n"
    'body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d1d1f; '
    "margin: 0 auto; max-width: 62rem; padding: 1rem 1.5rem 3rem; }\n"
    "h1 { font-size: 1.6rem; margin-bottom: .2rem; } "
    "h2 { font-size: 1.25rem; border-bottom: 1px solid #ccc; margin-top: 2.2rem; } "
    "h3 { font-size: 1.05rem; margin-bottom: .3rem; }\n"
    "table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; } "
    "th, td { border: 1px solid #d0d0d0; padding: .2rem .5rem; text-align: left; vertical-align: top; }\n"
    "td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; } "
    "caption { text-align: left; font-weight: 600; padding-bottom: .2rem; }\n"
    "pre { background: #f6f6f6; border: 1px solid #e0e0e0; padding: .5rem; overflow-x: auto; white-space: pre-wrap; "
    "font-size: .8rem; }\n"
    "code { font-size: .85em; } figure { margin: 1rem 0; break-inside: avoid; } "
    "figure svg { width: 100%; height: auto; } figcaption { font-size: .85rem; color: #555; }\n"
    ".failure { border-left: 4px solid #c44e52; padding-left: .8rem; margin: 1.2rem 0; break-inside: avoid; } "
    ".muted { color: #666; font-size: .9rem; }\n"
    ".tag { display: inline-block; font-size: .75rem; border: 1px solid #999; border-radius: 3px; padding: 0 .3rem; "
    "margin-left: .3rem; color: #444; }\n"
    ".warning { background: #fff4e5; border: 1px solid #f0b25a; padding: .5rem .8rem; }\n"
    "nav ol { columns: 2; font-size: .9rem; }\n"
    "@media print { body { max-width: none; font-size: 11pt; } a { color: inherit; } nav { display: none; } "
    "h2 { break-after: avoid; } pre { max-height: none; } }\n"
)
"""The page's style sheet, inline (the Content-Security-Policy allows no other)."""

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
"""Nothing but the page itself: no script, no request, whatever a text inside it holds."""


NAVIGATION = (
    '<nav><ol><li><a href="#run">The run</a></li><li><a href="#totals">Totals</a></li>'
    '<li><a href="#operations">Operations</a></li><li><a href="#failures">Most common failures</a></li>'
    '<li><a href="#grader">What the grader had to do</a></li><li><a href="#students">Students</a></li></ol></nav>'
)


def build(records: list[dict[str, Any]], with_charts: bool | None = None) -> str:
    """The report's HTML for these records (charts when ``with_charts``, default: when matplotlib is installed)."""
    with_charts = charts.available() if with_charts is None else with_charts
    data = ClassData(records)
    facts = agreed_facts(records)
    title = f"{facts.get('rubric_title', 'Grading run')}: class report"
    body = [
        f"<h1>{e(title)}</h1>",
        f'<p class="muted">{len(records)} submission{"s" if len(records) != 1 else ""} graded. '
        f"Built from the {e(RECORDS)}/ folder of this grading run; "
        "each student name links to the feedback the student received.</p>",
    ]
    if not with_charts:
        body.append(
            '<p class="warning" id="no-charts">Charts are left out because matplotlib is not installed: '
            f"run <code>{e(charts.INSTALL_HINT)}</code>, then <code>speckit grade report DIR</code>.</p>"
        )
    body.append(NAVIGATION)
    body += run_section(records, facts)
    body += totals_section(data, with_charts)
    body += operations_section(data, with_charts)
    body += failures_section(data)
    body += grader_section(data)
    body += students_section(data)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def write_class_report(out: Path, grades: list, facts: dict[str, Any]) -> Path:
    """Write the records of a run's grades, then the report built from them; the report's path.

    The one place the grader calls: after the grade files are written."""
    write_records(out, grades, facts)
    return write_report(out)


def merge_class_report(shards: Iterable[Path], out: Path) -> Path:
    """Bring the records of a class graded in shards (each shard's output folder) into ``out``, then
    build its report: the report one run over all the submissions gives. RecordError when a
    shard holds no records or two shards hold one student's."""
    folder = out / RECORDS
    folder.mkdir(parents=True, exist_ok=True)
    for shard in shards:
        if not (shard / RECORDS).is_dir():
            raise RecordError(f"the shard {shard} holds no {RECORDS}/ folder")
        for path in sorted((shard / RECORDS).glob("*.json")):
            if (folder / path.name).exists():
                raise RecordError(f"{path.stem} was graded in two shards (the second is {shard})")
            write_file(folder / path.name, path.read_text(encoding="utf-8"))
    return write_report(out)


def write_report(out: Path, with_charts: bool | None = None) -> Path:
    """Build ``report.html`` in the output folder ``out`` from its records; the report's path."""
    path = out / REPORT
    write_file(path, build(read_records(out), with_charts))
    return path
