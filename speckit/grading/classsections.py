"""The class report's sections, each a list of HTML lines built from the class's records.

Every text that comes from a submission is HTML-escaped (:func:`e`); links go only to the
feedback files beside the report.
"""

from __future__ import annotations

import html
import re
import statistics
from collections import Counter
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from . import charts
from .classdata import ClassData, summary

FAILURES_SHOWN = 25
"""Behaviours listed in full among the most common failures; the rest are named in one line each."""
SLOWEST_SHOWN = 10
EXAMPLE_LINES = 24


def e(text: Any) -> str:
    """Text for HTML, escaped (quotes too)."""
    return html.escape(str(text), quote=True)


def feedback_link(student: str) -> str:
    """A link to the student's feedback file, beside the report."""
    return f'<a href="feedback/{e(quote(student))}.md">{e(student)}</a>'


def humane(test: str) -> str:
    """A test's id as the behaviour it checks:
    ``test_increment_gives_the_next_index[x]`` -> ``increment gives the next index``."""
    name = test.split("::")[-1].split("[", 1)[0]
    return name.removeprefix("test_").replace("_", " ")


FACTS = (
    ("spec", "Specification"),
    ("spec_title", "Specification's title"),
    ("spec_digest", "Specification data digest"),
    ("kit_version", "speckit version"),
    ("rubric_title", "Rubric"),
    ("rubric_digest", "Rubric digest (SHA-256 of the file)"),
    ("mode", "Grading mode"),
    ("sandbox", "Sandbox"),
)


def agreed_facts(records: list[dict[str, Any]]) -> dict[str, str]:
    """The run's facts as most records give them (a merged run's shards should agree;
    :func:`run_section` says where not)."""
    facts = {}
    for key, _ in FACTS:
        values = Counter(str(r.get("run", {}).get(key, "")) for r in records)
        facts[key] = values.most_common(1)[0][0] if values else ""
    return facts


def run_section(records: list[dict[str, Any]], facts: dict[str, str]) -> list[str]:
    """The run's facts: what was graded, against what, how; a warning for each fact the records differ on."""
    out = ['<section id="run">', "<h2>The run</h2>", '<table id="run-facts">']
    for key, label in FACTS:
        out.append(
            f"<tr><th>{e(label)}</th><td><code>{e(facts[key])}</code></td></tr>"
            if "digest" in key
            else f"<tr><th>{e(label)}</th><td>{e(facts[key])}</td></tr>"
        )
    out.append("</table>")
    for key, label in FACTS:
        values = sorted({str(r.get("run", {}).get(key, "")) for r in records})
        if len(values) > 1:
            out.append(
                '<p class="warning">The submissions were not all graded alike: '
                f"{e(label.lower())} differs ({e(', '.join(values))}).</p>"
            )
    out.append(
        '<p class="muted">Two reports with the same specification data digest and rubric digest '
        "graded against the same suite and rubric.</p>"
    )
    out.append("</section>")
    return out


def _number(value: float) -> str:
    return f"{value:.2f}"


def _stats_table(ident: str, caption: str, rows: Iterable[tuple[str, float, list[float]]]) -> list[str]:
    keys = ("mean", "median", "first quartile", "third quartile", "lowest", "highest")
    out = [
        f'<table id="{ident}"><caption>{e(caption)}</caption><tr><th></th><th class="n">out of</th>'
        + "".join(f'<th class="n">{k}</th>' for k in keys)
        + "</tr>"
    ]
    for label, maximum, values in rows:
        s = summary(values)
        out.append(
            f'<tr><th>{e(label)}</th><td class="n">{maximum:g}</td>'
            + "".join(f'<td class="n">{_number(s[k])}</td>' for k in keys)
            + "</tr>"
        )
    out.append("</table>")
    return out


def _figure(ident: str, prefix: str, svg: str, caption: str) -> str:
    """A chart and its caption (the chart's SVG is labelled by it: ``<prefix>-caption``)."""
    return f'<figure id="{ident}">{svg}<figcaption id="{prefix}-caption">{e(caption)}</figcaption></figure>'


def totals_section(data: ClassData, with_charts: bool) -> list[str]:
    """The totals and each type's points: their statistics, and charts of their spread."""
    totals = [float(r["total"]) for r in data.records]
    points = {
        name: [float(t["score"]) for r in data.records for t in r["types"] if t["name"] == name]
        for name in data.type_names
    }
    out = ['<section id="totals">', "<h2>Totals</h2>"]
    out += _stats_table(
        "totals-stats",
        "Totals and each type's points",
        [("total", data.maximum(), totals)] + [(n, data.type_max[n], points[n]) for n in data.type_names],
    )
    if with_charts and totals:
        s = summary(totals)
        marks = {k: s[k] for k in ("mean", "median", "first quartile", "third quartile")}
        svg = charts.totals_histogram("totals-chart", totals, data.maximum(), marks)
        out.append(
            _figure(
                "totals-histogram",
                "totals-chart",
                svg,
                "Distribution of the totals: each block is one student, in the bin of their total; "
                "the lines mark the mean, the median and the quartiles.",
            )
        )
        if data.type_names:
            svg = charts.type_points("types-chart", [(n, data.type_max[n], points[n]) for n in data.type_names])
            out.append(
                _figure(
                    "types-boxes", "types-chart", svg, "Each type's points as a share of its maximum across the class."
                )
            )
    out.append("</section>")
    return out


def operations_section(data: ClassData, with_charts: bool) -> list[str]:
    """Each operation's pass rates across the class (a heat map) and the share of the class that lost points on it."""
    students = [r["student"] for r in data.order]
    rows: list[tuple[str, list[float | None]]] = []
    lost: list[float] = []
    groups: list[tuple[str, int]] = []
    """(type, how many of its operations) in the rows' order."""
    for type_name, qualname in data.operations:
        rows.append((qualname, [data.pass_rate(r, type_name, qualname) for r in data.order]))
        lost.append(data.lost(type_name, qualname))
        if groups and groups[-1][0] == type_name:
            groups[-1] = (type_name, groups[-1][1] + 1)
        else:
            groups.append((type_name, 1))
    out = ['<section id="operations">', "<h2>Operations</h2>"]
    out.append(
        "<p>Each row is a documented operation, grouped by type in the specification's order; "
        "each column a student, highest total first. "
        "A cell is the share of the operation's points the student earned (the share of its tests that passed); "
        "grey where it was not graded. "
        "The bars give the fraction of the class that lost points on the operation: "
        "the long bars are what the class struggled with.</p>"
    )
    if with_charts and rows:
        svg = charts.heat_map("heat-chart", rows, groups, lost, students)
        out.append(
            _figure(
                "heat-map",
                "heat-chart",
                svg,
                "Pass rates per operation (rows) and student (columns), "
                "and the fraction of students who lost points on each operation.",
            )
        )
    out.append(
        '<table id="operations-table"><caption>Operations, in the specification\'s order</caption>'
        '<tr><th>Type</th><th>Operation</th><th class="n">mean pass rate</th>'
        '<th class="n">students who lost points</th></tr>'
    )
    for (type_name, qualname), (_, values), fraction in zip(data.operations, rows, lost, strict=True):
        graded = [v for v in values if v is not None]
        mean = f"{100 * statistics.fmean(graded):.0f} %" if graded else "not graded"
        out.append(
            f"<tr><td>{e(type_name)}</td><td>{e(qualname.split('.', 1)[-1])}</td>"
            f'<td class="n">{mean}</td><td class="n">{100 * fraction:.0f} %</td></tr>'
        )
    out += ["</table>", "</section>"]
    return out


def _example_size(message: str) -> tuple[int, int]:
    """How small a failing example is: the length of its falsifying example (or of the whole message
    when it has none), then of the message."""
    match = re.search(r"(?:Falsifying example|Failing test case):(.*)", message, re.S)
    return (len(match.group(1)) if match else len(message), len(message))


def _clip(text: str) -> str:
    rows = text.strip().splitlines()
    return "\n".join(
        rows[:EXAMPLE_LINES] + ([f"... ({len(rows) - EXAMPLE_LINES} more lines)"] if len(rows) > EXAMPLE_LINES else [])
    )


def failures_section(data: ClassData) -> list[str]:
    """The behaviours most students failed, each with the smallest failing example; the operations not written yet."""
    groups, unwritten, errata = _failures(data)
    ranked = sorted(groups.items(), key=lambda item: (-len({s for s, _, _ in item[1]}), item[0]))
    out = ['<section id="failures">', "<h2>Most common failures</h2>"]
    out.append(
        "<p>Grouped by the documented behaviour each test checks (not by the text of the message), "
        "the most common first: how many students failed it, "
        "the errata its messages cite, the smallest failing example among them, "
        "and the students (linked to their feedback).</p>"
    )
    if not ranked:
        out.append('<p id="no-failures">No behaviour failed.</p>')
    for rank, (test, entries) in enumerate(ranked[:FAILURES_SHOWN], 1):
        out += _failure(rank, test, entries, errata, len(data.records))
    if len(ranked) > FAILURES_SHOWN:
        out.append(
            "<p>Also failed, by fewer students: "
            + "; ".join(
                f"{e(humane(test))} ({len({s for s, _, _ in entries})})" for test, entries in ranked[FAILURES_SHOWN:]
            )
            + ".</p>"
        )
    if unwritten:
        out += _unwritten(unwritten, data)
    out.append("</section>")
    return out


Failed = list[tuple[str, dict[str, Any], str]]
"""The failures of one test across the class: each student, the failure's record and the type's name."""


def _failures(data: ClassData) -> tuple[dict[str, Failed], dict[str, set[str]], dict[str, str]]:
    """The class's failures by test; the students missing each operation; the errata the records cite."""
    groups: dict[str, Failed] = {}
    unwritten: dict[str, set[str]] = {}
    errata: dict[str, str] = {}
    for r in data.records:
        errata.update(r.get("errata", {}))
        for t in r["types"]:
            for f in t["failures"]:
                if f["kind"] in ("missing", "not implemented"):
                    for op in f["covers"]:
                        unwritten.setdefault(op, set()).add(r["student"])
                    continue
                groups.setdefault(f["test"], []).append((r["student"], f, t["name"]))
    return groups, unwritten, errata


def _failure(rank: int, test: str, entries: Failed, errata: dict[str, str], class_size: int) -> list[str]:
    """One common failure: how many failed it, the errata cited, the smallest example, the students."""
    students = sorted({s for s, _, _ in entries})
    first = entries[0][1]
    cited = sorted({i for _, f, _ in entries for i in f.get("errata", [])})
    smallest = min(entries, key=lambda entry: (*_example_size(entry[1]["message"]), entry[0]))
    tags = "".join(
        f'<span class="tag">{label}</span>'
        for label, on in (("hidden test", first.get("hidden")), ("structure", first.get("structural")))
        if on
    )
    out = [f'<div class="failure" id="failure-{rank}">']
    out.append(f"<h3>{rank}. {e(humane(test))}{tags}</h3>")
    share = 100 * len(students) / max(1, class_size)
    out.append(
        f'<p><strong class="count">{len(students)} student{"s" if len(students) != 1 else ""}</strong> '
        f"({share:.0f} % of the class). "
        f"Test <code>{e(test)}</code>, checking {e(', '.join(first['covers']))}.</p>"
    )
    if cited:
        out.append(
            "<p>Errata cited: " + "; ".join(f"<strong>{e(i)}</strong> {e(errata.get(i, ''))}" for i in cited) + ".</p>"
        )
    out.append(
        f'<p class="muted">Smallest failing example ({feedback_link(smallest[0])}):</p>'
        f"<pre>{e(_clip(smallest[1]['message']))}</pre>"
    )
    out.append('<p class="students">Students: ' + ", ".join(feedback_link(s) for s in students) + "</p>")
    out.append("</div>")
    return out


def _unwritten(unwritten: dict[str, set[str]], data: ClassData) -> list[str]:
    """The table of operations not written yet, with how many students lack each."""
    out = [
        '<h3 id="unwritten">Not written yet</h3>'
        "<p>Operations some tests found missing or not implemented, with the number of students:</p>"
        '<table id="unwritten-table"><tr><th>Operation</th><th class="n">students</th></tr>'
    ]
    order = {q: i for i, (_, q) in enumerate(data.operations)}
    for op in sorted(unwritten, key=lambda q: (-len(unwritten[q]), order.get(q, len(order)), q)):
        out.append(f'<tr><td>{e(op)}</td><td class="n">{len(unwritten[op])}</td></tr>')
    out.append("</table>")
    return out


def grader_section(data: ClassData) -> list[str]:
    """What grading took beyond one run as submitted: hybrids, import failures, limits, confinement, the slowest."""
    out = ['<section id="grader">', "<h2>What the grader had to do</h2>"]
    out += _hybrids(data)
    for ident, heading, key in (
        ("imports", "Import failures and unreadable submissions", "import_problems"),
        ("limits", "Limits reached", "limits_reached"),
    ):
        rows = [(r["student"], line) for r in data.records for line in _problems(r, key)]
        students = len({s for s, _ in rows})
        out.append(f"<h3>{heading} ({students} student{'s' if students != 1 else ''})</h3>")
        if rows:
            out.append(f'<table id="{ident}"><tr><th>Student</th><th>What happened</th></tr>')
            out += [f"<tr><td>{feedback_link(s)}</td><td>{e(line)}</td></tr>" for s, line in rows]
            out.append("</table>")
    out += _confinement(data)
    out += _slowest(data)
    out.append("</section>")
    return out


def _hybrids(data: ClassData) -> list[str]:
    """The types graded as hybrids, and why."""
    hybrids = [(r["student"], t) for r in data.records for t in r["types"] if t["graded_as"] == "hybrid"]
    out = [f"<h3>Graded as hybrids ({len(hybrids)})</h3>"]
    out.append(
        '<p class="muted">A type graded in a copy of the reference holding the student\'s module, '
        "because it earned more that way (or because the package did not run as submitted).</p>"
    )
    if hybrids:
        out.append('<table id="hybrids"><tr><th>Student</th><th>Type</th><th>Why</th></tr>')
        for student, t in hybrids:
            why = t["note"] if not t["other"] else f"it earned {t['score']} of {t['max']} this way; {t['other']}"
            out.append(f"<tr><td>{feedback_link(student)}</td><td>{e(t['name'])}</td><td>{e(why)}</td></tr>")
        out.append("</table>")
    return out


def _confinement(data: ClassData) -> list[str]:
    """The confinements the submissions ran under, with how many were graded with a warning."""
    confinement = Counter(
        (
            r["run"].get("sandbox", ""),
            bool(r["run"].get("sandbox_complete")),
            r["run"].get("confinement", ""),
            r["run"].get("warning", ""),
        )
        for r in data.records
    )
    warned = sum(n for (_, complete, _, warning), n in confinement.items() if warning or not complete)
    out = [f"<h3>Confinement ({warned} submission{'s' if warned != 1 else ''} graded with a warning)</h3>"]
    out.append(
        '<table id="confinement"><tr><th>Sandbox</th><th>Complete</th><th>In force</th><th>Warning</th>'
        '<th class="n">submissions</th></tr>'
    )
    for (mechanism, complete, what, warning), n in sorted(confinement.items()):
        out.append(
            f"<tr><td>{e(mechanism)}</td><td>{'yes' if complete else 'NO'}</td><td>{e(what)}</td>"
            f'<td>{e(warning)}</td><td class="n">{n}</td></tr>'
        )
    out.append("</table>")
    return out


def _slowest(data: ClassData) -> list[str]:
    """The slowest submissions' wall times."""
    slowest = sorted(data.records, key=lambda r: (-float(r.get("seconds", 0)), r["student"]))[:SLOWEST_SHOWN]
    out = [
        '<h3>Slowest submissions</h3><p class="muted">Wall time of grading each '
        "(it varies from run to run with the machine's load).</p>"
    ]
    out.append(
        '<table id="slowest"><tr><th>Student</th><th class="n">seconds</th><th class="n">total</th>'
        "<th>Hybrids</th></tr>"
    )
    for r in slowest:
        out.append(
            f'<tr><td>{feedback_link(r["student"])}</td><td class="n">{float(r.get("seconds", 0)):.1f}</td>'
            f'<td class="n">{e(r["total"])}</td><td>{e(", ".join(r["hybrids"]))}</td></tr>'
        )
    out.append("</table>")
    return out


def _problems(record: dict[str, Any], key: str) -> list[str]:
    """A record's lines under ``key``; for import problems, why it could not be read at all comes first."""
    lines = list(record[key])
    if key == "import_problems" and record["reason"] and record["reason"] not in lines:
        lines.insert(0, record["reason"])
    return lines


def students_section(data: ClassData) -> list[str]:
    """Every student's points by type and total, linked to their feedback."""
    out = [
        '<section id="students">',
        "<h2>Students</h2>",
        '<table id="students-table"><tr><th>Student</th><th>Submission</th>',
    ]
    out += [f'<th class="n">{e(n)}</th>' for n in data.type_names]
    out.append('<th class="n">total</th></tr>')
    for r in data.records:
        scores = {t["name"]: t["score"] for t in r["types"]}
        cells = "".join(f'<td class="n">{e(scores.get(n, ""))}</td>' for n in data.type_names)
        out.append(
            f"<tr><td>{feedback_link(r['student'])}</td><td>{e(r['submission'])}</td>{cells}"
            f'<td class="n">{e(r["total"])} of {e(r["max"])}</td></tr>'
        )
    out += ["</table>", "</section>"]
    return out
