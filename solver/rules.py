"""The rule options of All Fives and its kin, and their presets (README, "Rule sets").

``Rules`` is frozen: ``Rules.preset("strict")`` gives a preset, ``rules.replace(low_to="captor")``
sets options over it, and ``Rules.from_options("classic", {"follow": "trump-anytime"})`` does both
from text (a deal file); ``Rules.from_spec("classic:follow=trump-anytime")`` reads them as the
command line names them, and ``rules.spec()`` writes them so.  An unknown preset, option or
value is a ``RulesError`` that names it.  Options a preset's row in the README leaves unsaid keep
the ``all-fives`` value.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

from .errors import AllFivesError, lower, quoted, spec_options, whole_number

__all__ = ["Rules", "RulesError", "PRESETS", "PRESET_NAMES", "option_text", "read_spec",
           "MAX_TARGET", "OPTION_TYPES", "OPTION_NAMES", "spelled_as"]

#: The highest target a match may have: far beyond any match the sources describe (61, or 121
#: for a long game), low enough that a match to it can be played and drawn.
MAX_TARGET = 999
#: More runs than the pack could ever deal (two players use seven cards a run): ``none`` says it.
MAX_RUNS = 52


class RulesError(AllFivesError):
    """An unknown preset, option or option value."""


FOLLOW_RULES = ("trump-anytime", "strict")
LOW_TO = ("holder", "captor")
FINISHES = ("peg-out", "hand-end")
REVOKE_PENALTIES = ("offender", "others")
#: The presets' names (``PRESETS``, below, holds their rules).
PRESET_NAMES = ("all-fives", "strict", "classic", "all-fours", "five-for-five")


@dataclass(frozen=True)
class Rules:
    """The rules a deal is played by: the preset they start from (``preset_name``, one of
    ``PRESETS``, which names them in files and on the command line) and every option, each
    checked as it is given (README, "Rule options")."""

    preset_name: str = "all-fives"
    #: ``trump-anytime``: a trump may be played to any lead; ``strict``: follow suit if able.
    follow: str = "trump-anytime"
    #: The winner of a trick pegs the pip value of every trump in it.
    capture: bool = True
    high: bool = True
    low: bool = True
    jack: bool = True
    game: bool = True
    #: Low goes to the side dealt it (``holder``) or the side that wins it in a trick (``captor``).
    low_to: str = "holder"
    #: Fives count 5 toward Game (off in All Fours, where Game counts A K Q J T only).
    game_counts_fives: bool = True
    #: The side that wins the trump five scores 5 more at the end of the deal.
    five_for_five: bool = False
    #: The dealer scores 1 when the card that fixes trumps is a Jack.
    turnup_jack: bool = False
    #: Most runs of the cards after a beg; ``None`` runs until a new suit turns up.
    max_runs: int | None = 2
    target: int = 61
    finish: str = "peg-out"
    skunk: bool = False
    #: A late revoke costs the offender 3 (``offender``) or gives every other side 3 (``others``).
    revoke_penalty: str = "offender"

    def __post_init__(self) -> None:
        if not isinstance(self.preset_name, str) or self.preset_name not in PRESET_NAMES:
            raise RulesError(f"unknown preset {quoted(self.preset_name)} (expected one of "
                             f"{', '.join(PRESET_NAMES)})")
        for name, allowed in (("follow", FOLLOW_RULES), ("low_to", LOW_TO),
                              ("finish", FINISHES), ("revoke_penalty", REVOKE_PENALTIES)):
            value = getattr(self, name)
            if value not in allowed:
                raise RulesError(f"option {quoted(name)} cannot be {quoted(value)} "
                                 f"(expected one of {', '.join(allowed)})")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise RulesError(f"option {quoted(f.name)} takes true or false, not {quoted(value)}")
        if self.max_runs is not None and (not _is_int(self.max_runs) or
                                          not 0 <= self.max_runs <= MAX_RUNS):
            raise RulesError(f"option 'max_runs' takes a whole number from 0 to {MAX_RUNS} or "
                             f"none, not {quoted(self.max_runs)}")
        if not _is_int(self.target) or not 1 <= self.target <= MAX_TARGET:
            raise RulesError(f"option 'target' takes a whole number from 1 to {MAX_TARGET}, "
                             f"not {quoted(self.target)}")

    # ---- construction -------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "all-fives", **options: Any) -> Rules:
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {quoted(name)} (expected one of "
                             f"{', '.join(PRESETS)})") from None
        return base.replace(**options) if options else base

    @classmethod
    def from_options(cls, preset: str = "all-fives",
                     options: Mapping[str, Any] | None = None) -> Rules:
        """A preset with options over it; values may be typed or text (``"true"``, ``"2"``)."""
        rules = cls.preset(preset)
        if options is not None and not isinstance(options, Mapping):
            raise RulesError(f"options are a mapping of names to values, not {quoted(options)}")
        return rules.replace(**{k: _coerce(k, v) for k, v in (options or {}).items()})

    @classmethod
    def from_spec(cls, text: str) -> Rules:
        """Rules as the command line names them: a preset, and options over it after a colon,
        ``classic:skunk=true,finish=hand-end`` (as a player's spec takes its options)."""
        return cls.from_options(*read_spec(text))

    def spec(self) -> str:
        """How ``from_spec`` reads these rules: the preset, with the options that differ from
        it after a colon."""
        changes = self.changes()
        return self.preset_name + (":" + ",".join(f"{k}={option_text(v)}"
                                                   for k, v in changes.items()) if changes else "")

    def replace(self, **options: Any) -> Rules:
        for name in options:
            if name not in OPTION_NAMES:
                raise RulesError(unknown_option(name))
        return dataclasses.replace(self, **options)

    # ---- reading ------------------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """Every option by name (the preset name excluded)."""
        return {name: getattr(self, name) for name in OPTION_NAMES}

    def changes(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = PRESETS[self.preset_name]
        return {k: v for k, v in self.options().items() if getattr(base, k) != v}

    @property
    def strict_follow(self) -> bool:
        return self.follow == "strict"

    @property
    def low_to_holder(self) -> bool:
        """Low is scored, and goes to the side dealt it."""
        return self.low and self.low_to == "holder"

    @property
    def low_to_captor(self) -> bool:
        """Low is scored, and goes to the side that wins it in a trick."""
        return self.low and self.low_to == "captor"


def read_spec(text: str) -> tuple[str, dict[str, str]]:
    """A rules spec's preset and the options it names, as written (``Rules.from_spec`` reads
    them): ``classic:skunk=true`` -> (``classic``, {``skunk``: ``true``})."""
    if not isinstance(text, str):
        raise RulesError(f"rules are named by text (a preset, options after a colon), not "
                         f"{quoted(text)}")
    preset = text.partition(":")[0].strip()
    if "=" in preset:
        first = re.split(r"[\s,;]+", preset, maxsplit=1)
        hint = f"{first[0]}:{first[1]}" if first[0] in PRESETS and len(first) > 1 else \
            f"all-fives:{preset}"
        raise RulesError(f"{quoted(text)} names no preset (options go after one and a colon: "
                         f"{hint})")
    return preset, spec_options(text, "rule option", RulesError)


def option_text(value: Any) -> str:
    """An option's value as deal files and the command line spell it: ``true``, ``none``,
    ``strict``, ``61``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def unknown_option(name: str) -> str:
    """What is said of an option no rules have: how it is spelled, if it is one spelled
    otherwise, else what the options are."""
    return f"unknown option {quoted(name)}" + (
        spelled_as(name) or f" (the options: {', '.join(OPTION_NAMES)})")


def spelled_as(name: str) -> str:
    """`` (it is spelled max_runs)`` after an unknown option that is one spelled otherwise
    (``max-runs``, ``Max_Runs``); else nothing."""
    known = lower(name.strip()).replace("-", "_") if isinstance(name, str) else None
    return f" (it is spelled {known})" if known in OPTION_NAMES and known != name else ""


def _coerce(name: str, value: Any) -> Any:
    """Turn text from a file or the command line into the option's type."""
    if name not in OPTION_NAMES:
        raise RulesError(unknown_option(name))
    kind = OPTION_TYPES[name]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = lower(str(value).strip())
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"option {quoted(name)} takes true or false, not {quoted(value)}")
    if kind == "int":
        if _is_int(value):
            return value
        try:
            return whole_number(str(value))
        except ValueError:
            raise RulesError(f"option {quoted(name)} takes a whole number, not {quoted(value)}") from None
    if kind == "int | None":
        if value is None or _is_int(value):
            return value
        text = lower(str(value).strip())
        if text in ("none", "unlimited"):
            return None
        try:
            return whole_number(text)
        except ValueError:
            raise RulesError(f"option {quoted(name)} takes a whole number or none, "
                             f"not {quoted(value)}") from None
    if not isinstance(value, str):
        raise RulesError(f"option {quoted(name)} takes a word, not "
                         f"{option_text(value) if isinstance(value, bool) else quoted(value)}")
    return value.strip()


#: Each option's type as written in ``Rules`` (a string: the module's annotations are postponed).
OPTION_TYPES: dict[str, str] = {f.name: str(f.type) for f in fields(Rules)
                                if f.name != "preset_name"}
OPTION_NAMES = tuple(OPTION_TYPES)

_ALL_FIVES = Rules()
#: The presets by name, read-only (a caller's change would change ``Rules.preset`` for all).
PRESETS: Mapping[str, Rules] = MappingProxyType({
    "all-fives": _ALL_FIVES,
    "strict": dataclasses.replace(_ALL_FIVES, preset_name="strict", follow="strict"),
    "classic": dataclasses.replace(_ALL_FIVES, preset_name="classic", follow="strict",
                                   high=False, low=False, jack=False, game=False,
                                   max_runs=None, finish="hand-end"),
    "all-fours": dataclasses.replace(_ALL_FIVES, preset_name="all-fours", capture=False,
                                     game_counts_fives=False, turnup_jack=True, target=7),
    "five-for-five": dataclasses.replace(_ALL_FIVES, preset_name="five-for-five",
                                         five_for_five=True),
})
