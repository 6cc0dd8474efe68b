"""Players made by name: ``make_player("heuristic")``, ``make_player("random", seed=3)``,
``make_player("cheater", time_limit=0.5)``, ``make_player("pimc", worlds=64)``;
``player_names()`` lists them and ``register_player(name, factory)`` adds one.  An unknown name
or option is a ``PlayerError``.  ``PlayerSpec`` is a kind and its options, as a batch run sends
them to its workers; ``player_spec("pimc:worlds=64")`` reads one from its text.
"""
from __future__ import annotations

import contextlib
import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import lower, quoted, spec_options, whole_number, written_as_number
from .pimc import PimcPlayer
from .players import CheaterPlayer, HeuristicPlayer, Player, PlayerError, RandomPlayer

__all__ = ["make_player", "register_player", "player_names", "player_options", "PlayerSpec",
           "player_spec", "set_options"]

_REGISTRY: dict[str, Callable[..., Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "cheater": CheaterPlayer,
    "pimc": PimcPlayer,
}


def register_player(name: str, factory: Callable[..., Player]) -> None:
    """Make ``make_player(name, seed=..., **options)`` call ``factory(seed=..., **options)``.
    Register before ``solver.executors.executor_for`` makes its workers: they know the players
    there were when they were forked.  A name taken is taken over (a built-in one too)."""
    if not isinstance(name, str) or not name or not name.isprintable() or \
            any(c in name for c in ":,") or name.split() != [name]:
        raise PlayerError(f"a player name is a word, not {quoted(name)}")
    if not callable(factory):
        raise PlayerError(f"player {quoted(name)}: its factory {quoted(factory)} is not "
                          f"callable (a class or function that makes the player)")
    _REGISTRY[name] = factory


def player_names() -> list[str]:
    return list(_REGISTRY)


def _check_option_names(name: str, keys) -> None:
    """A ``PlayerError`` for the first of ``keys`` that player ``name`` takes no option of,
    naming those it takes."""
    known = player_options(name)   # (None: a player whose options are not listed)
    for key in keys if known is not None else ():
        assert known is not None
        if key not in known:
            takes = f"its options: {', '.join(known)}" if known else "it takes none"
            raise PlayerError(f"player {quoted(name)} has no option {quoted(key)} ({takes})")


def _parameters(name: str) -> Mapping[str, inspect.Parameter]:
    """The parameters of the factory of the kind of player ``name``."""
    factory: Any = _REGISTRY[name]
    return inspect.signature(factory).parameters


def player_options(name: str) -> list[str] | None:
    """The options a kind of player takes by name (None: a factory that takes any)."""
    parameters = _parameters(name).values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters if p.name not in ("self", "seed", "name")
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def set_options(spec: PlayerSpec) -> dict[str, Any]:
    """A spec's options less those given the value they have by default (``pimc:infer=1`` sets
    what ``pimc`` does): two specs of one kind make the same player where these are equal."""
    parameters: Mapping[str, inspect.Parameter] = {}
    with contextlib.suppress(LookupError, TypeError, ValueError):  # (unknown, or unreadable)
        parameters = _parameters(spec.name)
    unset = inspect.Parameter.empty
    return {key: value for key, value in spec.options
            if key not in parameters or parameters[key].default is unset
            or type(value) not in (bool, int, float, str, type(None))
            or value != parameters[key].default}


def make_player(name: str, seed: int | str | None = None, **options: Any) -> Player:
    """A new player of the kind ``name`` (``player_names()``), seeded by ``seed``."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise PlayerError(f"unknown player {quoted(name)} (expected one of "
                          f"{', '.join(_REGISTRY)})")
    _check_option_names(name, options)
    try:
        return factory(seed=seed, **options)
    except TypeError as error:
        raise PlayerError(f"player {quoted(name)}: {error}") from None


@dataclass(frozen=True)
class PlayerSpec:
    """A player kind and its options: what a batch run sends to its workers, which make a fresh
    player from it for every game."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def make(self, seed: int | str | None = None, players: int | None = None) -> Player:
        """A fresh player; with ``players``, one checked for a table of that many (an option
        that would change nothing there is a ``PlayerError``)."""
        player = make_player(self.name, seed=seed, **dict(self.options))
        check = getattr(player, "check_table", None)
        if players is not None and check is not None:
            check(players)
        return player

    def __str__(self) -> str:
        if not self.options:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_value_text(v)}" for k, v in self.options)


def player_spec(value: str | PlayerSpec, **options: Any) -> PlayerSpec:
    """A ``PlayerSpec`` from a spec, a name, or ``"name:key=value,key=value"`` (values read as
    numbers where they are numbers, ``none`` as None, but for the options whose values are
    words, read as written)."""
    if isinstance(value, PlayerSpec):
        spec = value
    elif isinstance(value, str):
        name = value.partition(":")[0].strip()
        written = spec_options(value, "player option", PlayerError, named=False)
        words = _word_options(name)
        spec = PlayerSpec(name, tuple((key, _read_value(text) if key not in words else
                                       None if words[key] and lower(text) == "none" else text)
                                      for key, text in written.items()))
    else:
        raise PlayerError(f"{quoted(value)} is not a player name")
    if spec.name not in _REGISTRY:
        raise PlayerError(f"unknown player {quoted(spec.name)} (expected one of "
                          f"{', '.join(_REGISTRY)})")
    # a spec given as a spec was checked when it was made; options beside it are checked now
    given = [key for key, _ in spec.options] if isinstance(value, str) else []
    _check_option_names(spec.name, given + list(options))
    if options:
        twice = [key for key, _ in spec.options if key in options]
        if twice:
            raise PlayerError(f"player option {quoted(twice[0])} is given twice")
        spec = PlayerSpec(spec.name, spec.options + tuple(options.items()))
    return spec


def _word_options(name: str) -> dict[str, bool]:
    """The options of the kind of player ``name`` whose values are words (a word by default,
    or none): read as written, so that ``fusion=none`` is the word and a message names what
    was typed (``replies=TRUE``, not True); each with whether ``none`` is None there (an
    option of none by default, as ``trust``)."""
    try:
        parameters = _parameters(name)
    except (LookupError, TypeError, ValueError):     # (unknown: named as such below)
        return {}
    return {key: p.default is None for key, p in parameters.items()
            if isinstance(p.default, str) or p.default is None and p.annotation == "str | None"}


def _value_text(value: Any) -> str:
    """An option's value as a spec spells it, for ``_read_value`` to read back."""
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


#: The largest whole number an option's value reads from an exponent (``1e3``: 1000); beyond,
#: it stays the float it is written as, and is named so in a message (``9e+99``).
_LARGEST_WHOLE = 2 ** 53


def _read_value(text: str) -> Any:
    if lower(text) == "none":
        return None
    if lower(text) in ("true", "false"):
        return lower(text) == "true"
    if not written_as_number(text):   # (nor 1_0, other scripts' digits, inf: as written)
        return text
    try:
        return whole_number(text)
    except ValueError:
        value = float(text)
    if not math.isfinite(value):   # 1e400: as written
        return text
    # 1e3 is a whole number, written as a float is; 1.6e1, with a point, is not (as 16.0 is not)
    whole_exponent = "e" in text.lower() and "." not in text and value.is_integer() and \
        abs(value) <= _LARGEST_WHOLE
    return int(value) if whole_exponent else value
