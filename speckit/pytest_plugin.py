"""The pytest plugin of the conformance suites: ``--impl``, profiles and the ``impl`` fixture.

``pytest --impl PATH`` runs the suite against the implementation at PATH (a package
directory following the contract, or an importable module name); without it the
reference implementation is tested. ``--profile grading`` (the default) makes every run
identical: derandomized Hypothesis, no example database, a fixed number of examples.
``--profile dev`` explores more widely and remembers failing examples between runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

import spec as spec_data

from . import impl as impl_loader
from .registry import kit
from .testing import use_spec

PROFILES = {
    "grading": dict(
        derandomize=True,
        database=None,
        max_examples=40,
        deadline=None,
        print_blob=False,
        report_multiple_bugs=False,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    ),
    "dev": dict(
        max_examples=200,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    ),
}

for _name, _options in PROFILES.items():
    settings.register_profile(f"speckit-{_name}", **_options)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("speckit", "specification conformance")
    group.addoption(
        "--impl",
        default=None,
        metavar="PATH",
        help="the implementation to test: a package directory or an importable module (default: the reference)",
    )
    group.addoption(
        "--profile",
        default="grading",
        choices=sorted(PROFILES),
        help="grading: deterministic, fixed examples (default); dev: more examples, remembers failures",
    )


def pytest_configure(config: pytest.Config) -> None:
    settings.load_profile(f"speckit-{config.getoption('--profile')}")


def spec_of(node: pytest.Item | pytest.Collector) -> str:
    """The specification a test belongs to: the name of its folder under tests/."""
    path = Path(str(node.path))
    for parent in path.parents:
        if (parent.parent / "conftest.py").exists() and parent.parent.name == "tests":
            return parent.name
    return "connect4"


@pytest.fixture(scope="session")
def _implementations(request: pytest.FixtureRequest) -> dict[str, impl_loader.Implementation]:
    return {}


@pytest.fixture(scope="module")
def impl(request: pytest.FixtureRequest, _implementations) -> impl_loader.Implementation:
    """The implementation under test, for the specification of the requesting test's folder."""
    name = spec_of(request.node)
    if name not in _implementations:
        specification = spec_data.load(name)
        target = request.config.getoption("--impl") or kit(name).reference
        try:
            _implementations[name] = impl_loader.load(target, specification)
        except impl_loader.ImplementationError as e:
            pytest.exit(f"speckit: {e}", returncode=4)
    implementation = _implementations[name]
    use_spec(implementation.spec)
    return implementation
