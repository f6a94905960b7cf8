"""The generator of the default card set ``data/cards.json`` (engine-authored, ruling C10).

The rulebook lists the components (60 families, 54 location cards, 72 ship cards) and the
system of the cards, and names a few of them in its examples, but prints no card list. This
script builds a set that follows C10 deterministically (no randomness; every count below is
a fixed rule):

1. **Families (60).** 12 starting families, three per letter A-D, each 3 members and
   3 points (published). Within a letter the three want {sports, city}, {culture, beach} and
   {rest, country}, so between them they cover all six types; the four letters are alike,
   so no seat is favoured (C21). The 48 others are the 16 shapes of ``PATTERNS`` (members,
   general types, location types), each taken in three *rotations*: rotation ``r`` moves
   every general type ``r`` steps along sports → culture → rest and every location type
   ``r`` steps along city → country → beach. So each general type is wanted exactly as
   often, by as many figures, as each other, and likewise each location type. Members run
   2-6 (9, 12, 12, 9 and 6 families of 2, 3, 4, 5 and 6 members), desires 1-3 types
   (15, 18 and 15 families), and points are ``3 * members // 2 - (desires - 1)``: rising
   with members, falling with breadth of desires, 1-9 (the starting families' published
   3 points fit the same rule). Every family wants a general type except the three
   2-member shape-1 families, which want two location types: figures on ship cards need
   general types, so location-only families are rare and small. The rulebook's families
   are rotation-0 cards: Johnson (3 members, sports), Jung (3 members, culture and rest)
   and Ertel (4 members, rest and country).
2. **Locations (54).** 36 shore cards, six per region: two each with a city, a country and
   a beach excursion on top (the ports of ``PORTS``), for 2 guests except one card per
   region for 1 guest (two cards per type in all). The general activity below cycles so
   that each region offers each general type twice and each (excursion, activity) pair
   occurs four times; its capacity cycles 1, 3, 2 through each general type's cards (four
   cards each of 1, 2 and 3 guests per type). Invergordon (North Sea and Irish Sea:
   country for 2, culture for 2) is the rulebook's example: its shore activity is
   "Loch Ness". 18 sea cards (``SEAS``), each a general activity for 1 guest, six per
   type, and two activity-card slots.
3. **Ship cards (72).** 48 activity cards (16 per general type, capacities cycling 2, 1,
   2, 3: four of 1, eight of 2, four of 3 guests) and 24 additions (8 per general type,
   capacities cycling 2, 3, 2, 1: two of 1, four of 2, two of 3), named from
   ``ACTIVITY_NAMES`` and ``ADDITION_NAMES`` (with the rulebook's Maritime Museum, Legs
   Bums & Tums, Indoor Cycling, Game Night, Bingo, Cooking Class (rest for 2), Sun Deck
   and Theater (culture for 3)).

**Balance** (:func:`supply_demand`): every general type has 78 guest slots on locations
and ship cards (24 shore activities, 6 sea cards, 48 on ship cards) against 100 figures of
families desiring it (54.5 if each family's members are split evenly over its desires);
every location type has 22 slots on shore excursions against 44 such figures (18.5 split).
Additions are used again and again, so the general types are better supplied than the
slot counts say.
Location types are scarcer by the rulebook's design (only shore tops carry them, 1-2
guests each), so families want them less: they are never a family's only desire
except in the three small location-only families.

Run ``python -m cruiselib.dream_cruise.cardgen`` to rewrite the data file; the test
suite checks that the shipped file equals :func:`render`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cruiselib.dream_cruise.cards import GENERAL, LETTERS, REGIONS, TYPES, CardSet

__all__ = ["PATTERNS", "generate", "main", "render", "supply_demand"]

LOCATION_TYPES = TYPES[3:]

# Starting families by letter (C10: 3 members, 3 points) and the desires of the three
# families of every letter: between them all six types, one general and one location each.
STARTING_NAMES: dict[str, tuple[str, str, str]] = {
    "A": ("Adler", "Albers", "Arendt"),
    "B": ("Baumann", "Berger", "Brandt"),
    "C": ("Castell", "Claassen", "Conrad"),
    "D": ("Decker", "Diehl", "Dorn"),
}
STARTING_WANTS = (("sports", "city"), ("culture", "beach"), ("rest", "country"))

# The 16 shapes of the other families: (members, general types, location types), types as
# offsets 0..2 into sports/culture/rest and city/country/beach, before rotation.
PATTERNS: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...] = (
    (2, (), (0, 2)),
    (2, (0,), ()),
    (2, (1, 2), (1,)),
    (3, (0,), ()),
    (3, (1, 2), ()),
    (3, (0,), (0,)),
    (3, (2,), (1, 2)),
    (4, (1,), ()),
    (4, (2,), (1,)),
    (4, (0, 1), (2,)),
    (4, (0, 2), (1,)),
    (5, (2,), ()),
    (5, (0, 2), ()),
    (5, (1, 2), (0,)),
    (6, (0,), ()),
    (6, (0, 1), ()),
)
# The rulebook's families, by (pattern, rotation).
NAMED_FAMILIES = {(3, 0): "Johnson", (4, 0): "Jung", (8, 0): "Ertel"}
FAMILY_NAMES = (
    "Müller",
    "Schmidt",
    "Fischer",
    "Weber",
    "Wagner",
    "Becker",
    "Hoffmann",
    "Schulz",
    "Koch",
    "Richter",
    "Klein",
    "Wolf",
    "Smith",
    "Brown",
    "Wilson",
    "Taylor",
    "Evans",
    "Walker",
    "Murphy",
    "Kelly",
    "O'Brien",
    "Martin",
    "Bernard",
    "Moreau",
    "Laurent",
    "García",
    "Fernández",
    "López",
    "Rossi",
    "Russo",
    "Ferrari",
    "Esposito",
    "Silva",
    "Santos",
    "Pereira",
    "Jansen",
    "de Vries",
    "Peeters",
    "Nielsen",
    "Hansen",
    "Larsen",
    "Lindqvist",
    "Virtanen",
    "Nowak",
    "Kowalski",
)

# Shore cards: per region, (city, country, beach) excursions, two ports each.
PORTS: dict[str, tuple[tuple[str, str], tuple[str, str], tuple[str, str]]] = {
    "east_med": (("Piraeus", "Istanbul"), ("Katakolon", "Kusadasi"), ("Mykonos", "Santorini")),
    "west_med": (("Barcelona", "Naples"), ("Livorno", "Ajaccio"), ("Palma de Mallorca", "Ibiza")),
    "baltic": (("Stockholm", "Tallinn"), ("Visby", "Klaipėda"), ("Warnemünde", "Gdynia")),
    "arctic": (("Tromsø", "Hammerfest"), ("Longyearbyen", "Honningsvåg"), ("Akureyri", "Kirkenes")),
    "north_sea": (("Amsterdam", "Dublin"), ("Invergordon", "Bergen"), ("Skagen", "Zeebrugge")),
    "atlantic": (("Lisbon", "Reykjavík"), ("Ponta Delgada", "Funchal"), ("Las Palmas", "Cádiz")),
}
BOTTOM_CAPACITIES = (1, 3, 2)  # cycled through each general type's shore activities
SEAS = (
    "Aegean Sea",
    "Ionian Sea",
    "Adriatic Sea",
    "Tyrrhenian Sea",
    "Ligurian Sea",
    "Balearic Sea",
    "Gulf of Bothnia",
    "Gulf of Finland",
    "Barents Sea",
    "Norwegian Sea",
    "Greenland Sea",
    "Irish Sea",
    "Skagerrak",
    "Bay of Biscay",
    "Celtic Sea",
    "Sargasso Sea",
    "Levantine Sea",
    "Alboran Sea",
)

ACTIVITY_CAPACITIES = (2, 1, 2, 3)  # cycled through each type's 16 activity cards
ADDITION_CAPACITIES = (2, 3, 2, 1)  # cycled through each type's 8 additions
ACTIVITY_NAMES: dict[str, tuple[str, ...]] = {
    "sports": (
        "Legs Bums & Tums",
        "Indoor Cycling",
        "Aqua Aerobics",
        "Sunrise Yoga",
        "Pilates",
        "Table Tennis",
        "Shuffleboard",
        "Deck Volleyball",
        "Zumba",
        "Mini Golf",
        "Basketball Match",
        "Snorkelling Lesson",
        "Climbing Lesson",
        "Boxing Workout",
        "Dance Workout",
        "Deck Jogging",
    ),
    "culture": (
        "Maritime Museum",
        "Game Night",
        "Bingo",
        "Magic Show",
        "Comedy Night",
        "Jazz Concert",
        "Piano Recital",
        "Quiz Show",
        "Karaoke",
        "Art Auction",
        "Port Lecture",
        "Movie Night",
        "Talent Show",
        "Murder Mystery Dinner",
        "Musical Revue",
        "Photo Workshop",
    ),
    "rest": (
        "Cooking Class",
        "Massage",
        "Spa Afternoon",
        "Sauna",
        "Wine Tasting",
        "Afternoon Tea",
        "Hot Tub",
        "Meditation",
        "Manicure",
        "Reading Hour",
        "Poolside Nap",
        "Sunset Cocktails",
        "Hair Salon",
        "Aromatherapy",
        "Chocolate Tasting",
        "Stargazing",
    ),
}
ADDITION_NAMES: dict[str, tuple[str, ...]] = {
    "sports": (
        "Fitness Center",
        "Climbing Wall",
        "Sports Court",
        "Water Slide",
        "Jogging Track",
        "Golf Simulator",
        "Surf Simulator",
        "Ice Rink",
    ),
    "culture": (
        "Casino",
        "Theater",
        "Cinema",
        "Art Gallery",
        "Nightclub",
        "Planetarium",
        "Concert Hall",
        "Arcade",
    ),
    "rest": (
        "Sun Deck",
        "Spa",
        "Whirlpool",
        "Solarium",
        "Garden Lounge",
        "Library",
        "Thermal Suite",
        "Infinity Pool",
    ),
}


def points(members: int, desires: int) -> int:
    """C10: points rise with members and fall with the breadth of desires (1..9)."""
    return 3 * members // 2 - (desires - 1)


def _families() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for letter in LETTERS:
        for name, wants in zip(STARTING_NAMES[letter], STARTING_WANTS, strict=True):
            out.append({"name": name, "members": 3, "points": 3, "wants": list(wants), "start": letter})
    names = iter(FAMILY_NAMES)
    for r in range(3):
        for p, (members, general, location) in enumerate(PATTERNS):
            types = [GENERAL[(g + r) % 3] for g in general] + [LOCATION_TYPES[(t + r) % 3] for t in location]
            types.sort(key=TYPES.index)
            name = NAMED_FAMILIES.get((p, r)) or next(names)
            out.append({"name": name, "members": members, "points": points(members, len(types)), "wants": types})
    if next(names, None) is not None:
        raise ValueError("FAMILY_NAMES has names left over")
    return out


def _locations() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    used = dict.fromkeys(GENERAL, 0)
    for r, region in enumerate(REGIONS):
        for j in range(6):
            t, h = j % 3, j // 3
            g = GENERAL[(t + h + r + 2) % 3]
            top_capacity = 1 if h == 1 and t == r % 3 else 2
            bottom_capacity = BOTTOM_CAPACITIES[used[g] % 3]
            used[g] += 1
            out.append(
                {
                    "name": PORTS[region][t][h],
                    "kind": "shore",
                    "region": region,
                    "top": {"type": LOCATION_TYPES[t], "capacity": top_capacity},
                    "bottom": {"type": g, "capacity": bottom_capacity},
                }
            )
    for i, sea in enumerate(SEAS):
        out.append({"name": f"Open Sea: {sea}", "kind": "sea", "top": {"type": GENERAL[i % 3], "capacity": 1}})
    return out


def _ships() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, names, caps in (
        ("activity", ACTIVITY_NAMES, ACTIVITY_CAPACITIES),
        ("addition", ADDITION_NAMES, ADDITION_CAPACITIES),
    ):
        for i in range(len(names["sports"])):
            for g in GENERAL:
                activity = {"type": g, "capacity": caps[i % len(caps)]}
                out.append({"name": names[g][i], "kind": kind, "activity": activity})
    return out


def generate() -> dict[str, Any]:
    """The default card set as a JSON-ready dict (deterministic)."""
    return {
        "name": "standard",
        "description": (
            "Engine-authored card set for Dream Cruise (ruling C10): 60 families (12 starting "
            "families A-D), 54 location cards (36 shore cards, 6 per region, and 18 sea cards) "
            "and 72 ship cards (48 activity cards and 24 additions). The rulebook prints no card "
            "list; this set follows its system, keeps the names of its examples (Invergordon's "
            "shore activity, culture for 2, is Loch Ness) and balances the types' supply "
            "against the families' demand."
        ),
        "provenance": {
            "system": (
                "ruling C10: activity types, card counts, members 2-6, points 1-9, 1-3 desired "
                "types, capacities; starting families 3 members and 3 points (published)"
            ),
            "data": (
                "engine-authored by cruiselib.dream_cruise.cardgen (deterministic); "
                "not the printed cards"
            ),
        },
        "families": _families(),
        "locations": _locations(),
        "ships": _ships(),
    }


def render() -> str:
    """The data file's text: the header, then one card per line."""
    data = generate()
    lists = ("families", "locations", "ships")
    head = {k: v for k, v in data.items() if k not in lists}
    lines = [json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ","]
    for n, key in enumerate(lists):
        cards = [json.dumps(c, ensure_ascii=False) for c in data[key]]
        lines += [f' "{key}": [', *(f"  {c}," for c in cards[:-1]), f"  {cards[-1]}"]
        lines.append(" ]," if n < len(lists) - 1 else " ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def supply_demand(cards: CardSet) -> Mapping[str, tuple[int, int, float]]:
    """Per type: (guest slots on location and ship cards, figures of the families desiring
    it, those figures with each family's members split evenly over its desires)."""
    slots = dict.fromkeys(TYPES, 0)
    figures = dict.fromkeys(TYPES, 0)
    share = dict.fromkeys(TYPES, 0.0)
    for loc in cards.locations:
        for act in (loc.top, loc.bottom):
            if act is not None:
                slots[act.type] += act.capacity
    for card in cards.ships:
        slots[card.activity.type] += card.activity.capacity
    for f in cards.families:
        for t in f.wants:
            figures[t] += f.members
            share[t] += f.members / len(f.wants)
    return {t: (slots[t], figures[t], round(share[t], 2)) for t in TYPES}


def main(argv: list[str] | None = None) -> None:
    """Write the card set (default: the package's ``data/cards.json``)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else Path(__file__).with_name("data") / "cards.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main()
