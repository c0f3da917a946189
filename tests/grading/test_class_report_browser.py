"""The class report of a graded class of several kinds, opened in headless Chromium (the Debian package).

Slow: it grades twelve submissions. The browser must show no console error (the page's
Content-Security-Policy turns any script or request, say from a name that escaped
escaping, into one); the page's structure is checked in its DOM; a screenshot is kept
as a CI artifact in ``$SPECKIT_CI_ARTIFACTS`` (default ``/tmp/speckit-ci-artifacts``).
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

import spec as spec_data
from speckit.grading import grade
from speckit.grading.classreport import REPORT
from speckit.skeleton import write_skeleton
from speckit.zoo import load_mutants, materialise

from .chromium import Browser, executable
from .conftest import INDEX_DIMENSION_RUBRIC as RUBRIC
from .conftest import plain_alternative, reference_copy

pytestmark = pytest.mark.slow

ARTIFACTS = Path(os.environ.get("SPECKIT_CI_ARTIFACTS", "/tmp/speckit-ci-artifacts"))
CONNECT4 = spec_data.load("connect4")
TYPES = ("IndexType", "DimensionType")
ZOO = ("index-decrement-by-two", "index-clone-shares", "dimension-default-five", "dimension-less-than-or-equal")
HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if executable() is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed: .ci/run installs the Debian package chromium")
        pytest.skip("Chromium is not installed (Debian package chromium)")
    with Browser(tmp_path_factory.mktemp("chromium-profile")) as b:
        yield b


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """Twelve submissions: correct (the reference, two alternatives, one under a hostile name), four zoo
    members, an empty skeleton, a package whose __init__ does not import, one whose index.py does not, an
    empty folder and a broken zip."""
    pytest.importorskip("matplotlib", reason="the charts need speckit[report]")
    base = tmp_path_factory.mktemp("class")
    submissions = base / "submissions"
    reference_copy(submissions / "alice")
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    shutil.copytree(fixtures / "alt_connect4", submissions / "bruno", ignore=shutil.ignore_patterns("__pycache__"))
    plain_alternative(submissions / "chen")
    reference_copy(submissions / HOSTILE)
    mutants = {m.id: m for m in load_mutants("connect4")}
    for name, mutant in zip(("dara", "eli", "fatou", "gus"), ZOO, strict=True):
        materialise(mutants[mutant], submissions / name / "connect4")
    write_skeleton(CONNECT4, submissions / "hana" / "connect4")
    reference_copy(submissions / "ivan")
    (submissions / "ivan" / "__init__.py").write_text("undefined_name_at_import\n", encoding="utf-8")
    reference_copy(submissions / "jo", index="from .nowhere import something\n")
    (submissions / "kim").mkdir()
    (submissions / "leo.zip").write_bytes(b"not a zip")
    rubric = base / "rubric.toml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    out = base / "out"
    grade(submissions, out, jobs=2, rubric=rubric, stream=io.StringIO())
    return out


def test_the_report_opens_in_chromium_without_error_with_its_structure(graded, browser):
    students = sorted(p.stem for p in (graded / "feedback").glob("*.md"))
    assert len(students) >= 10
    browser.open((graded / REPORT).as_uri())
    assert browser.errors() == [], "the console shows errors"

    def count(selector: str) -> int:
        return browser.evaluate(f"document.querySelectorAll({selector!r}).length")

    assert count("[id^='totals-chart-student-']") == len(students), "one block per student in the histogram"
    operations = [op.qualname for t in TYPES for op in CONNECT4.type(t).operations if not op.extension]
    assert count("[id^='heat-chart-row-']") == len(operations), "one heat-map row per operation"
    assert count("[id^='heat-chart-lost-']") == len(operations), "one bar per operation"
    shown = browser.evaluate(
        "[...document.querySelectorAll('#operations-table tr')].slice(1)"
        ".map(r => r.cells[0].textContent + '.' + r.cells[1].textContent)"
    )
    assert shown == operations, "the operations grouped by type, in the specification's order"
    assert count("figure svg") == 3 and count("figure figcaption") == 3
    links = browser.evaluate("[...document.querySelectorAll('a[href^=\"feedback/\"]')].map(a => a.href)")
    targets = {Path(unquote(urlparse(link).path)) for link in links}
    assert targets and all(t.is_file() and t.parent == graded / "feedback" for t in targets), (
        "every link opens a feedback file"
    )
    assert {t.stem for t in targets} == set(students), "every student is linked"
    assert browser.evaluate("document.body.innerText").count(HOSTILE) >= 1, "the hostile name is shown as text"
    hybrids = count("#hybrids tr") - 1
    assert hybrids >= 2, "faulty and unimportable packages were graded as hybrids, and the report says so"
    shot = browser.screenshot(ARTIFACTS / "class-report.png")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
    print(f"screenshot of the class report: {shot}")


def test_the_browser_check_sees_what_the_pages_policy_blocks(tmp_path, browser):
    """The control: under the report's policy, an inline script and an image from elsewhere are errors
    the check reports."""
    from speckit.grading.classreport import CSP

    page = tmp_path / "blocked.html"
    page.write_text(
        f'<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="{CSP}"></head>'
        '<body><script>document.title = "ran"</script><img src="http://127.0.0.1:9/x.png" alt=""></body></html>',
        encoding="utf-8",
    )
    browser.open(page.as_uri())
    assert browser.evaluate("document.title") != "ran"
    assert len(browser.errors()) >= 1
