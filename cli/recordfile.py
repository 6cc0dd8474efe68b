"""The file a game record is written to, by ``allfives match`` and ``allfives play``.

A run holds the file's lock while it writes (``flock``: another run that names the same file is
refused, not let write over its lines).  A file there already that holds something other than a
record (a deal file named by mistake) is not written over.  ``match`` writes into a pipe as into
a file (another program reads the records as they come); ``play``, which may write its record
again from the start, takes none.  ``play``'s record grows as the match goes on: the records of
a deal more are added at its end, so that a run killed as it saves leaves the deals before whole
(the whole file is written again only after an ``undo`` took a finished deal back, or where
the file was removed or replaced while the game went on: it is made again).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from typing import BinaryIO

from solver.errors import AllFivesError

from .inputs import holds_records


def locked(out) -> bool:
    """Whether this run holds the record file's lock now, kept until the file is closed (a
    pipe or a device has none to take: true; so too where locks are not to be had)."""
    try:
        import fcntl

        if not os.path.isfile(out.name):
            return True
        fcntl.flock(out.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    except (ImportError, OSError):
        return True
    return True


#: What the message says of a record another run holds.
HELD = "another run is writing this record (two runs would write over each other's lines)"


def check_target(path: Path, option: str = "--record", pipe: bool = False) -> None:
    """Refuse as ``option``'s file one there already that holds something other than a game
    record (one of blank lines alone, or that this run cannot read, is left to be written
    over), a link to no file (a name planted in a shared folder would have the record made
    where it points), and (unless ``pipe``) a pipe."""
    try:
        found = path.stat()
    except FileNotFoundError:
        if path.is_symlink():   # (writing through it would make a file where the link points)
            raise AllFivesError(f"{option}: {path} is a link to no file "
                                f"({os.readlink(path)}): name the record's file itself") from None
        return
    except OSError:         # (a loop of links, a folder unread: opening it says what is wrong)
        return
    if stat.S_ISFIFO(found.st_mode) and not pipe:
        raise AllFivesError(f"{option}: {path} is a pipe, not a file: a record is written to "
                            f"a file")
    if stat.S_ISREG(found.st_mode) and found.st_size and os.access(path, os.R_OK) \
            and not holds_records(path, blank=True):
        raise AllFivesError(f"{option}: {path} holds something other than a game record: not "
                            f"written over (name another file, or remove it first)")


class PlayRecord:
    """``play``'s record file: ``path`` (named, or the first ``allfives-SEED[-K].jsonl`` free
    in the current folder), made as the first deal ends and held, locked, until ``close``."""

    def __init__(self, path: Path, named: bool, seed: int) -> None:
        self.path, self.named, self.seed = path, named, seed
        self.out: BinaryIO | None = None
        self.written = b""
        self.regular = True

    def __str__(self) -> str:
        return str(self.path)

    def hold(self) -> None:
        """A named record there already opened and locked now, not as the first deal ends:
        a run that takes it meanwhile would have ended this one after its first deal."""
        if self.named and self.out is None and self.path.is_file():
            self.out = self._open()
            self.regular = True

    def write(self, text: str) -> None:
        """The record's whole text, written: what is added after what was written before, at
        its end; anything else in place of the file's text."""
        data = text.encode("utf-8")
        if self.out is not None and self.regular and not self._still_named():
            # removed or replaced while the game went on: made again, the whole record
            self.close()
            self.written = b""
        if self.out is None:
            self.out = self._open()
            self.regular = os.path.isfile(self.path)
        out, more = self.out, data.startswith(self.written)
        if self.regular:            # (a device, /dev/null, has nothing to go back over)
            out.seek(len(self.written) if more else 0)
        out.write(data[len(self.written):] if more else data)
        out.flush()
        if self.regular:
            out.truncate()
        self.written = data

    def _still_named(self) -> bool:
        """Whether the path still names the file this run opened."""
        assert self.out is not None
        try:
            there, held = os.stat(self.path), os.fstat(self.out.fileno())
        except OSError:
            return False
        return (there.st_dev, there.st_ino) == (held.st_dev, held.st_ino)

    def _open(self) -> BinaryIO:
        """The file, opened and locked: a named one as it is (written over by the first
        write); else the first free default name, made here (another run may have taken the
        name found free as this one began)."""
        out: BinaryIO
        if self.named:
            check_target(self.path)
            # (opened to write alone, as it was when the file was written whole: one this run
            # may write but not read is a record still)
            out = os.fdopen(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o666), "wb")
            if not locked(out):
                out.close()
                raise AllFivesError(f"--record: {self.path}: {HELD}")
            return out
        while True:
            try:
                out = open(self.path, "x+b")
            except FileExistsError:
                self.path = next_free(self.seed, self.path)
                continue
            locked(out)
            return out

    def close(self) -> None:
        if self.out is not None:
            # (what a write that failed left in the buffer, a full disk's, is let go: the
            # failure was said)
            with contextlib.suppress(OSError):
                self.out.close()
            self.out = None


def first_free(seed: int) -> Path:
    """The default record, ``allfives-SEED.jsonl`` in the current folder, or ``-2``, ``-3`` ...
    after the seed when that is taken: a record the person did not name never replaces one."""
    path = Path(f"allfives-{seed}.jsonl")
    return path if not (path.exists() or path.is_symlink()) else next_free(seed, path)


def next_free(seed: int, after: Path) -> Path:
    """The first default name after ``after`` that is free."""
    stem = after.stem.removeprefix(f"allfives-{seed}")
    copy = int(stem[1:]) if stem.startswith("-") and stem[1:].isdigit() else 1
    while True:
        copy += 1
        path = Path(f"allfives-{seed}-{copy}.jsonl")
        if not (path.exists() or path.is_symlink()):
            return path


__all__ = ["locked", "HELD", "check_target", "PlayRecord", "first_free", "next_free"]
