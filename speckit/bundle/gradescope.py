"""A Gradescope autograder: a zip in Gradescope's documented layout.

The zip's root holds ``setup.sh`` (run once when Gradescope builds the autograder's
image: it installs Python and bubblewrap when missing, and the kit without its dev extra),
``run_autograder`` (run for each submission: it grades ``/autograder/submission`` into
``/autograder/results/results.json``), the rubric, and the kit itself, hidden tests
included: Gradescope never shows an autograder's files to students.
"""

from __future__ import annotations

import shutil
import tempfile
import zipfile
from pathlib import Path

from .. import registry
from .source import copy_kit, refuse_existing

SETUP = """\
#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder (Ubuntu base image).
# It installs only what grading needs: the kit and its dependencies, not its dev extra.
# AUTOGRADER_ROOT (default /autograder) is for testing.
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
find_python() {
    for candidate in python3.13 python3.12 python3.11 python3; do
        if command -v "$candidate" > /dev/null \\
            && "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2> /dev/null; then
            echo "$candidate"; return
        fi
    done
}
python="$(find_python)"
if [ -z "$python" ] || ! command -v bwrap > /dev/null; then
    apt-get update -qq
    apt-get install -y -qq bubblewrap python3 python3-venv python3-pip > /dev/null
    python="$(find_python)"
fi
if [ -z "$python" ]; then
    apt-get install -y -qq python3.11 python3.11-venv > /dev/null
    python=python3.11
fi
"$python" -m venv "$root/venv"
# The kit alone: grading needs no extra (the docs' tools, the class report's charts).
"$root/venv/bin/pip" install -q -e "$root/source/kit"
"""

RUN = """\
#!/usr/bin/env bash
# Gradescope runs this for each submission: grade /autograder/submission into
# /autograder/results/results.json. AUTOGRADER_ROOT and SPECKIT_PYTHON are for testing.
root="${{AUTOGRADER_ROOT:-/autograder}}"
exec "${{SPECKIT_PYTHON:-$root/venv/bin/python}}" -m speckit.bundle.autograder \\
    --root "$root" --spec {spec} --rubric "$root/source/rubric.toml"
"""


def build(spec_name: str, out: Path, rubric: Path | None = None) -> Path:
    """Write the autograder zip of ``spec_name`` to ``out`` (never replacing a file); returns ``out``."""
    out = Path(out)
    refuse_existing(out, "an existing file")
    rubric = Path(rubric) if rubric else registry.kit(spec_name).rubric_path
    with tempfile.TemporaryDirectory(prefix="speckit-gradescope-") as scratch:
        stage = Path(scratch)
        copy_kit(stage / "kit")
        shutil.copy2(rubric, stage / "rubric.toml")
        (stage / "setup.sh").write_text(SETUP, encoding="utf-8")
        (stage / "run_autograder").write_text(RUN.format(spec=spec_name), encoding="utf-8")
        out.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(stage.rglob("*")):
                name = path.relative_to(stage).as_posix()
                if path.is_dir():
                    continue
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if name in ("setup.sh", "run_autograder") else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
    return out
