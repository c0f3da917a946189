"""The operation server confines untrusted code, and malicious submissions get exactly what they earn.

The malicious submissions (generated from ``submissions/*.toml``, see the README there) are graded
together with honest copies of the reference, on the Index tests only, as submitted. The
grade each must get is that of a *benign model* of its behaviour, run in-process: an
attack that kills the server, loops, allocates without bound or prints without end
fails its operation exactly like an operation that raises; an attack that tries to read
secrets, write or delete the grader's files, or patch the grader achieves nothing, so
the submission earns what the reference earns.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import adt.display as kit_display
import adt.input as kit_input
import spec as spec_data
from speckit.core import OperationFailed
from speckit.grading import grade
from speckit.paths import REPO_ROOT
from speckit.registry import kit
from speckit.runner import run_suite
from speckit.sandbox import Handle, SandboxConfig, load_sandboxed, probe_isolation

from .conftest import (
    INCREMENT,
    INDEX_RUBRIC,
    REFERENCE,
    malicious_cases,
    malicious_index,
    malicious_package,
    needs_root,
    patched_reference,
    reference_copy,
)

CONNECT4 = spec_data.load("connect4")
SUITE = kit("connect4").suite_dir
INDEX_TESTS = [SUITE / "test_index.py"]

CASES = malicious_cases()
BUBBLEWRAP = probe_isolation(SandboxConfig()).complete
"""Under bubblewrap the server is PID 1 of its own namespace: it has no parent to kill
(killparent signals only itself, which PID 1 ignores) and no process to kill at all
(killall's kill(-1) raises ProcessLookupError). Each earns what that behaviour earns."""
RAISES = {
    "exit",
    "sysexit",
    "forkbomb",
    "loop",
    "stubborn",
    "memory",
    "printer",
    "killall" if BUBBLEWRAP else "killparent",
}
EQUALS_RAISES = {"forger"}
HARMLESS = {"reader", "writer", "deleter", "patcher", "killparent" if BUBBLEWRAP else "killall"}
REASONS = {
    "exit": "ended the implementation's process (it exited with status 0)",
    "sysexit": "tried to end the program (SystemExit 3)",
    **({"killall": "raised ProcessLookupError"} if BUBBLEWRAP else {"killparent": "raised PermissionError"}),
    "forkbomb": "raised BlockingIOError",
    "loop": "did not return within 2 s",
    "stubborn": "did not return within 2 s",
    "memory": "went over the memory limit of 1024 MB",
    "printer": "printed more than 1024 KB",
    "forger": "wrote into the grader's channel",
}


def test_every_fixture_is_classified():
    assert set(CASES) == RAISES | EQUALS_RAISES | HARMLESS


@pytest.mark.parametrize("case", CASES)
def test_every_fixture_generates_a_module_from_the_current_reference(case):
    """Each fixture's attack still finds its place in adt/index.py, and the result compiles (it is never run here)."""
    text = malicious_index(case)
    assert ast.get_docstring(ast.parse(text)).startswith(f"MALICIOUS FIXTURE ({case})")
    compile(text, f"{case}/index.py", "exec")


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _statuses(results: Path) -> dict[str, str]:
    data = json.loads(results.read_text(encoding="utf-8"))
    return {t["name"].split(": ", 1)[1]: t["status"] for t in data["tests"]}


def _model(tmp: Path, module_find: str, body: str) -> dict[str, str]:
    """The outcome of each Index test, in-process, for a reference whose operation just raises."""
    package = patched_reference(tmp, "index", module_find, module_find + body)
    run = run_suite("connect4", package, tests=INDEX_TESTS)
    assert not run.crash, run.crash
    return {t["test"].split("::", 1)[1]: t["outcome"] for t in run.tests}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Grade all the malicious submissions and two honest ones together, once."""
    base = tmp_path_factory.mktemp("malicious")
    submissions, out, decoy = base / "submissions", base / "out", base / "decoy-kit"
    rubric = base / "index.toml"
    rubric.write_text(INDEX_RUBRIC, encoding="utf-8")
    shutil.copytree(SUITE, decoy)
    places = {
        "@OUT@": str(out),
        "@SUBMISSIONS@": str(submissions),
        "@REPO@": str(REPO_ROOT),
        "@RUBRIC@": str(rubric),
        "@DECOY@": str(decoy),
    }
    for case in CASES:
        malicious_package(submissions / case, case, places)
    reference_copy(submissions / "honest1")
    reference_copy(submissions / "honest2" / "connect4")
    before = {
        "submissions": _digest(submissions),
        "decoy": _digest(decoy),
        "suite": sorted(p.name for p in SUITE.glob("*.py")),
    }
    log = io.StringIO()
    started = time.monotonic()
    grades = grade(submissions, out, jobs=2, rubric=rubric, stream=log)
    seconds = time.monotonic() - started
    models = {
        "increment": _model(base / "model-increment", INCREMENT, '    raise RuntimeError("model")\n'),
        "equals": _model(
            base / "model-equals",
            "def equals(first: Index, second: Index) -> bool:\n"
            '    """Whether the two indexes hold the same number."""\n',
            '    raise RuntimeError("model")\n',
        ),
        "reference": _model(base / "model-reference", INCREMENT, ""),
    }
    return {
        "grades": {g.name: g for g in grades},
        "out": out,
        "submissions": submissions,
        "decoy": decoy,
        "before": before,
        "log": log.getvalue(),
        "models": models,
        "seconds": seconds,
    }


@needs_root
@pytest.mark.parametrize("case", CASES)
def test_malicious_submission_gets_the_grade_its_behaviour_earns(graded, case):
    if case in RAISES:
        model = graded["models"]["increment"]
    elif case in EQUALS_RAISES:
        model = graded["models"]["equals"]
    else:
        model = graded["models"]["reference"]
    assert set(model.values()) <= {"passed", "failed"}
    statuses = _statuses(graded["out"] / "results" / case / "results.json")
    assert statuses == model, f"{case}: graded {statuses}, but its behaviour earns {model}"
    if case in HARMLESS:
        assert graded["grades"][case].total == pytest.approx(4.0)
    feedback = (graded["out"] / "feedback" / f"{case}.md").read_text(encoding="utf-8")
    if case in REASONS:
        assert REASONS[case] in feedback, feedback[:3000]


@needs_root
def test_models_tell_the_cases_apart(graded):
    """The benign models differ from the reference, so the comparisons above have teeth."""
    models = graded["models"]
    assert set(models["reference"].values()) == {"passed"}
    assert "failed" in models["increment"].values() and "failed" in models["equals"].values()


@needs_root
def test_nothing_else_is_disturbed(graded):
    grades, out = graded["grades"], graded["out"]
    assert sorted(grades) == sorted([*CASES, "honest1", "honest2"])
    for honest in ("honest1", "honest2"):
        assert grades[honest].total == pytest.approx(4.0) and not grades[honest].reason
    assert _digest(graded["submissions"]) == graded["before"]["submissions"], "the submissions folder changed"
    assert _digest(graded["decoy"]) == graded["before"]["decoy"], "the decoy copy of the kit changed"
    # The live suite may be edited while this runs; none of its files may have gone.
    assert all((SUITE / name).is_file() for name in graded["before"]["suite"]), "a file of the kit's suite was deleted"
    for path in out.rglob("*"):
        assert not path.is_symlink(), f"{path} is a symbolic link"
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
        assert "STOLEN" not in text and "FAKE" not in text, f"{path} holds what a submission planted or stole"
    rows = (out / "grades.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "student,submission,IndexType,total,max,note" and len(rows) == len(grades) + 1
    writer = json.loads((out / "results" / "writer" / "results.json").read_text(encoding="utf-8"))
    assert writer["score"] == 4.0 and "FAKE" not in json.dumps(writer)
    assert "student code runs as uid" in graded["log"]


@needs_root
def test_the_hidden_tests_and_private_files_stay_unread(graded):
    feedback = "".join(p.read_text(encoding="utf-8") for p in (graded["out"] / "feedback").glob("*.md"))
    source = (SUITE / "test_index.py").read_text(encoding="utf-8")
    assert source.splitlines()[0] not in feedback
    assert "equivalence" not in (graded["out"] / "feedback" / "honest1.md").read_text(encoding="utf-8")


# -- the operation server, directly ------------------------------------------------------


def _probe_package(tmp_path: Path) -> Path:
    """A reference copy whose increment reports, by raising, what the server can do."""
    spy = """
    import json, os, resource, subprocess, errno
    facts = {"uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(), "cwd": os.listdir("."),
             "tmp": sorted(os.listdir("/tmp")), "env": sorted(os.environ),
             "nproc": resource.getrlimit(resource.RLIMIT_NPROC)[0], "as": resource.getrlimit(resource.RLIMIT_AS)[0]}
    def attempt(name, action):
        try:
            action()
            facts[name] = "ok"
        except BaseException as e:
            facts[name] = type(e).__name__
    attempt("read_suite", lambda: open(REPO + "/tests/connect4/test_index.py").read())
    attempt("read_git", lambda: open(REPO + "/.git/HEAD").read())
    attempt("read_hidden", lambda: os.listdir(HIDDEN))
    attempt("fork", lambda: os._exit(0) if os.fork() == 0 else None)
    attempt("exec", lambda: subprocess.run(["/bin/true"]))
    attempt("signal_grader", lambda: os.kill(GRADER, 0))
    attempt("big_file", lambda: open("big", "w").write("x" * 3 * 2**20))
    attempt("write_kit", lambda: open(REPO + "/adt/planted.py", "w").write("x"))
    facts["repo"] = sorted(os.listdir(REPO))
    raise RuntimeError("FACTS" + json.dumps(facts))
"""
    package = patched_reference(tmp_path / "probe", "index", INCREMENT, INCREMENT + spy)
    text = (package / "index.py").read_text()
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "secret.txt").write_text("secret")
    text = text.replace(
        "from spec import require\n",
        f"from spec import require\n\nREPO = {str(REPO_ROOT)!r}\nHIDDEN = {str(hidden)!r}\nGRADER = {os.getpid()}\n",
    )
    (package / "index.py").write_text(text)
    return package


def _facts(implementation) -> dict:
    with pytest.raises(OperationFailed) as caught:
        implementation.index.increment(implementation.index.newIndexType())
        implementation.flush()  # increment is pipelined: its failure shows when the batch runs
    message = str(caught.value)
    assert "FACTS" in message, message
    return json.loads(message.split("FACTS", 1)[1])


@needs_root
@pytest.mark.parametrize("bubblewrap", [True, False], ids=["bubblewrap", "fallback"])
def test_the_server_is_confined(tmp_path, monkeypatch, bubblewrap):
    monkeypatch.setenv("SPECKIT_TEST_SECRET", "s3cret")
    package = _probe_package(tmp_path)
    config = SandboxConfig(
        uid=61500, gid=61500, output_kb=1024, hide=(str(tmp_path / "hidden"),), bubblewrap=bubblewrap
    )
    if bubblewrap and not probe_isolation(config).complete:
        pytest.skip(probe_isolation(config).warning)
    implementation = load_sandboxed(package, CONNECT4, config)
    try:
        facts = _facts(implementation)
    finally:
        implementation.close()
    assert (facts["uid"], facts["gid"], facts["groups"]) == (61500, 61500, [])
    assert facts["nproc"] == 0 and facts["as"] == 1024 * 2**20
    assert facts["fork"] == "BlockingIOError" and facts["exec"] in ("BlockingIOError", "PermissionError")
    assert facts["signal_grader"] == ("ProcessLookupError" if bubblewrap else "PermissionError")
    assert facts["big_file"] == "OSError"
    assert not (REPO_ROOT / "adt" / "planted.py").exists(), "the server wrote into the kit"
    if not bubblewrap or not REPO_ROOT.is_relative_to("/tmp"):  # under bubblewrap /tmp is the server's own
        assert facts["write_kit"] in ("PermissionError", "OSError")
    assert "SPECKIT_TEST_SECRET" not in facts["env"]
    assert facts["cwd"] == []
    if bubblewrap:
        assert implementation.isolation.startswith("uid 61500, gid 61500; bubblewrap")
        assert facts["read_suite"] == facts["read_git"] == "FileNotFoundError"
        assert facts["read_hidden"] == "FileNotFoundError"
        kit_files = {"adt", "spec", "speckit", ".venv"} | set(CONNECT4.kit.supplied)
        assert set(facts["repo"]) <= kit_files, facts["repo"]
        kit_top = REPO_ROOT.relative_to("/tmp").parts[0] if REPO_ROOT.is_relative_to("/tmp") else None
        # speckit-folders: the shared folder of impl.working_folder(), empty outside one
        assert set(facts["tmp"]) <= {"speckit-work", "speckit-folders", kit_top}, facts["tmp"]
    elif "private mount namespace" in implementation.isolation:
        assert facts["read_suite"] == facts["read_git"] == "FileNotFoundError"
        assert facts["read_hidden"] in ("PermissionError", "FileNotFoundError")
        assert set(facts["repo"]) <= {"adt", "spec", "speckit", "reference_games", ".venv"}
        kept = package.relative_to("/tmp").parts[0] if package.is_relative_to("/tmp") else None
        kit_top = REPO_ROOT.relative_to("/tmp").parts[0] if REPO_ROOT.is_relative_to("/tmp") else None
        assert set(facts["tmp"]) <= {"speckit-work", kept, kit_top}, facts["tmp"]
    else:
        pytest.skip(f"no mount namespace here ({implementation.isolation}): file hiding not checked")


def test_values_stay_in_the_server_and_bools_cross(tmp_path):
    implementation = load_sandboxed(REFERENCE, CONNECT4, SandboxConfig(uid=61501))
    try:
        ops = implementation.index
        one = ops.newIndexType()
        two = ops.increment(ops.newIndexType())
        assert isinstance(one, Handle) and isinstance(two, Handle)
        assert ops.lessThan(one, two) is True and ops.equals(one, two) is False
        assert implementation.has("IndexType.increment") and implementation.state("ColourType.clone") in (
            "present",
            "missing",
        )
        assert str(implementation.index.increment.function().__signature__) == "(index)"
    finally:
        implementation.close()


def test_kit_display_and_input_are_mirrored(tmp_path):
    implementation = load_sandboxed(REFERENCE, CONNECT4, SandboxConfig(uid=61502))
    try:
        out = io.StringIO()
        display = kit_display.newDisplayType(out)
        location = implementation.location.setColumn(
            implementation.location.newLocationType(),
            implementation.index.increment(implementation.index.newIndexType()),
        )
        colour = implementation.colour.newColourType()
        result = implementation.colour.showColour(colour, display, location)
        assert display.marks == {(1, 2): "R"}
        kit_display.showBoard(display, 4)
        assert out.getvalue().splitlines()[1].split() == ["1", ".", "R", ".", "."]
        assert implementation.colour.equals(result, implementation.colour.newColourType())
        prompts = io.StringIO()
        answers = kit_input.newInputType(["nine", "9", "3", "unused"], prompts)
        assert implementation.input.readInteger(answers, "Level? ", 1, 5) == 3
        assert list(answers.lines) == ["unused"]
        assert (
            "'nine' is not a whole number." in prompts.getvalue() and "9 is not between 1 and 5." in prompts.getvalue()
        )
        assert implementation.input.readLocation(kit_input.newInputType(["2 3"]), "", 4) == (2, 3)
    finally:
        implementation.close()


def test_a_restart_invalidates_the_old_values_with_a_clear_reason(tmp_path):
    package = patched_reference(tmp_path / "exits", "index", INCREMENT, INCREMENT + "    import os\n    os._exit(7)\n")
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61503))
    try:
        ops = implementation.index
        old = ops.newIndexType()
        assert ops.equals(old, old)
        with pytest.raises(
            OperationFailed, match=r"IndexType.increment ended the implementation's process \(it exited with status 7\)"
        ):
            ops.equals(ops.increment(old), old)
        with pytest.raises(OperationFailed, match="made by an earlier run of the implementation"):
            ops.equals(old, old)
        fresh = ops.newIndexType()
        assert ops.equals(fresh, ops.newIndexType())
        with pytest.raises(OperationFailed, match="it is not called again in this run"):
            ops.increment(fresh)
    finally:
        implementation.close()


def test_a_server_that_defeats_its_alarm_is_killed_on_time(tmp_path):
    package = malicious_package(tmp_path / "stubborn", "stubborn")
    # A wall-clock backstop of 60 s: a kill before it is the test process's, by the
    # server's processor time (2 s and the grace), however busy the machine is.
    config = SandboxConfig(uid=61504, grace=1.0, wall_factor=30)
    implementation = load_sandboxed(package, CONNECT4, config)
    try:
        started = time.monotonic()
        with pytest.raises(OperationFailed, match="did not return within 2 s"):
            implementation.index.equals(
                implementation.index.increment(implementation.index.newIndexType()), implementation.index.newIndexType()
            )
        assert time.monotonic() - started < 60
    finally:
        implementation.close()


def test_a_forged_answer_kills_the_server(tmp_path):
    implementation = load_sandboxed(
        malicious_package(tmp_path / "forger", "forger"), CONNECT4, SandboxConfig(uid=61505)
    )
    try:
        one = implementation.index.newIndexType()
        with pytest.raises(
            OperationFailed,
            match=r"IndexType.equals ended the implementation's process \(it wrote into the grader's channel",
        ):
            implementation.index.equals(one, one)
    finally:
        implementation.close()


def test_an_unloadable_package_is_reported_with_the_file_that_raised(tmp_path):
    from speckit.core import ImplementationError

    package = reference_copy(tmp_path / "broken", __init__="raise ValueError('no')\n")
    with pytest.raises(ImplementationError, match=r"^__init__.py raised ValueError at import \(line 1\): no$"):
        load_sandboxed(package, CONNECT4, SandboxConfig(uid=61506))


# -- the sandbox gives the suite the outcomes it gives in-process ------------------------------


@pytest.mark.parametrize("module, faulty", [("test_index.py", True), ("test_colour.py", False)])
def test_sandboxed_outcomes_equal_in_process_outcomes(tmp_path, module, faulty):
    """The same tests pass and fail (test_colour passes kit Displays into the implementation)."""
    package = None
    if faulty:
        package = patched_reference(
            tmp_path / "faulty", "index", "index.number += 1", "index.number += 1 if index.number < 5 else 2"
        )
    files = [SUITE / module]
    plain = run_suite("connect4", package, tests=files)
    boxed = run_suite("connect4", package, tests=files, extra=("--sandbox",))
    assert not plain.crash and not boxed.crash, plain.crash or boxed.crash
    assert [(t["test"], t["outcome"]) for t in boxed.tests] == [(t["test"], t["outcome"]) for t in plain.tests]
    assert boxed.presence == plain.presence
    assert any(t["outcome"] == "failed" for t in plain.tests) == faulty


@pytest.mark.parametrize(
    "spec_name, tests",
    [
        ("connect4", "test_index.py"),
        # The kit's DictionaryException must be raised: the reference runs shaped as a student's package.
        ("xplus", "test_hash_dictionary.py::test_put_changes_its_own_dictionary_only"),
    ],
)
def test_pytest_sandbox_option_runs_the_reference(spec_name, tests):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            f"{kit(spec_name).suite_dir / tests}",
            "-q",
            "--sandbox",
            "-p",
            "no:cacheprovider",
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:]


def test_the_reader_does_steal_without_the_sandbox(tmp_path):
    """The reader fixture is a real attack: run in-process (no sandbox), it reads the hidden tests."""
    places = dict.fromkeys(("@OUT@", "@SUBMISSIONS@", "@RUBRIC@"), str(tmp_path / "nowhere")) | {
        "@REPO@": str(REPO_ROOT)
    }
    package = malicious_package(tmp_path / "reader", "reader", places)
    run = run_suite("connect4", package, tests=INDEX_TESTS)
    assert any("STOLEN" in t["message"] for t in run.tests), [t["message"][:200] for t in run.tests]


def test_a_pipelined_failure_fails_its_own_hypothesis_example(tmp_path):
    """A failing call whose result nobody looks at still fails the example that made it."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    package = patched_reference(
        tmp_path / "raises",
        "index",
        INCREMENT,
        INCREMENT + "    if index.number > 2:\n        raise ValueError('too big')\n",
    )
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61507))
    seen = []

    @settings(max_examples=20, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.integers(1, 5))
    def last_call_is_pipelined(n):
        seen.append(n)
        value = implementation.index.newIndexType()
        for _ in range(n):
            value = implementation.index.increment(value)

    try:
        with pytest.raises(OperationFailed, match="IndexType.increment raised ValueError: too big"):
            last_call_is_pipelined()
    finally:
        implementation.close()
    assert max(seen) >= 3


def test_a_server_that_dies_between_calls_is_replaced(tmp_path):
    """A server that ends while idle (killed here from outside) loses its values; the next call starts afresh."""
    implementation = load_sandboxed(REFERENCE, CONNECT4, SandboxConfig(uid=61508))
    try:
        ops = implementation.index
        old = ops.newIndexType()
        assert ops.equals(old, old)
        implementation.server.process.send_signal(9)
        implementation.server.process.wait()
        with pytest.raises(
            OperationFailed, match="made by an earlier run of the implementation, which ended \\(it was killed"
        ):
            ops.equals(old, old)
        fresh = ops.newIndexType()
        assert ops.equals(fresh, ops.newIndexType())
    finally:
        implementation.close()


@pytest.mark.parametrize("sandboxed", [False, True], ids=["in-process", "sandbox"])
def test_batch_returns_the_answers_in_the_shape_collected(tmp_path, sandboxed):
    """impl.batch gives what its function returned, every result filled in, in-process and in the sandbox alike."""
    from speckit.impl import load

    implementation = (
        load_sandboxed(REFERENCE, CONNECT4, SandboxConfig(uid=61509)) if sandboxed else load(REFERENCE, CONNECT4)
    )
    try:
        ops, colour = implementation.symbol, implementation.colour
        symbols = [ops.newSymbolType(), ops.newSymbolType(colour.newColourType()), ops.newSymbolType()]
        answers = implementation.batch(
            lambda: {
                "empty": [ops.isEmpty(s) for s in symbols],
                "same": (colour.equals(colour.newColourType(), colour.newColourType()),),
            }
        )
        assert answers == {"empty": [True, False, True], "same": (True,)}
        if sandboxed:
            assert implementation.server.alive()
    finally:
        if sandboxed:
            implementation.close()


def test_a_batched_failure_fails_at_its_own_call(tmp_path):
    """A failing call inside a batch fails the test with its in-process message; the trace stops at that call."""
    from speckit.trace import TRACE

    package = patched_reference(
        tmp_path / "raises",
        "index",
        INCREMENT,
        INCREMENT + "    if index.number > 2:\n        raise ValueError('too big')\n",
    )
    implementation = load_sandboxed(package, CONNECT4, SandboxConfig(uid=61510))
    try:
        ops = implementation.index
        values = [ops.newIndexType()]
        for _ in range(2):
            values.append(ops.increment(values[-1]))
        implementation.flush()
        TRACE.reset()
        with pytest.raises(OperationFailed, match="IndexType.increment raised ValueError: too big"):
            implementation.batch(lambda: [ops.equals(ops.increment(v), v) for v in values])
        rendered = TRACE.render()
        assert (
            rendered.strip().splitlines()[-1].startswith("index.increment(")
            and "!! IndexType.increment raised" in rendered
        )
    finally:
        implementation.close()


def test_a_result_looked_at_inside_a_batch_is_refused(tmp_path):
    """The function given to batch may only collect results: looking at one is a mistake of the test, said plainly."""
    implementation = load_sandboxed(REFERENCE, CONNECT4, SandboxConfig(uid=61511))
    try:
        ops = implementation.index
        with pytest.raises(TypeError, match="looked at before the batch ran"):
            implementation.batch(lambda: [1 for _ in range(3) if ops.equals(ops.newIndexType(), ops.newIndexType())])
        assert implementation.batch(lambda: ops.equals(ops.newIndexType(), ops.newIndexType())) is True
    finally:
        implementation.close()
