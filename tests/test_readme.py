"""The README's transcripts are run, and what they show is what the program prints.

A transcript is a fenced block whose first line is a command, ``$ allfives ...`` (pipes
allowed).  Every ``$ `` line in it is run by bash in a folder that stands for the repository's
root (links to its files, so that what a transcript writes there, ``--record game.jsonl``, is
this run's alone), with the installed ``allfives`` first on the PATH, 80 columns wide and
without colour, standard error into the same stream as standard output; the lines below it, up
to the next ``$ ``, are what it prints.
``$ echo $?`` shows the status of the command before it.

What may differ from run to run is masked in both: the time a solve took and the nodes it
searched (``2,465 nodes, 0.000 s``, ``"nodes": 219``, ``"seconds": 0.000221``); for ``allfives
bench``, whose table is nothing but the timings of the machine it ran on, every time, rate and
ratio and the column widths they make.  A line that is ``...`` stands for any lines (none
included); ``...`` inside a line for any text (the README says so where it shortens a line).

``allfives bench --class bridge --count 10`` takes about a minute (and shows DDS's columns only
where endplay is installed): it runs only with ALLFIVES_README_SLOW=1, the rest of its
transcript always.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from clirun import shell

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
SLOW = {"allfives bench --class bridge --count 10"}
ELLIPSIS = "..."


@dataclass
class Step:
    command: str  # without the "$ "
    line: int  # of the README
    expected: list[str] = field(default_factory=list)


@dataclass
class Transcript:
    line: int  # of the README: the first command
    steps: list[Step]

    @property
    def name(self) -> str:
        return f"README.md:{self.line} {self.steps[0].command}"


def transcripts(text: str) -> list[Transcript]:
    found = []
    block: list[tuple[int, str]] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if block is None:
                block = []
                continue
            if block and block[0][1].startswith("$ allfives"):
                steps: list[Step] = []
                for at, text_line in block:
                    if text_line.startswith("$ "):
                        steps.append(Step(text_line[2:], at))
                    else:
                        steps[-1].expected.append(text_line)
                found.append(Transcript(block[0][0], steps))
            block = None
        elif block is not None:
            block.append((number, line))
    return found


def masked(text: str, command: str) -> str:
    text = re.sub(r"\b[\d,]+ nodes?, \d+\.\d+ s\b", "N nodes, T s", text)
    text = re.sub(r'"nodes": \d+', '"nodes": N', text)
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text)
    if command.startswith(("allfives bench", "allfives match")):
        text = re.sub(r"\b\d+(\.\d+)? ?(µs|us|ms|s|[kMG]|x)(?=\s|$)", "T", text)
        text = re.sub(r"─+", "─", text)
        text = re.sub(r"[ \t]+", " ", text)
    return "\n".join(line.rstrip() for line in text.splitlines())


def pattern(lines: list[str]) -> re.Pattern:
    """The expected lines as a pattern: a ``...`` line any lines, ``...`` in a line any text."""
    parts = []
    for line in lines:
        if line == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = [re.escape(piece) for piece in line.split(ELLIPSIS)]
            parts.append(r"[^\n]*?".join(pieces) + r"\n")
    return re.compile("".join(parts))


def matches(expected: list[str], actual: str) -> bool:
    return pattern(expected).fullmatch(actual + "\n" if actual else "") is not None


TRANSCRIPTS = transcripts(README.read_text(encoding="utf-8"))


def test_the_readme_has_its_transcripts():
    assert len(TRANSCRIPTS) >= 10
    commands = [step.command for t in TRANSCRIPTS for step in t.steps]
    assert commands.count("echo $?") >= 2
    assert all(c.startswith(("allfives ", "echo $?")) for c in commands), commands


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A folder that reads as the repository's root: a link to each of its files and folders."""
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


@pytest.mark.parametrize("transcript", TRANSCRIPTS, ids=lambda t: t.name)
def test_transcript(transcript: Transcript, root: Path):
    slow = not os.environ.get("ALLFIVES_README_SLOW")
    steps = [step for step in transcript.steps if not (slow and step.command in SLOW)]
    if any(step.command.startswith(("allfives solve", "allfives analyze", "allfives bench"))
           and "--engine reference" not in step.command for step in steps):
        pytest.importorskip("solver.search")  # the default engine
    status = None
    for step in steps:
        if step.command == "echo $?":
            actual = str(status)
        else:
            done = shell(step.command, root)
            status, actual = done.returncode, done.stdout
        expected = [masked(line, step.command) for line in step.expected]
        got = masked(actual, step.command)
        if not matches(expected, got):
            diff = "\n".join(difflib.unified_diff(expected, got.splitlines(), "README.md",
                                                  "printed", lineterm=""))
            pytest.fail(f"README.md:{step.line}: $ {step.command}\n{diff}", pytrace=False)


def test_every_link_within_the_readme_leads_to_a_heading():
    """``[...](#anchor)`` as GitHub makes anchors of headings: lower case, punctuation but
    ``-`` and ``_`` dropped, spaces made ``-`` (headings in code blocks are no headings)."""
    text = README.read_text(encoding="utf-8")
    anchors, fenced = set(), False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"#+ (.+)", line)):
            anchors.add(re.sub(r"[^\w\- ]", "", heading[1].strip().lower()).replace(" ", "-"))
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) > 50 and [link for link in links if link not in anchors] == []
