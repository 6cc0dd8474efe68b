"""solver.rules: exactly the presets of RULES.md, options over them by name, and errors that
name the option and the value."""

from __future__ import annotations

import random
import re

import pytest

from solver.rules import FOLLOW_RULES, PRESET_NAMES, PRESETS, Rules, RulesError

#: Every option at its all-fives value; the presets below say only how they differ (RULES.md:
#: options a preset's row leaves unsaid keep the all-fives value).
ALL_FIVES = {
    "follow": "trump-anytime", "capture": True,
    "high": True, "low": True, "jack": True, "game": True, "low_to": "holder",
    "game_counts_fives": True, "five_for_five": False, "turnup_jack": False,
    "max_runs": 2, "target": 61, "finish": "peg-out", "skunk": False,
    "revoke_penalty": "offender",
}

TABLE = {
    "all-fives": {},
    "strict": {"follow": "strict"},
    "classic": {"follow": "strict", "high": False, "low": False, "jack": False, "game": False,
                "max_runs": None, "finish": "hand-end"},
    "all-fours": {"capture": False, "game_counts_fives": False, "turnup_jack": True,
                  "target": 7},
    "five-for-five": {"five_for_five": True},
}


def test_the_presets_are_exactly_those_of_the_table():
    assert set(PRESETS) == set(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_each_preset(name):
    rules = Rules.preset(name)
    assert rules.preset_name == name
    assert rules.options() == {**ALL_FIVES, **TABLE[name]}
    assert rules.changes() == {}
    assert rules.strict_follow == (rules.follow == "strict")


def test_the_default_is_all_fives():
    assert Rules() == Rules.preset() == Rules.preset("all-fives") == Rules.from_options()


def test_options_over_a_preset_from_text():
    rules = Rules.from_options("classic", {"follow": "trump-anytime", "high": "true",
                                           "max_runs": "3", "target": "31", "low_to": "captor",
                                           "skunk": "yes"})
    assert rules.preset_name == "classic"
    assert rules.follow == "trump-anytime" and rules.high is True
    assert rules.max_runs == 3 and rules.target == 31
    assert rules.low_to == "captor" and rules.skunk is True
    assert rules.low is False  # untouched: the preset's value
    assert rules.changes() == {"follow": "trump-anytime", "high": True, "max_runs": 3,
                               "target": 31, "low_to": "captor", "skunk": True}


@pytest.mark.parametrize("text, value", [("true", True), ("false", False), ("on", True),
                                         ("off", False), ("1", True), ("0", False),
                                         (True, True), (False, False)])
def test_true_and_false(text, value):
    assert Rules.from_options("all-fives", {"capture": text}).capture is value


@pytest.mark.parametrize("text", ["none", "unlimited", None])
def test_unlimited_runs(text):
    assert Rules.from_options("all-fives", {"max_runs": text}).max_runs is None


def test_replace_keeps_the_preset_name_and_records_changes():
    rules = Rules.preset("all-fours").replace(target=11)
    assert rules.preset_name == "all-fours"
    assert rules.changes() == {"target": 11}
    over_strict = Rules.preset("strict", follow="trump-anytime")
    assert over_strict.preset_name == "strict"
    assert over_strict.changes() == {"follow": "trump-anytime"}
    assert over_strict.options() == Rules().options()


def test_rules_are_frozen():
    with pytest.raises(AttributeError):
        Rules().follow = "strict"  # type: ignore[misc]


def test_unknown_preset():
    with pytest.raises(RulesError, match="unknown preset 'pinochle'"):
        Rules.preset("pinochle")
    with pytest.raises(RulesError, match="'pinochle'"):
        Rules.from_options("pinochle", {})
    # made directly: the name was taken, and a deal's repr, line or TOML then failed (KeyError)
    for name in ("mine", 5, None):
        with pytest.raises(RulesError, match=r"unknown preset .* \(expected one of all-fives,"):
            Rules(preset_name=name)
    assert tuple(PRESETS) == PRESET_NAMES


@pytest.mark.parametrize("options, token", [
    ({"colour": "red"}, "'colour'"),
    ({"follow": "loose"}, "'loose'"),
    ({"low_to": "dealer"}, "'dealer'"),
    ({"finish": "never"}, "'never'"),
    ({"revoke_penalty": "nobody"}, "'nobody'"),
    ({"capture": "maybe"}, "'maybe'"),
    ({"max_runs": "lots"}, "'lots'"),
    ({"max_runs": "-1"}, "-1"),
    ({"max_runs": "53"}, "from 0 to 52 or none, not 53"),
    ({"max_runs": "99999999999999999999999"}, "from 0 to 52"),
    ({"target": "sixty"}, "'sixty'"),
    ({"target": "0"}, "0"),
    ({"follow": 3}, "3"),
    ({"follow": True}, "not true"),     # as a file spells it, not Python's True
])
def test_bad_options_name_the_option_and_the_value(options, token):
    with pytest.raises(RulesError) as caught:
        Rules.from_options("all-fives", options)
    message = str(caught.value)
    assert token in message
    assert next(iter(options)) in message
    assert isinstance(caught.value, ValueError)


def test_replace_rejects_unknown_options():
    with pytest.raises(RulesError, match="'trumps'"):
        Rules().replace(trumps="H")


@pytest.mark.parametrize("text", ["1_000", "٣", "１２", "3.0", "", "+"])
def test_a_whole_number_is_typed_in_digits_0_to_9(text: str):
    # Python's int() takes underscores and other scripts' digits; an option does not
    from solver.errors import whole_number

    with pytest.raises(ValueError, match=f"not a whole number: {re.escape(repr(text))}"):
        whole_number(text)
    with pytest.raises(RulesError, match="takes a whole number"):
        Rules.preset("all-fives").replace(target=text)


def _some_options(rng: random.Random) -> dict:
    """Options over a preset drawn at random: any value each may take."""
    values = {"follow": FOLLOW_RULES, "low_to": ("holder", "captor"),
              "finish": ("peg-out", "hand-end"), "revoke_penalty": ("offender", "others"),
              "max_runs": (None, 0, 1, 5, 52), "target": (1, 7, 31, 121, 999)}
    names = rng.sample(sorted(Rules().options()), rng.randint(0, 6))
    return {name: rng.choice(values.get(name, (True, False))) for name in names}


def test_a_spec_reads_back_as_the_rules_it_spells():
    rng = random.Random(5)
    for _ in range(300):
        rules = Rules.preset(rng.choice(list(PRESETS)), **_some_options(rng))
        spec = rules.spec()
        assert Rules.from_spec(spec) == rules
        assert (":" in spec) == bool(rules.changes())


def test_a_spec_as_typed():
    rules = Rules.from_spec(" classic : skunk = yes, low-to=captor, max_runs=3,")
    assert rules == Rules.preset("classic", skunk=True, low_to="captor", max_runs=3)
    assert rules.spec() == "classic:low_to=captor,max_runs=3,skunk=true"
    # an option set to the preset's own value is no change
    assert Rules.from_spec("classic:finish=hand-end").spec() == "classic"


@pytest.mark.parametrize("text, message", [
    ("skunk=true", "'skunk=true' names no preset (options go after one and a colon: "
                   "all-fives:skunk=true)"),
    ("classic:", "'classic:' names no rule option after the colon"),
    ("classic: , ", "'classic: , ' names no rule option after the colon"),
    ("classic skunk=true", "'classic skunk=true' names no preset (options go after one and a "
                           "colon: classic:skunk=true)"),
    ("classic skunk=true finish=hand-end", "'classic skunk=true finish=hand-end' names no "
                                           "preset (options go after one and a colon: "
                                           "classic:skunk=true finish=hand-end)"),
    ("nosuch skunk=true", "'nosuch skunk=true' names no preset (options go after one and a "
                          "colon: all-fives:nosuch skunk=true)"),
    ("all-fives:Foo=1", "unknown option 'Foo' (the options: follow, capture, high, low,"),
    ("all-fives:Max-Runs=1", "unknown option 'Max_Runs' (it is spelled max_runs)"),
    ("classic:skunk", "rule option 'skunk' is not key=value"),
    ("classic:skunk=true,skunk=false", "rule option 'skunk' is given twice"),
    ("euchre:skunk=true", "unknown preset 'euchre'"),
    ("strict:colour=red", "unknown option 'colour'"),
    ("strict:target=1000", "option 'target' takes a whole number from 1 to 999, not 1000"),
])
def test_a_bad_spec_names_what(text, message):
    with pytest.raises(RulesError) as caught:
        Rules.from_spec(text)
    assert str(caught.value).startswith(message)


def test_the_presets_cannot_be_changed_by_a_caller():
    """PRESETS was a plain dict: ``PRESETS["strict"] = ...`` changed ``Rules.preset("strict")``
    for every later caller."""
    from solver.rules import PRESETS

    with pytest.raises(TypeError):
        PRESETS["strict"] = Rules()  # type: ignore[index]
    assert Rules.preset("strict").follow == "strict"
