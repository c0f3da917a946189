"""Text from an untrusted source (a submission's names, paths and messages) made inert for
where it is shown: Markdown and HTML, a spreadsheet cell, a terminal or a log line.

Each function takes any text and returns text that the target shows literally: it cannot
add markup, a link, a formula, an escape sequence or a line of its own.
"""

from __future__ import annotations

import re
import string
import unicodedata

_MARKDOWN_SPECIAL = set("\\`*_[]()!|~#")
"""The ASCII punctuation that makes inline markup anywhere in a line (emphasis, code, links,
images, table cells, strikethrough), escaped with a backslash as CommonMark allows."""
_LINE_START = set(string.punctuation) - {"&", "<", ">"}
"""At the start of the text any punctuation is escaped (a list, a heading, a quote or a rule there)."""

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection")."""


def _invisible(c: str) -> bool:
    """A control character, a line or paragraph separator or a bidirectional override."""
    return unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c != "\u200d"


def terminal(text: str) -> str:
    """``text`` for a terminal or a log line: every control character (escape sequences,
    newlines, carriage returns, bidirectional overrides) written as a visible escape (``\\x1b``)."""
    out = []
    for c in str(text):
        if c == "\\":
            out.append("\\\\")
        elif _invisible(c):
            code = ord(c)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(c)
    return "".join(out)


def markdown(text: str) -> str:
    """``text`` as literal inline Markdown: no markup, link, HTML, table cell break or new line."""
    out = []
    text = str(text)
    ordinal = re.match(r"\d+[.)]", text)  # "1." or "1)" would start an ordered list
    for i, c in enumerate(text):
        if (i == 0 and c in _LINE_START) or (ordinal and i == ordinal.end() - 1):
            out.append("\\" + c)
        elif c in "\n\r\t":
            out.append(" ")
        elif _invisible(c):
            out.append("\\" + terminal(c))
        elif c in _HTML:
            out.append(_HTML[c])
        elif c in _MARKDOWN_SPECIAL:
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def csv_cell(value):
    """``value`` for a spreadsheet cell: text a spreadsheet would read as a formula gets a
    leading ``'`` (OWASP); text is also cleared of control characters. Numbers pass unchanged."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS):
        value = "'" + value
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "\ufffd", value)


def code(text: str) -> str:
    """``text`` as a Markdown code span (shown verbatim, on one line)."""
    text = terminal(text)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    return f"{ticks} {text} {ticks}" if text.startswith("`") or text.endswith("`") else f"{ticks}{text}{ticks}"
