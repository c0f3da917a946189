"""The wire protocol between the test process and the operation server: the one place it is defined.

The two processes exchange *frames*: a 4-byte big-endian length (:data:`HEADER`), then that
many bytes. The test process sends a **request**, the server sends one **answer** to it;
the server's first frame, sent unasked, is its **greeting**. Answers and the greeting, which
come from the untrusted side, are JSON (never pickle or marshal), checked value by value by
the test process. Requests, the grader's own data, are :mod:`marshal` data of the same
shapes (lists, ints, strings, ``None``, floats, dicts with string keys): a run sends some
35 MB of them, which marshal writes and reads many times faster than JSON, and the server
trusts its grader anyway.

Request (test process to server)::

    {"seq": N,                  # sequence number; the answer repeats it
     "ops": [[number, module, name, qualname, time_limit, expects_bool], ...],
                                # operations used for the first time by this server
     "commands": [command, ...],
     "release": [handle_id, ...],   # values the tests dropped (released after the commands)
     "twins": [[twin_id, kind, new, state], ...]}   # mirrored objects (below)

Commands, by their first element (:class:`Command`)::

    [CALL, op_number, handle_id, [argument, ...], reply]   # reply: a :class:`Reply` mode
    [CALL, op_number, handle_id, (handle_id, ...), reply]  # every argument a value the server
                                       # holds (the common case): a tuple of their ids (this form
                                       # has no indices or keywords after the reply)
    [CALL, op_number, handle_id, [argument, ...], reply, [index, ...]]
                                       # the answer's "arguments" gives back these arguments
                                       # (the test's lists, dicts, sets) as the call left them
    [CALL, op_number, handle_id, [argument, ...], reply, [index, ...], [[name, argument], ...]]
                                       # with keyword arguments (level="greedy", say)
    [RESOLVE, module, name]            # the operation's signature, or why it is missing
    [PRESENCE, [qualname, ...]]        # present / missing / not implemented, each
    [FIELD, value, name, handle_id, [spare_id, ...]]   # a field of a value, and its record's others
    [MODULE, module, name | None, handle_id]           # a module's attribute (None: import only)
    [EQUALS, value, other]             # value == other, in the server
    [NAMES, value]                     # dir(value)
    [SHOW, value]                      # repr(value), bounded
    [ITEMS, value, first_id]           # the items of an iterable value, the ones that are not
                                       # plain stored under first_id, first_id + 1, ...:
                                       # [sized, indexable, [item, ...]], or None if not iterable
    [FOLDER, path | None]              # change the working folder to path (None: back to its own)

A call's ``reply`` says what becomes of its result:

* :attr:`Reply.KEEP` -- the test already holds a handle for it (a *pipelined* call): the
  server stores the result under ``handle_id``, whatever it is, and answers nothing;
* :attr:`Reply.ANSWER` -- the test waits for it: it is the answer's ``result``;
* :attr:`Reply.LATER` -- a call inside ``impl.batch``: it is sent in the answer's ``results``.

Values (:class:`Value`): ``None``, bools, ints and strings are themselves; the rest are
tagged lists: ``[HANDLE, id]`` (a value held by the server; in an answer ``[HANDLE]``,
stored under the id the request chose), ``[TWIN, id]``, ``[FLOAT, repr]``,
``[TUPLE, [...]]``, ``[LIST, [...]]``, ``[SET, [...]]``, ``[DICT, [[key, value], ...]]``.
A result that is a list, tuple, set or dict (exactly those types) of plain values, nested
at most :data:`MAX_DEPTH` deep and of at most :data:`MAX_ITEMS` items in all, comes back
by value; any other result is held by the server. A result the server already holds
under an id (the same object, read again) is answered ``[HANDLE, id]``, so the test gets
the handle it already has. The state of a mirrored object may name the server's values
as ``[HANDLE, id]`` too: ids the server chooses are negative.

Answer (server to test process)::

    {"seq": N, "result": value, "results": [[command_index, value], ...],
     "arguments": [[index, value], ...],   # a call's updated arguments, when it asked
     "error": None | {"at": command_index, "kind": kind, "message": text},
     "twins": {"out": [[id, text]], "used": [[id, n]], "free": [id],
               "state": [[id, {field: value}]]}}   # only the parts that changed; absent if none

Mirrored objects: a twin's ``kind`` is :attr:`TwinKind.STREAM` (a text stream the test
passed) or the lower-cased name of a served class (``display``, ``recordingview``); what
travels of an object is its class's ``[kit.mirrors]`` entry (:class:`spec.model.Mirror`,
:mod:`speckit.sandbox.mirror`). A request's ``state`` of a served object is ``[fields,
lines]``: its mirrored fields, a DICT value (the declared ones, else its attributes), and
its scripted lines not read yet (None if it has none or declares none); a stream's is
None. The test's object is the authority before a call, the server's after it: the
answer's ``out`` is what the call wrote to the object's stream, ``used`` how many scripted
lines it read, ``state`` its fields when they changed, ``free`` the twins nothing of the
server's refers to any more.

Every key but ``seq`` may be absent: an absent ``result`` or ``error`` is None, and
``results`` is there only for calls made with :attr:`Reply.LATER` (most answers, to a
batch of pipelined calls, are ``{"seq": N}``).

An error may carry ``"raised": "module.Class"``: the exception the operation raised, when
its class is a builtin exception or a class of the kit's supplied modules.

The answer's ``error`` kind is a :class:`speckit.core.FailureKind` value or one of
:class:`ErrorKind`. A failed command stops the message there. The released values are
dropped after the commands, under the read time limit; the progress index is then the
number of commands.

Greeting: ``{"seq": 0, "isolation": text}``, or ``{"seq": 0, "error": text}`` (the package
cannot be imported: :class:`ImportProblem` says why), or ``{"seq": 0, "fatal": text}``
(the server cannot be confined).

The *progress page* is one shared 64-bit word (:data:`PROGRESS`): ``seq << INDEX_BITS |
index`` of the command the server is running, so the test process knows which call hung.
"""

from __future__ import annotations

import struct

HEADER = struct.Struct(">I")
PROGRESS = struct.Struct("<q")
"""The progress page: one 64-bit word, ``seq << INDEX_BITS | index`` of the command the server is running."""
INDEX_BITS = 20
IMPORTING = 1
"""The progress word while the server imports the package, before its greeting."""

MAX_REPLY = 8 * 2**20
"""Bytes of one message from the server; a longer one is a protocol violation."""
MAX_BATCH = 512
"""Pipelined calls sent in one message at most."""
MAX_LINES = 10_000
"""Scripted input lines mirrored into the server at most."""
MAX_DEPTH = 20
"""Nesting of a value on the wire at most."""
MAX_ITEMS = 10_000
"""Items of a container result sent by value at most (a larger one stays in the server)."""
MAX_MESSAGE = 4000
"""Characters of a failure message kept from the server."""
MAX_NAMES = 200
"""Names of a value's attributes (``dir``) kept from the server."""
MAX_SHOWN = 200
"""Characters of a value's ``repr`` kept from the server."""
MAX_FIELDS = 8
"""Other fields of a record sent along with the one a test reads (it usually reads them next)."""
SPARE_HANDLES = 4
"""Handle ids a field read offers the server for those other fields that are not plain values."""


class Command:
    """The first element of a command."""

    CALL = "c"
    RESOLVE = "r"
    PRESENCE = "p"
    FIELD = "a"
    MODULE = "m"
    EQUALS = "e"
    NAMES = "n"
    SHOW = "s"
    ITEMS = "i"
    FOLDER = "w"
    """Change the server's working folder (``impl.working_folder()``): to a folder the test
    process made in the server's shared folders, or (``None``) back to the server's own."""

    READS = frozenset({FIELD, MODULE, EQUALS, NAMES, SHOW, ITEMS})
    """The commands that read a value, run under the read time limit."""


class At:
    """Named positions of the wire's lists: ``command[At.CALL_HANDLE]``, never ``command[2]``.

    A command's first element (:data:`TAG`) is its :class:`Command`; a value's (not plain)
    its :class:`Value` and its second (:data:`PAYLOAD`) what it holds.
    """

    TAG = 0
    PAYLOAD = 1
    """A tagged value's content: a handle or twin id, a float's repr, a container's items."""

    CALL_OP = 1
    CALL_HANDLE = 2
    """The id the call's result is stored (or answered) under."""
    CALL_ARGUMENTS = 3
    CALL_REPLY = 4
    CALL_UPDATED = 5
    """The indices of the arguments the answer gives back as the call left them."""
    CALL_KEYWORDS = 6

    RESOLVE_MODULE = 1
    RESOLVE_NAME = 2
    PRESENCE_NAMES = 1
    FOLDER_PATH = 1

    SUBJECT = 1
    """The value a read looks at (FIELD, EQUALS, NAMES, SHOW, ITEMS); for MODULE, the module's name."""
    FIELD_NAME = 2
    FIELD_HANDLE = 3
    FIELD_SPARE = 4
    MODULE_ATTRIBUTE = 2
    """The attribute a MODULE read asks for (None: import the module only)."""
    MODULE_HANDLE = 3
    EQUALS_OTHER = 2
    ITEMS_FIRST = 2

    DEFINITION_NUMBER = 0
    """An operation's definition (the request's ``ops``):
    ``[number, module, name, qualname, time_limit, expects_bool]``."""


class Reply:
    """What becomes of a call's result (the last element of a CALL command)."""

    KEEP = 0
    ANSWER = 1
    LATER = 2


class Value:
    """The first element of a value that is not plain."""

    HANDLE = "h"
    TWIN = "T"
    FLOAT = "f"
    TUPLE = "t"
    LIST = "l"
    SET = "S"
    DICT = "d"


class ErrorKind:
    """Kinds of an answer's error besides :class:`speckit.core.FailureKind`."""

    MISSING = "missing"
    """The operation, or its module, cannot be had (raised as MissingOperation)."""
    ATTRIBUTE = "attribute"
    """A read found no such attribute (raised as AttributeError)."""
    RELEASE = "release"
    """Releasing a value the tests dropped failed (its finalizer ran too long); ``at`` is the
    number of commands, one past the last."""


class TwinKind:
    """What a mirrored object is."""

    STREAM = "stream"
    """A text stream the test passed. Any other kind is the lower-cased name of a served class
    (``display``, ``recordingview``), mirrored as its ``[kit.mirrors]`` entry says."""


def frame(data: bytes) -> bytes:
    """``data`` with its length header."""
    return HEADER.pack(len(data)) + data
