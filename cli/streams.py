"""Standard streams that never fail on a character.

Where the output's encoding lacks a character the program prints (ASCII, Latin-1, a DOS code
page), the character is written in plain ASCII instead (``·`` as ``-``, ``♥`` as ``H``, so that
``T♥`` reads ``TH`` as the cards are spelled there), anything else as ``?``: a line is never
lost to a ``UnicodeEncodeError``.  Input that is not text in its encoding (a Latin-1 ``é`` typed
at a UTF-8 prompt) is kept as escapes, for the answer to be refused and asked again; echoed,
such an escape is written as the byte it was.
"""

from __future__ import annotations

import codecs
import io
import sys

#: The error handler the standard output streams are given.
PLAIN = "allfives-plain"

#: ASCII forms of the characters the program prints.
_ASCII = {
    "·": "-", "—": "-", "–": "-", "−": "-", "─": "-", "→": "->", "…": "...", "µ": "u",
    "±": "+-", "½": "1/2", "●": "o", "◆": "*", "◂": "<", "≥": ">=", "≤": "<=", "×": "x",
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "│": "|", "╭": "+", "╮": "+", "╰": "+", "╯": "+",
}


def _plain(error: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start:error.end]
    out = bytearray()
    for char in text:
        if "\udc80" <= char <= "\udcff":      # a byte of input kept as an escape: itself
            out.append(ord(char) - 0xdc00)
        else:
            out += _ASCII.get(char, "?").encode("ascii")
    return bytes(out), error.end


codecs.register_error(PLAIN, _plain)


def plain_streams() -> None:
    """Standard output and error write what their encoding lacks in ASCII (module notes);
    standard input keeps bytes that are not text in its encoding as escapes."""
    output = ("strict", "backslashreplace", "surrogateescape")     # (Python's own handlers)
    for stream, errors, replaced in ((sys.stdout, PLAIN, output), (sys.stderr, PLAIN, output),
                                     (sys.stdin, "surrogateescape", ("strict",))):
        if isinstance(stream, io.TextIOWrapper) and stream.errors in replaced:
            try:
                stream.reconfigure(errors=errors)
            except (ValueError, OSError):     # (a stream closed, or detached)
                pass


def write_utf8(text: str) -> None:
    """``text`` on standard output in UTF-8, whatever its encoding: a file format (SVG, HTML,
    TOML, Markdown) is read as UTF-8, and written in the locale's (Latin-1 bytes under an
    HTML page's ``charset="utf-8"``) or spelled in ASCII it was another file."""
    stream = sys.stdout
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    buffer = getattr(stream, "buffer", None)
    if buffer is None or encoding == "utf8" or hasattr(stream, "rich_proxied_file"):
        # (a stream of text alone, a test's; one that writes UTF-8 already; or a progress
        # bar's stand-in for a terminal, which puts what is written above the bar)
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode("utf-8", "surrogateescape"))
    buffer.flush()
