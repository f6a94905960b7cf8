"""The Dream Cruise card set (C10): the standard set, its generator, validation and the JSON format."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cruiselib.dream_cruise import cardgen
from cruiselib.dream_cruise.cards import (
    CABINS,
    GENERAL,
    REGION_NAMES,
    REGIONS,
    TYPE_NAMES,
    TYPES,
    Activity,
    CardSet,
    Family,
    Location,
    ShipCard,
)
from cruiselib.errors import InvalidOptionError

STD = CardSet.standard()
LOCATION_TYPES = TYPES[3:]


def fam(name: str) -> Family:
    return STD.families[STD.family_index[name]]


def loc(name: str) -> Location:
    return STD.locations[STD.location_index[name]]


def ship(name: str) -> ShipCard:
    return STD.ships[STD.ship_index[name]]


# ---------------------------------------------------------------- the standard set (C10)


def test_constants_are_in_id_order() -> None:
    assert TYPES == ("sports", "culture", "rest", "city", "country", "beach")
    assert TYPE_NAMES[:3] == ("Sports & Outdoors", "Culture & Entertainment", "Rest & Relaxation")
    assert TYPES[:3] == GENERAL
    assert REGIONS == ("east_med", "west_med", "baltic", "arctic", "north_sea", "atlantic")
    assert REGION_NAMES[4] == "North Sea and Irish Sea"
    assert len(REGION_NAMES) == len(REGIONS) == 6
    assert CABINS == ("inner", "oceanview", "balcony")


def test_families_follow_C10() -> None:
    families = STD.families
    assert len(families) == 60
    assert len({f.name for f in families}) == 60
    starting = [f for f in families if f.start is not None]
    assert len(starting) == 12
    by_letter: dict[str, list[Family]] = {}
    for f in starting:
        by_letter.setdefault(f.start or "", []).append(f)
    assert sorted(by_letter) == ["A", "B", "C", "D"]
    shapes = set()
    for letter, group in by_letter.items():
        assert len(group) == 3, letter
        assert all(f.members == 3 and f.points == 3 for f in group)  # published
        assert sorted(t for f in group for t in f.wants) == sorted(TYPES)  # all six, once each
        shapes.add(tuple(sorted(tuple(sorted(f.wants)) for f in group)))
    assert len(shapes) == 1  # the four letters are alike: no seat is favoured
    others = [f for f in families if f.start is None]
    assert len(others) == 48
    for f in others:
        assert 2 <= f.members <= 6, f
        assert 1 <= len(f.wants) <= 3, f
        assert len(set(f.wants)) == len(f.wants), f
        assert 1 <= f.points <= 9, f
        if not set(f.wants) & set(GENERAL):
            assert f.members <= 2, f  # location-only families are small ...
    assert sum(not set(f.wants) & set(GENERAL) for f in others) <= 3  # ... and rare
    assert {f.members for f in others} == {2, 3, 4, 5, 6}
    assert {len(f.wants) for f in others} == {1, 2, 3}
    assert {f.points for f in others} == set(range(1, 10))


def test_points_rise_with_members_and_fall_with_breadth() -> None:
    others = [f for f in STD.families if f.start is None]
    for a in others:
        for b in others:
            if a.members >= b.members and len(a.wants) <= len(b.wants):
                assert a.points >= b.points, (a, b)
    assert max(others, key=lambda f: f.points).members == 6


def test_the_rulebooks_families_are_in_the_deck() -> None:
    assert fam("Johnson").members == 3
    assert fam("Ertel").members == 4
    assert {"country", "rest"} <= set(fam("Ertel").wants)
    assert fam("Jung").members == 3
    assert {"culture", "rest"} <= set(fam("Jung").wants)
    assert all(fam(n).start is None for n in ("Johnson", "Ertel", "Jung"))


def test_locations_follow_C10() -> None:
    shore = [x for x in STD.locations if x.kind == "shore"]
    sea = [x for x in STD.locations if x.kind == "sea"]
    assert len(STD.locations) == 54
    assert len(shore) == 36
    assert len(sea) == 18
    assert len({x.name for x in STD.locations}) == 54
    assert Counter(x.region for x in shore) == dict.fromkeys(REGIONS, 6)
    for x in shore:
        assert x.top.type in LOCATION_TYPES and 1 <= x.top.capacity <= 2, x
        assert x.bottom is not None
        assert x.bottom.type in GENERAL and 1 <= x.bottom.capacity <= 3, x
    for x in sea:
        assert x.region is None and x.bottom is None, x
        assert x.top.type in GENERAL and x.top.capacity == 1, x
        assert x.name.startswith("Open Sea: ")
    # every region offers each excursion type and each general type
    for region in REGIONS:
        cards = [x for x in shore if x.region == region]
        assert {x.top.type for x in cards} == set(LOCATION_TYPES)
        assert {x.bottom.type for x in cards if x.bottom} == set(GENERAL)
    assert Counter(x.top.type for x in sea) == dict.fromkeys(GENERAL, 6)
    inv = loc("Invergordon")  # the rulebook's example; its bottom is "Loch Ness"
    assert inv.kind == "shore" and inv.region == "north_sea"
    assert inv.top == Activity(type="country", capacity=2)
    assert inv.bottom == Activity(type="culture", capacity=2)


def test_ship_cards_follow_C10() -> None:
    ships = STD.ships
    assert len(ships) == 72
    assert len({s.name for s in ships}) == 72
    assert Counter(s.kind for s in ships) == {"activity": 48, "addition": 24}
    assert all(s.activity.type in GENERAL for s in ships)
    assert {s.activity.capacity for s in ships} == {1, 2, 3}
    assert Counter((s.kind, s.activity.type) for s in ships) == {
        **{("activity", t): 16 for t in GENERAL},
        **{("addition", t): 8 for t in GENERAL},
    }
    for name in ("Maritime Museum", "Legs Bums & Tums", "Indoor Cycling", "Game Night", "Bingo"):
        assert ship(name).kind == "activity"
    assert ship("Cooking Class") == ShipCard(
        name="Cooking Class", kind="activity", activity=Activity(type="rest", capacity=2)
    )
    assert ship("Sun Deck").kind == "addition"
    assert ship("Theater") == ShipCard(name="Theater", kind="addition", activity=Activity(type="culture", capacity=3))
    # the rulebook's phase 4 example: Ertel and Jung both go to Cooking Class, Jung to Theater
    assert ship("Cooking Class").activity.type in set(fam("Ertel").wants) & set(fam("Jung").wants)
    assert ship("Theater").activity.type in fam("Jung").wants
    assert loc("Invergordon").top.type in fam("Ertel").wants


def test_every_type_is_well_supplied() -> None:
    table = cardgen.supply_demand(STD)
    assert set(table) == set(TYPES)
    general = {table[t] for t in GENERAL}
    location = {table[t] for t in LOCATION_TYPES}
    assert len(general) == 1 and len(location) == 1  # the types of a class are alike
    for t, (slots, figures, share) in table.items():
        assert figures > 0, t
        assert slots >= share, t  # slots for at least the figures a type is wanted by
        assert slots >= figures / 2, t
    assert table["sports"] == (78, 100, 54.5)
    assert table["city"] == (22, 44, 18.5)
    # the capacities behind those totals
    shore = [x for x in STD.locations if x.kind == "shore"]
    for t in GENERAL:
        assert Counter(x.bottom.capacity for x in shore if x.bottom and x.bottom.type == t) == {1: 4, 2: 4, 3: 4}
    for t in LOCATION_TYPES:
        assert Counter(x.top.capacity for x in shore if x.top.type == t) == {1: 2, 2: 10}


def test_data_file_is_the_generators_output(tmp_path: Path) -> None:
    text = resources.files("cruiselib.dream_cruise").joinpath("data/cards.json").read_text("utf-8")
    assert text == cardgen.render()
    assert json.loads(text) == cardgen.generate()
    assert cardgen.generate() == cardgen.generate()
    data = json.loads(text)
    assert "engine-authored" in data["provenance"]["data"]
    assert "Engine-authored" in data["description"]
    assert "Loch Ness" in data["description"]
    cardgen.main([str(tmp_path / "cards.json")])
    assert (tmp_path / "cards.json").read_text("utf-8") == text
    assert CardSet.from_file(tmp_path / "cards.json") == STD


# ---------------------------------------------------------------- validation, one test per rule


Lists = tuple[list[Family], list[Location], list[ShipCard]]
Mutation = Callable[[Lists], object]


def lists() -> Lists:
    return list(STD.families), list(STD.locations), list(STD.ships)


def set_family(card: str, /, **changes: Any) -> Mutation:
    def mutate(ls: Lists) -> None:
        i = STD.family_index[card]
        ls[0][i] = msgspec.structs.replace(ls[0][i], **changes)

    return mutate


def set_location(card: str, /, **changes: Any) -> Mutation:
    def mutate(ls: Lists) -> None:
        i = STD.location_index[card]
        ls[1][i] = msgspec.structs.replace(ls[1][i], **changes)

    return mutate


def set_ship(card: str, /, **changes: Any) -> Mutation:
    def mutate(ls: Lists) -> None:
        i = STD.ship_index[card]
        ls[2][i] = msgspec.structs.replace(ls[2][i], **changes)

    return mutate


def extra_families(n: int) -> Mutation:
    def mutate(ls: Lists) -> None:
        base = ls[0][-1]
        ls[0].extend(msgspec.structs.replace(base, name=f"Extra {k}") for k in range(n))

    return mutate


def keep(which: int, n: int) -> Mutation:
    def mutate(ls: Lists) -> None:
        del ls[which][n:]

    return mutate


def repeat(which: int, n: int) -> Mutation:
    def mutate(ls: Lists) -> None:
        card: Any = ls[which][-1]
        ls[which].extend(msgspec.structs.replace(card, name=f"Copy {k}") for k in range(n - len(ls[which])))

    return mutate


def starting_only(ls: Lists) -> None:
    del ls[0][12:]


def build(ls: Lists) -> CardSet:
    return CardSet(name="x", families=tuple(ls[0]), locations=tuple(ls[1]), ships=tuple(ls[2]))


def encode(ls: Lists) -> bytes:
    return msgspec.json.encode({"name": "x", "families": ls[0], "locations": ls[1], "ships": ls[2]})


SEA = "Open Sea: Aegean Sea"
CASES: dict[str, tuple[Mutation, tuple[str, ...]]] = {
    "members above 6": (set_family("Jung", members=9), ("family 'Jung'", "members")),
    "members below 1": (set_family("Jung", members=0), ("family 'Jung'", "members")),
    "members a bool": (set_family("Jung", members=True), ("family 'Jung'", "members")),
    "points above 9": (set_family("Ertel", points=10), ("family 'Ertel'", "points")),
    "points below 0": (set_family("Ertel", points=-1), ("family 'Ertel'", "points")),
    "no wants": (set_family("Jung", wants=()), ("family 'Jung'", "wants")),
    "four wants": (set_family("Jung", wants=("sports", "culture", "rest", "city")), ("family 'Jung'", "wants")),
    "wants twice": (set_family("Jung", wants=("rest", "rest")), ("family 'Jung'", "wants", "distinct")),
    "wants an unknown type": (set_family("Jung", wants=("golf",)), ("family 'Jung'", "wants")),
    "start letter E": (set_family("Jung", start="E"), ("family 'Jung'", "start")),
    "family name empty": (set_family("Jung", name=""), (f"family {STD.family_index['Jung']}", "name")),
    "family name too long": (set_family("Jung", name="J" * 41), (f"family {STD.family_index['Jung']}", "name")),
    "family name twice": (set_family("Jung", name="Ertel"), ("family 'Ertel'", "name", "two")),
    "a letter short": (set_family("Brandt", start=None), ("families", "start 'B'", "not 2")),
    "a letter long": (set_family("Jung", start="A"), ("families", "start 'A'", "not 4")),
    "no other families": (starting_only, ("families", "besides", "not 0")),
    "53 other families": (extra_families(5), ("families", "besides", "not 53")),
    "no locations": (keep(1, 0), ("locations", "not 0")),
    "65 locations": (repeat(1, 65), ("locations", "not 65")),
    "location kind": (set_location("Invergordon", kind="river"), ("location 'Invergordon'", "kind")),
    "shore without region": (set_location("Invergordon", region=None), ("location 'Invergordon'", "region")),
    "unknown region": (set_location("Invergordon", region="pacific"), ("location 'Invergordon'", "region")),
    "shore without bottom": (set_location("Invergordon", bottom=None), ("location 'Invergordon'", "bottom")),
    "top not an activity": (set_location("Invergordon", top=None), ("location 'Invergordon'", "top")),
    "top capacity 4": (
        set_location("Invergordon", top=Activity(type="country", capacity=4)),
        ("location 'Invergordon'", "top.capacity"),
    ),
    "top capacity 0": (
        set_location("Invergordon", top=Activity(type="country", capacity=0)),
        ("location 'Invergordon'", "top.capacity"),
    ),
    "top type": (
        set_location("Invergordon", top=Activity(type="golf", capacity=2)),  # type: ignore[arg-type]
        ("location 'Invergordon'", "top.type"),
    ),
    "bottom capacity": (
        set_location("Invergordon", bottom=Activity(type="culture", capacity=4)),
        ("location 'Invergordon'", "bottom.capacity"),
    ),
    "sea with region": (set_location(SEA, region="baltic"), (f"location {SEA!r}", "region")),
    "sea with bottom": (
        set_location(SEA, bottom=Activity(type="rest", capacity=1)),
        (f"location {SEA!r}", "bottom"),
    ),
    "location name twice": (set_location(SEA, name="Invergordon"), ("location 'Invergordon'", "name", "two")),
    "location name empty": (set_location(SEA, name=""), (f"location {STD.location_index[SEA]}", "name")),
    "no ship cards": (keep(2, 0), ("ships", "not 0")),
    "97 ship cards": (repeat(2, 97), ("ships", "not 97")),
    "ship kind": (set_ship("Theater", kind="deck"), ("ship 'Theater'", "kind")),
    "ship capacity": (
        set_ship("Theater", activity=Activity(type="culture", capacity=4)),
        ("ship 'Theater'", "activity.capacity"),
    ),
    "ship type": (
        set_ship("Theater", activity=Activity(type="opera", capacity=3)),  # type: ignore[arg-type]
        ("ship 'Theater'", "activity.type"),
    ),
    "ship activity missing": (set_ship("Theater", activity=None), ("ship 'Theater'", "activity")),
    "ship name twice": (set_ship("Theater", name="Bingo"), ("ship 'Bingo'", "name", "two")),
    "ship name too long": (set_ship("Theater", name="T" * 41), (f"ship {STD.ship_index['Theater']}", "name")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_card_set_built_in_python_is_checked(case: str) -> None:
    """msgspec checks no field of a set built in Python: __post_init__ does, naming the card."""
    mutate, fragments = CASES[case]
    ls = lists()
    mutate(ls)
    with pytest.raises(InvalidOptionError) as info:
        build(ls)
    for fragment in fragments:
        assert fragment in str(info.value)


@pytest.mark.parametrize("case", list(CASES))
def test_a_card_set_from_json_is_checked(case: str) -> None:
    mutate, fragments = CASES[case]
    ls = lists()
    mutate(ls)
    with pytest.raises(InvalidOptionError) as info:
        CardSet.from_json(encode(ls))
    for fragment in fragments:
        assert fragment in str(info.value)


def test_the_unchanged_lists_pass() -> None:
    assert build(lists()).packed() == STD.packed()
    assert CardSet.from_json(encode(lists())).digest == STD.digest


@pytest.mark.parametrize(
    ("changes", "fragments"),
    [
        ({"name": 3}, ("card set", "name")),
        ({"description": None}, ("card set", "description")),
        ({"provenance": {"a": 1}}, ("card set", "provenance")),
        ({"families": "Jung"}, ("card set", "families")),
        ({"locations": None}, ("card set", "locations")),
        ({"ships": (*STD.ships[:-1], "a ship")}, ("card set", "ships[71]")),
        ({"families": (*STD.families[:-1], STD.locations[0])}, ("card set", "families[59]")),
    ],
)
def test_a_card_sets_own_fields_are_checked(changes: dict[str, Any], fragments: tuple[str, ...]) -> None:
    kwargs: dict[str, Any] = {
        "name": "x",
        "families": STD.families,
        "locations": STD.locations,
        "ships": STD.ships,
        **changes,
    }
    with pytest.raises(InvalidOptionError) as info:
        CardSet(**kwargs)
    for fragment in fragments:
        assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b"{", "invalid card set"),
        (b"[]", "invalid card set"),
        (b'{"name": "x"}', "families"),
    ],
)
def test_malformed_json_is_refused(raw: bytes, fragment: str) -> None:
    with pytest.raises(InvalidOptionError, match=fragment):
        CardSet.from_json(raw)


def test_unknown_fields_are_refused() -> None:
    data = msgspec.to_builtins(STD)
    data["colour"] = "red"
    with pytest.raises(InvalidOptionError, match="colour"):
        CardSet.from_json(msgspec.json.encode(data))
    data = msgspec.to_builtins(STD)
    data["families"][STD.family_index["Jung"]]["age"] = 40
    with pytest.raises(InvalidOptionError, match=r"family 'Jung'.*age"):
        CardSet.from_json(msgspec.json.encode(data))


def test_a_missing_file_is_an_invalid_option(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError, match="cannot read card set"):
        CardSet.from_file(tmp_path / "nope.json")


# ---------------------------------------------------------------- JSON, custom sets, packing


def test_json_round_trip(tmp_path: Path) -> None:
    again = CardSet.from_json(STD.to_json())
    assert again == STD
    assert again.digest == STD.digest
    assert again.packed() == STD.packed()
    path = tmp_path / "mine.json"
    path.write_bytes(STD.to_json())
    assert CardSet.from_file(str(path)) == STD
    assert CardSet.standard() is STD  # cached


SMALL = {
    "name": "small",
    "families": [
        *(
            {"name": f"{letter}{k}", "members": 1, "points": 0, "wants": [t], "start": letter}
            for letter in "ABCD"
            for k, t in enumerate(("sports", "beach", "rest"))
        ),
        {"name": "Solo", "members": 1, "points": 0, "wants": ["city"]},
        {"name": "Big", "members": 6, "points": 9, "wants": ["culture", "country", "sports"]},
        {"name": "Odd", "members": 2, "points": 5, "wants": ["beach"], "start": None},
    ],
    "locations": [
        {"name": "Nowhere", "kind": "sea", "top": {"type": "beach", "capacity": 3}},
        {
            "name": "Somewhere",
            "kind": "shore",
            "region": "arctic",
            "top": {"type": "sports", "capacity": 1},
            "bottom": {"type": "city", "capacity": 3},
        },
    ],
    "ships": [
        {"name": "Raft", "kind": "activity", "activity": {"type": "country", "capacity": 1}},
        {"name": "Deck", "kind": "addition", "activity": {"type": "rest", "capacity": 3}},
        {"name": "Bar", "kind": "activity", "activity": {"type": "culture", "capacity": 2}},
    ],
}


def test_a_small_odd_custom_set_loads_and_packs() -> None:
    """C10 data is replaceable: the engine's limits, not the standard set's shape, apply."""
    cards = CardSet.from_json(json.dumps(SMALL))
    assert (len(cards.families), len(cards.locations), len(cards.ships)) == (15, 2, 3)
    families, locations, ships = cards.packed()
    assert families[0] == (1, 0, 0b000001, 0)
    assert families[4] == (1, 0, 0b100000, 1)
    assert families[12] == (1, 0, 0b001000, -1)
    assert families[13] == (6, 9, 0b010011, -1)
    assert families[14] == (2, 5, 0b100000, -1)
    assert locations == ((1, -1, 5, 3, -1, 0), (0, 3, 0, 1, 3, 3))
    assert ships == ((0, 4, 1), (1, 2, 3), (0, 1, 2))
    assert cards.family_index["Big"] == 13
    assert cards.location_index == {"Nowhere": 0, "Somewhere": 1}
    assert cards.ship_index["Bar"] == 2
    assert cards.description == "" and cards.provenance == {}
    assert CardSet.from_json(cards.to_json()) == cards


def test_the_largest_set_loads() -> None:
    ls = lists()
    extra_families(4)(ls)
    repeat(1, 64)(ls)
    repeat(2, 96)(ls)
    cards = build(ls)
    assert (len(cards.families), len(cards.locations), len(cards.ships)) == (64, 64, 96)
    assert CardSet.from_json(cards.to_json()) == cards


def test_packed_standard_cards() -> None:
    families, locations, ships = STD.packed()
    assert len(families) == 60 and len(locations) == 54 and len(ships) == 72
    assert families[STD.family_index["Adler"]] == (3, 3, 0b001001, 0)  # sports, city; letter A
    assert families[STD.family_index["Jung"]] == (3, 3, 0b000110, -1)
    assert families[STD.family_index["Ertel"]] == (4, 5, 0b010100, -1)
    assert locations[STD.location_index["Invergordon"]] == (0, 4, 4, 2, 1, 2)
    assert locations[STD.location_index[SEA]] == (1, -1, 0, 1, -1, 0)
    assert ships[STD.ship_index["Theater"]] == (1, 1, 3)
    assert ships[STD.ship_index["Cooking Class"]] == (0, 2, 2)
    for members, points, mask, start in families:
        assert 1 <= members <= 6 and 0 <= points <= 9 and 1 <= mask <= 63 and -1 <= start <= 3
    assert sum(start == k for *_, start in families for k in range(4)) == 12


def test_the_digest_follows_the_cards_only() -> None:
    assert len(STD.digest) == 16
    int(STD.digest, 16)
    renamed = msgspec.structs.replace(STD, name="other", description="d", provenance={"a": "b"})
    assert renamed.digest == STD.digest
    ls = lists()
    set_ship("Theater", activity=Activity(type="culture", capacity=2))(ls)
    assert build(ls).digest != STD.digest
    ls = lists()
    ls[0][12], ls[0][13] = ls[0][13], ls[0][12]  # the same cards, other ids
    assert build(ls).digest != STD.digest
    ls = lists()
    set_location("Invergordon", name="Inverness")(ls)
    assert build(ls).digest != STD.digest


# Card files that are not regular files, or are too large: tests/test_component_files.py
# (the reader every game with a component file shares).
