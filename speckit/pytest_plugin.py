"""The pytest plugin of the conformance suites: ``--impl``, profiles and the ``impl`` fixture.

``pytest --impl PATH`` runs the suite against the implementation at PATH (a package
directory following the contract, or an importable module name); without it the
reference implementation is tested. ``--profile grading`` (the default) makes every run
identical: derandomized Hypothesis, no example database, a fixed number of examples.
``--profile dev`` explores more widely and remembers failing examples between runs.
``--sandbox`` runs the implementation's operations in a separate, confined process
instead of importing it into the test process (see :mod:`speckit.sandbox`); without
``--impl`` it runs a copy of the reference shaped as a student's package;
``--sandbox-config FILE`` sets its limits (JSON, the fields of ``SandboxConfig``).
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings

import spec as spec_data

from . import impl as impl_loader
from . import registry, suspects
from .core import MissingOperation, NotImplementedOperation
from .interface import TestedImplementation
from .registry import kit
from .suspects import without_shrinking
from .testing import structure, use_spec
from .trace import TRACE

CHECK_EXAMPLES = 10
"""Examples per property test in the ``check`` profile (the grading profile tries 20)."""

GRADING = dict(
    derandomize=True,
    database=None,
    max_examples=20,
    deadline=None,
    print_blob=False,
    report_multiple_bugs=False,
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

PROFILES: dict[str, dict[str, Any]] = {
    "grading": GRADING,
    # What a student's `speckit check` and the games' check of `--impl` run: the grading
    # profile with fewer examples per test, so the check loop is quick. Every test still
    # runs, deterministically, and a failure is still shrunk to its smallest example.
    "check": {**GRADING, "max_examples": CHECK_EXAMPLES},
    # The grading profile without shrinking: the zoo only needs to know a test fails.
    "zoo": {**GRADING, "phases": (Phase.explicit, Phase.generate)},
    "dev": dict(
        max_examples=200,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    ),
}

for _name, _options in PROFILES.items():
    settings.register_profile(f"speckit-{_name}", **_options)


def _examples_from_the_tests_alone() -> None:
    """Keep the literals of loaded modules out of the examples Hypothesis generates.

    Hypothesis (from 6.131) sometimes draws a constant found in the source of any loaded module
    that is not installed: the kit's, the specification's and, in process, the student's own.
    A test's examples would then depend on what the student wrote (two packages alike in
    behaviour could be tried on different examples), differ between a run in process and one in
    the sandbox (where the student's modules load elsewhere), and change with any edit of the
    kit. Its pool of such constants is kept empty, so that a test's examples depend on the test
    alone. A Hypothesis without the pool is left as it is.
    """
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        none = providers.Constants()
        providers._get_local_constants = lambda: none


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("speckit", "specification conformance")
    group.addoption(
        "--impl",
        default=None,
        metavar="PATH",
        help="the implementation to test: a package directory or an importable module (default: the reference)",
    )
    group.addoption(
        "--spec",
        default=None,
        metavar="NAME",
        help="the specification the tests belong to (default: the one whose declared suite folder holds each test)",
    )
    group.addoption(
        "--sandbox",
        action="store_true",
        default=False,
        help="run the implementation's operations in a separate, confined process (for untrusted code)",
    )
    group.addoption(
        "--sandbox-config",
        default=None,
        metavar="FILE",
        help="JSON settings of the sandbox (limits, user, folders to hide); implies --sandbox",
    )
    group.addoption(
        "--hidden-tests",
        action="append",
        default=[],
        metavar="PATTERN",
        help="tests hidden from the student (a rubric's ``hidden`` patterns): in the sandbox they run after "
        "the others, in a fresh operation server of their own",
    )
    group.addoption(
        "--shrink-every-failure",
        action="store_true",
        default=False,
        help="shrink every failing test's example to its smallest, suspects too (slower on faulty code; "
        "verdicts are the same)",
    )
    group.addoption(
        "--profile",
        default="grading",
        choices=sorted(PROFILES),
        help="grading: deterministic, fixed examples (default); dev: more examples, remembers failures",
    )
    group.addoption(
        "--examples",
        type=int,
        default=None,
        metavar="N",
        help="examples per property test, in place of the profile's (to measure what fewer examples still catch)",
    )


MARKERS = (
    "covers(*operations): the documented operations (Type.operation) a test checks",
    "structure: checks an operation's existence and signature only, not its behaviour",
    "slow: takes minutes; left out of the default run, run by CI's own step (pytest -m slow)",
    "reference_only(what): tests WHAT of the kit's own (its programs, the reference's private parts); "
    "skipped when --impl names an implementation to test",
)


def pytest_configure(config: pytest.Config) -> None:
    for marker in MARKERS:
        config.addinivalue_line("markers", marker)
    given = config.getoption("--spec")
    if given and given not in registry.names():
        raise pytest.UsageError(f"--spec {given}: no such specification (known: {', '.join(registry.names())})")
    profile = f"speckit-{config.getoption('--profile')}"
    examples = config.getoption("--examples")
    if examples is not None:
        if examples < 1:
            raise pytest.UsageError(f"--examples {examples}: give at least 1")
        settings.register_profile(f"{profile}-examples", settings.get_profile(profile), max_examples=examples)
        profile = f"{profile}-examples"
    settings.load_profile(profile)
    suspects.register_unreduced(profile)
    _session(config).profile = profile
    _examples_from_the_tests_alone()


def pytest_itemcollected(item: pytest.Item) -> None:
    """A test marked ``reference_only("the kit's own program")`` is skipped, saying so, under ``--impl``."""
    marker = item.get_closest_marker("reference_only")
    if marker is not None and item.config.getoption("--impl"):
        what = marker.args[0] if marker.args else "the kit's own code"
        item.add_marker(pytest.mark.skip(reason=f"tests {what}, not the implementation given with --impl"))


class _Session:
    """What the plugin keeps for one pytest session, in its ``config.stash``."""

    def __init__(self) -> None:
        self.loaded: dict[str, TestedImplementation] = {}
        """The implementations loaded in this session, by specification name."""
        self.reference_folder: Path | None = None
        """Where this session's shaped references are; removed when it ends."""
        self.profile = ""
        """The Hypothesis profile loaded for this session."""
        self.suspects = suspects.Suspects()
        """The failures so far, which make later, wider tests suspects (:mod:`speckit.suspects`)."""

    def sandboxed(self) -> list:
        """The loaded implementations that run in the grading sandbox."""
        return [i for i in self.loaded.values() if hasattr(i, "begin_test")]


_SESSION = pytest.StashKey[_Session]()


def _session(config: pytest.Config) -> _Session:
    """The plugin's state of the session ``config`` belongs to."""
    return config.stash.setdefault(_SESSION, _Session())


def sandbox_config(config: pytest.Config):
    """The sandbox settings of this run, or None when the implementation runs in-process."""
    path = config.getoption("--sandbox-config", default=None)
    if not path and not config.getoption("--sandbox", default=False):
        return None
    from .sandbox import SandboxConfig

    return SandboxConfig.from_file(path) if path else SandboxConfig()


def load_implementation(config: pytest.Config, name: str) -> TestedImplementation:
    """The implementation under test for specification ``name``, loaded once per session."""
    loaded = _session(config).loaded
    if name not in loaded:
        specification = spec_data.load(name)
        target = config.getoption("--impl") or kit(name).reference
        sandbox = sandbox_config(config)
        if sandbox is not None and not config.getoption("--impl"):
            target = _shaped_reference(_session(config), name)
        if sandbox is None:
            loaded[name] = impl_loader.load(target, specification)
        else:
            from .sandbox import load_sandboxed

            loaded[name] = load_sandboxed(target, specification, sandbox)
    return loaded[name]


def _shaped_reference(session: _Session, name: str) -> Path:
    """The reference of ``name`` shaped as a student's package (:func:`speckit.skeleton.reference_copy`),
    made once per session: the sandbox imports it as a student's package, whose supplied modules
    must be the kit's, not copies of them."""
    from .skeleton import reference_copy

    if session.reference_folder is None:
        session.reference_folder = Path(tempfile.mkdtemp(prefix="speckit-reference-"))
        session.reference_folder.chmod(0o755)  # the operation server may run as another user
    return reference_copy(name, session.reference_folder / name / kit(name).reference_dir.name)


class _NoOtherExample(BaseException):
    """Carries a failure whose example is not to be shrunk out of Hypothesis at once, with a note
    saying why if the reason is not the failure itself.

    Hypothesis shrinks any failing example (an Exception), which for a large input can take
    a minute; an operation that is missing or not implemented yet fails every example alike,
    so its test stops at the first, and so does a suspect (:mod:`speckit.suspects`) whose
    example calls an operation of another type that has already failed. A BaseException is
    not one Hypothesis shrinks.
    """

    def __init__(self, failure: Exception, note: str = ""):
        super().__init__(str(failure))
        self.failure = failure
        self.note = note


def _stop_at_unrunnable(inner_test, session: _Session, specification, operations: frozenset[str]):
    # wraps: Hypothesis derives a derandomized test's examples from the source of the function
    # it runs; without it every test would get this wrapper's examples (the same ones).
    @functools.wraps(inner_test)
    def run_example(*args, **kwargs):
        try:
            result = inner_test(*args, **kwargs)
            # The sandbox's pipelined calls are run here, not after the example, where a
            # missing or unimplemented operation among them would be shrunk like any failure.
            for implementation in session.sandboxed():
                implementation.flush()
            return result
        except (MissingOperation, NotImplementedOperation) as failure:
            raise _NoOtherExample(failure) from failure
        except Exception as failure:
            # Only once a test has failed: failing examples are many while Hypothesis shrinks.
            explaining = (
                specification is not None
                and session.suspects.failed
                and session.suspects.called_and_failed(TRACE.operations(specification), operations)
            )
            if explaining:
                raise _NoOtherExample(failure, suspects.note_called(*explaining)) from failure
            _let_go_of_values(failure)
            raise

    run_example._speckit_stops_at_unrunnable = True  # type: ignore[attr-defined]  # a mark on the function object
    return run_example


def _let_go_of_values(failure: BaseException) -> None:
    """Let a failing example's values go, unless it is the one Hypothesis reports.

    Hypothesis keeps the exception of every failing example it meets while shrinking,
    and with it the frames of the test, which hold the example's values: in the sandbox
    each such value stays alive in the server, and each display or input a kept game
    holds is sent again with every later call (a test that fails sent some 120 of them
    with each call by the end of its shrinking). Clearing the frames keeps what
    Hypothesis uses (the exception, where it was raised: its origin and traceback text).
    The final run of the smallest example, which pytest reports, keeps its frames.
    """
    from hypothesis.control import current_build_context

    try:
        if current_build_context().is_final:
            return
    except Exception:  # noqa: BLE001 - outside Hypothesis, nothing keeps the exception
        return
    chain: list[BaseException | None] = [failure]
    seen: set[int] = set()
    while chain:
        error = chain.pop()
        if error is not None and id(error) not in seen:
            seen.add(id(error))
            _clear_frames(error.__traceback__)
            chain += [error.__cause__, error.__context__]


def _clear_frames(tb) -> None:
    """Drop the locals of each finished frame of ``tb``; it keeps its code and line."""
    while tb is not None:
        frame = tb.tb_frame
        try:
            frame.clear()
        except RuntimeError:
            pass  # a frame still running (the wrapper's, Hypothesis's)
        else:
            # Python before 3.13 keeps the dict that reading f_locals made (Hypothesis reads it).
            with contextlib.suppress(Exception):
                frame.f_locals.clear()
        tb = tb.tb_next


def is_hidden(node_id: str, patterns: list[str]) -> bool:
    """Whether a test is one of the hidden ones: its id, or its module's file name, matches a pattern
    (as :meth:`speckit.rubric.Rubric.is_hidden` reads them)."""
    module = node_id.split("::", 1)[0].rsplit("/", 1)[-1]
    return any(fnmatch.fnmatchcase(node_id, p) or fnmatch.fnmatchcase(module, p) for p in patterns)


def _suite_spec(item: pytest.Item):
    """The specification whose suite holds ``item``, or None for a test of no suite (the kit's own)."""
    try:
        return spec_data.load(spec_of(item))
    except pytest.UsageError:
        return None


def _type_rank(item: pytest.Item) -> int | None:
    """Where the type that ``item``'s module checks (``test_<module>.py``) comes in its specification."""
    specification = _suite_spec(item)
    if specification is None:
        return None
    module = item.path.stem.removeprefix("test_")
    return next((i for i, t in enumerate(specification.types) if t.module == module), None)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The types that others use are tested first, so that their failures explain the others' (suspects).
    items[:] = suspects.in_type_order(items, _type_rank)
    hidden = config.getoption("--hidden-tests", default=[])
    if hidden and sandbox_config(config) is not None:
        # Hidden tests last, so nothing a hidden test showed the implementation can reach a
        # visible test's message: the server is replaced before the first of them.
        items[:] = [i for i in items if not is_hidden(i.nodeid, hidden)] + [
            i for i in items if is_hidden(i.nodeid, hidden)
        ]
        for item in items:
            if is_hidden(item.nodeid, hidden):
                item.stash[_FIRST_HIDDEN] = True
                break
    # Hypothesis documents ``test.hypothesis.inner_test`` as the place to wrap what runs each example.
    for item in items:
        handle = getattr(getattr(item, "obj", None), "hypothesis", None)
        inner = getattr(handle, "inner_test", None)
        if handle is not None and inner is not None and not getattr(inner, "_speckit_stops_at_unrunnable", False):
            handle.inner_test = _stop_at_unrunnable(inner, _session(config), _suite_spec(item), _covered(item))


_FIRST_HIDDEN = pytest.StashKey[bool]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before the first hidden test (its fixtures included), each sandboxed implementation gets a
    fresh operation server: new process, scratch space and folders."""
    if item.stash.get(_FIRST_HIDDEN, False):
        for implementation in _session(item.config).sandboxed():
            implementation.fresh_server()


def _covered(item: pytest.Item) -> frozenset[str]:
    """The operations a test checks (its ``covers`` marks)."""
    return frozenset(name for mark in item.iter_markers("covers") for name in mark.args)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """In the sandbox, pipelined calls still pending when a test ends are run, and fail it if they fail.

    A test a narrower failure earlier in the run explains (:mod:`speckit.suspects`) is run without
    shrinking, and its failure says why its example is not the smallest."""
    session = _session(item.config)
    explaining = session.suspects.explained_by(_covered(item))
    for implementation in session.sandboxed():
        implementation.begin_test()
    try:
        with without_shrinking(getattr(item, "obj", None), session.profile) if explaining else contextlib.nullcontext():
            result = yield
    except BaseException as error:
        for implementation in session.sandboxed():
            # the test already failed: its own failure is the one reported
            with contextlib.suppress(impl_loader.SuiteFailure):
                implementation.end_test()
        if isinstance(error, _NoOtherExample):
            if error.note:
                error.failure.add_note(error.note)
            raise error.failure from error.failure.__cause__
        if explaining and isinstance(error, Exception):
            error.add_note(suspects.note(explaining))
        raise
    for implementation in session.sandboxed():
        implementation.end_test()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed test is remembered with the operations it checks, to explain later failures; not a
    hidden one, whose name a later visible test's message would show, and none under
    ``--shrink-every-failure``."""
    report = yield
    hidden = item.config.getoption("--hidden-tests", default=[])
    remembered = not item.config.getoption("--shrink-every-failure") and not (hidden and is_hidden(item.nodeid, hidden))
    if call.when == "call" and report.failed and remembered:
        _session(item.config).suspects.record_failure(item.nodeid, _covered(item))
    return report


def pytest_unconfigure(config: pytest.Config) -> None:
    session = config.stash.get(_SESSION, None)
    if session is None:
        return
    for implementation in session.sandboxed():
        implementation.close()
    session.loaded.clear()
    if session.reference_folder is not None:
        shutil.rmtree(session.reference_folder, ignore_errors=True)
        session.reference_folder = None


def spec_of(node: pytest.Item | pytest.Collector) -> str:
    """The specification a test belongs to: ``--spec``, or the one whose declared suite folder holds it."""
    given = node.config.getoption("--spec")
    if given:
        return given
    path = Path(str(node.path)).resolve()
    for name in registry.names():
        if path.is_relative_to(registry.kit(name).suite_dir.resolve()):
            return name
    raise pytest.UsageError(
        f"{node.nodeid} uses the implementation but is in no specification's suite folder; say which with --spec"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The structure test (:mod:`speckit.testing.structure`) gets one case per operation of the test's specification."""
    structure.parametrize(metafunc, spec_of)


@pytest.fixture(scope="module")
def impl(request: pytest.FixtureRequest) -> TestedImplementation:
    """The implementation under test, for the specification of the requesting test's folder."""
    try:
        implementation = load_implementation(request.config, spec_of(request.node))
    except impl_loader.ImplementationError as e:
        pytest.exit(f"speckit: {e}", returncode=4)
    use_spec(implementation.spec)
    return implementation
