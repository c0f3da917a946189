"""Several runs of a suite in one process: what they share is imported once, each run is a forked child.

``python -m speckit.suite_batch PLAN`` (written by :func:`speckit.runner.run_suites`) first
collects the suite's test modules once (``pytest --collect-only``: pytest, its plugins, the
kit and the test modules are imported, the tests' assertions rewritten), then forks one
child per run, which runs ``pytest.main`` with that run's arguments, its output going to its
own file. A child starts where a fresh ``python -m pytest`` would be after its imports, and
no run sees what another did: each is a copy of the same parent. The parent only waits:
it stops a run past its time, and appends one JSON line a run to the plan's status file.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    plan = json.loads(Path((argv or sys.argv[1:])[0]).read_text(encoding="utf-8"))
    import pytest

    pytest.main([*plan["collect"], "--collect-only"])
    sys.stdout.flush()
    sys.stderr.flush()
    # What the collection made lives on in every child: kept out of the garbage collector's
    # reach, a child's collections (pytest forces some at its end) walk only its own objects.
    gc.collect()
    gc.freeze()
    mark = plan["since"]
    with open(plan["status"], "a", encoding="utf-8") as status:
        for index, run in enumerate(plan["runs"]):
            left = plan["seconds"] - (time.monotonic() - plan["since"])
            if left <= 0:
                entry: dict[str, object] = {"index": index, "started": False}
            else:
                timeout = max(1.0, round(min(plan["run_seconds"], left)))
                returncode = _fork_run(pytest, run, timeout)
                now = time.monotonic()
                entry = {
                    "index": index,
                    "started": True,
                    "returncode": returncode,
                    "timeout": timeout,
                    "seconds": now - mark,
                }
                mark = now
            status.write(json.dumps(entry) + "\n")
            status.flush()
    return 0


def _fork_run(pytest, run: dict, timeout: float) -> int | None:
    """One run in a forked child: its exit status, or None if it was stopped past ``timeout``."""
    deadline = time.monotonic() + timeout
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            output = os.open(run["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(output, 1)
            os.dup2(output, 2)
            os.close(output)
            if run["temporary_folder"]:
                os.environ["TMPDIR"] = run["temporary_folder"]
                tempfile.tempdir = None  # read again from TMPDIR
            code = int(pytest.main(run["arguments"]))
        except BaseException:  # noqa: BLE001 - whatever happened, the child must not return into the loop
            import traceback

            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.05)


if __name__ == "__main__":
    sys.exit(main())
