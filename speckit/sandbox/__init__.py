"""The operation server: an implementation's operations run in a separate, confined process.

``pytest --sandbox --impl PATH`` (and ``speckit grade``) never import the implementation
into the test process. The tests run as usual in pytest; only the implementation's
operations run in a child process, the *operation server*, and every call of a
:class:`~speckit.operations.TracedOperation` crosses the process boundary:

* values the implementation makes stay in the server; the tests hold :class:`Handle`
  objects, which they pass back into operations. ``None``, bools, ints, floats, strings
  and tuples, lists, sets and dicts of them cross by value (a list, dict or set given
  to a call comes back as the call left it). A test may also read a handle
  (a field, ``==``, ``dir``; ``repr`` in failure messages) and the attributes of a
  module (``impl.module(name)``, a :class:`RemoteModule`): each read runs in the
  server after the pending calls, with the time limit and failure rules of a call.
  The objects of the kit's served classes (``[kit] served``: the Display and Input, a
  recording fake) and text streams that a test passes in are mirrored: the server gets
  a twin, and what the operation writes or reads through it is copied back to the
  test's object.
* calls whose result is a value of a specified type, whose arguments hold no mirrored
  object, which are not documented to raise and whose results no accepted reading makes
  plain (``[kit] results_by_value``), are *pipelined*: the test goes on at once with a handle and the
  calls travel in one batch with the next call whose result the test needs (a Boolean,
  say), at the end of each Hypothesis example and at the end of each test. Inside
  :meth:`SandboxedImplementation.batch` the calls with plain results are pipelined too:
  the test gets a :class:`Later`, filled in when the batch has run. A failure
  of a pipelined call fails the test exactly as if it had happened at the call: the
  trace stops at that call and its message is the in-process message.
* each call has its own time limit, enforced inside the server by a watchdog timer
  that ticks while it works and, should the implementation defeat it, by the test
  process, which kills the server.

The server is started when the implementation is loaded (it imports the package's
``__init__.py``; modules are imported when an operation first needs them) and is
restarted after it dies or is killed. A restart invalidates the handles of the old
server: a test still holding one fails, saying so. The operation that was running when
the server died (or hung) is not called again in this run, like an operation that hung
in-process, so Hypothesis sees one consistent failure.

Confinement of the server: bubblewrap where it works (an allow-list of files, its own
PID, IPC, UTS and network namespaces, an unprivileged uid), else a named fallback, said
loudly once (:func:`probe_isolation`); resource limits, bounded output, a replaced
environment and a checked channel in every mode. What is enforced and what is not is
written once, in ``docs/grading.rst`` ("Threat model").

The package's modules: :mod:`~speckit.sandbox.config` (the settings),
:mod:`~speckit.sandbox.protocol` (the wire protocol, documented there),
:mod:`~speckit.sandbox.isolation` (which mechanism confines the server),
:mod:`~speckit.sandbox.client` (the implementation the tests use, which coordinates its parts:
:mod:`~speckit.sandbox.connection` to the server, :mod:`~speckit.sandbox.pipeline` of pending
calls, :mod:`~speckit.sandbox.reads` of values, :mod:`~speckit.sandbox.catalogue` of what the
package provides, :mod:`~speckit.sandbox.folders` for a shared working folder, and
:mod:`~speckit.sandbox.operation`, the operations),
:mod:`~speckit.sandbox.values` (handles, the encoding of arguments, twins),
:mod:`~speckit.sandbox.process`, :mod:`~speckit.sandbox.overrun` and
:mod:`~speckit.sandbox.bubblewrap` (starting, talking to, timing and killing the server),
and what runs on the server's side: :mod:`~speckit.sandbox.launch`,
:mod:`~speckit.sandbox.confine` and :mod:`~speckit.sandbox.server` (its tables, calls and
command loop), with :mod:`~speckit.sandbox.server_values` (values by handle),
:mod:`~speckit.sandbox.server_twins` (mirrored objects), :mod:`~speckit.sandbox.server_reads`
(reads of values) and :mod:`~speckit.sandbox.server_limits` (the watchdog and bounded
output). The server imports nothing of the test-process side.
"""

from __future__ import annotations

import importlib

from .config import SandboxConfig, SandboxError
from .isolation import Isolation, probe_isolation

_LAZY = {
    "Handle": "values",
    "Later": "pipeline",
    "RemoteFunction": "operation",
    "RemoteModule": "reads",
    "SandboxedImplementation": "client",
    "SandboxedOperation": "operation",
    "load_sandboxed": "client",
    "shown": "reads",
    "describe_exit": "process",
    "probe": "process",
}
"""The test-process side, imported when first used: the server imports this package too."""


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = ["Isolation", "SandboxConfig", "SandboxError", "probe_isolation", *_LAZY]
