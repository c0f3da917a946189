"""The command line: a user's mistake gets one line naming it; the kit's own bugs keep their traceback."""

import pytest

from speckit.cli import EXIT_USAGE, main
from speckit.core import ImplementationError
from speckit.impl import package_directory
from speckit.registry import main_spec


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda tmp: tmp / "absent", "no such folder"),
        (lambda tmp: (tmp / "grid.py").write_text("") or tmp / "grid.py", "it is a file"),
        (lambda tmp: (tmp / "empty").mkdir() or tmp / "empty", "the folder has no Python modules"),
    ],
    ids=["absent", "file", "empty"],
)
def test_a_path_that_is_no_package_is_a_usage_error_naming_it(tmp_path, capsys, make, words):
    target = make(tmp_path)
    assert main(["check", str(target)]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith(f"speckit: {target}: ") and words in err and "Traceback" not in err
    with pytest.raises(ImplementationError, match=words):
        package_directory(target)


def test_an_internal_error_is_not_passed_off_as_a_usage_error(monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("a bug of the kit")

    monkeypatch.setattr("speckit.traceability.covering_tests", broken)
    with pytest.raises(KeyError, match="a bug of the kit"):
        main(["coverage"])


def test_help_says_which_specification_a_command_works_on_by_default(capsys):
    with pytest.raises(SystemExit):
        main(["coverage", "--help"])
    assert f"default: {main_spec()}" in capsys.readouterr().out


def test_check_tells_the_specification_from_the_packages_modules(tmp_path, capsys):
    from speckit.registry import fitting, kit, names

    for name in names():
        assert fitting(kit(name).reference_dir) == (name,)
        assert fitting(kit(name).alternative_dir) == (name,)
    for module in ("square", "player"):  # modules of both Connect-4 and the BoardADT unit
        (tmp_path / f"{module}.py").write_text("")
    assert len(fitting(tmp_path)) > 1
    assert main(["check", str(tmp_path)]) == EXIT_USAGE
    assert "say which specification it follows with --spec" in capsys.readouterr().err
