"""The generator of the default ship list ``data/ships.json`` (engine-authored, ruling A4).

The rulebook prints no ship data, only the system: 132 ship cards, each a regular ship
listing one to three (sea, leg) entries whose values (1…9) sum to 9, or a mail ship that
scores 1 on any leg of any sea. This script builds such a list deterministically:

1. **Shapes.** 12 mail ships, then 120 regular ships in ten rounds of the same twelve
   shapes: three single-entry ships (9), five two-entry ships and four three-entry ships,
   with the value splits listed in ``SHAPES``. Three shapes per round are *twins*: two of
   their entries lie in the same sea (on different legs), so that choosing which ship
   sails which leg is a real assignment problem (A5). That makes 250 entries.
2. **Legs.** Entries are placed one ship at a time, highest value first, each on the leg
   (of the 18 legs: Baltic 1-3, Mediterranean 1-4, Atlantic 1-5, Pacific 1-6) with the
   fewest entries so far, then the lowest value total so far, then a tie-break drawn
   from a splitmix64 stream seeded with ``SEED``. A ship never lists the same leg twice;
   a non-twin ship lists each sea at most once. Then, while it evens out the legs' value
   totals, two entries of different ships swap legs (counts stay, the rules of a ship's
   entries stay). Every leg ends with 13 or 14 entries and nearly the same value total.
3. **Names.** Ships take the names of ``REGULAR_NAMES`` and ``MAIL_NAMES`` in order
   (Rhea, the rulebook's example, is a three-sea ship).

Run ``python -m cruiselib.atlantic_star.shipgen`` to rewrite the data file; the test
suite checks that the shipped file equals :func:`generate`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cruiselib._core.rng import SPLITMIX64, mix64
from cruiselib.atlantic_star.ships import LEGS, SEAS

__all__ = ["SEED", "SHAPES", "generate", "main"]

SEED = 2001
GOLDEN, _, _, MASK64 = SPLITMIX64  # the generator's constants have one home: _core/rng.py

# (values, twin) per shape of one round of twelve regular ships.
SHAPES: tuple[tuple[tuple[int, ...], bool], ...] = (
    ((9,), False),
    ((7, 2), False),
    ((5, 3, 1), False),
    ((6, 3), False),
    ((9,), False),
    ((4, 3, 2), True),
    ((5, 4), False),
    ((8, 1), True),
    ((3, 3, 3), False),
    ((9,), False),
    ((6, 3), True),
    ((4, 4, 1), False),
)
# Value splits that vary from round to round, so that not every round is the same.
TRIPLE_SPLITS = ((5, 3, 1), (4, 3, 2), (3, 3, 3), (4, 4, 1), (6, 2, 1), (5, 2, 2), (7, 1, 1))
DOUBLE_SPLITS = ((7, 2), (6, 3), (5, 4), (8, 1), (6, 3), (5, 4))

REGULAR_NAMES = (
    "Aurora",
    "Hera",
    "Rhea",
    "Athena",
    "Juno",
    "Minerva",
    "Vesta",
    "Ceres",
    "Diana",
    "Flora",
    "Iris",
    "Nike",
    "Selene",
    "Helios",
    "Eos",
    "Gaia",
    "Thetis",
    "Tethys",
    "Oceanus",
    "Nereus",
    "Triton",
    "Proteus",
    "Poseidon",
    "Neptune",
    "Amphitrite",
    "Galatea",
    "Calypso",
    "Circe",
    "Penelope",
    "Odysseus",
    "Achilles",
    "Ajax",
    "Hector",
    "Priam",
    "Cassandra",
    "Andromache",
    "Electra",
    "Antigone",
    "Ariadne",
    "Theseus",
    "Perseus",
    "Andromeda",
    "Cassiopeia",
    "Orion",
    "Sirius",
    "Vega",
    "Altair",
    "Deneb",
    "Rigel",
    "Capella",
    "Arcturus",
    "Polaris",
    "Canopus",
    "Aldebaran",
    "Antares",
    "Regulus",
    "Spica",
    "Castor",
    "Pollux",
    "Atlas",
    "Hyperion",
    "Titania",
    "Oberon",
    "Ariel",
    "Miranda",
    "Juliet",
    "Portia",
    "Ophelia",
    "Rosalind",
    "Viola",
    "Imogen",
    "Cordelia",
    "Beatrice",
    "Isolde",
    "Guinevere",
    "Morgana",
    "Vivienne",
    "Lancelot",
    "Galahad",
    "Percival",
    "Tristan",
    "Gawain",
    "Arthur",
    "Merlin",
    "Avalon",
    "Camelot",
    "Lyonesse",
    "Atlantis",
    "Hesperia",
    "Arcadia",
    "Elysium",
    "Olympia",
    "Corinthia",
    "Bohemia",
    "Carinthia",
    "Gallia",
    "Britannia",
    "Hibernia",
    "Caledonia",
    "Cambria",
    "Scandia",
    "Helvetia",
    "Iberia",
    "Dalmatia",
    "Moravia",
    "Silesia",
    "Livonia",
    "Pomerania",
    "Saxonia",
    "Batavia",
    "Frisia",
    "Numidia",
    "Lydia",
    "Phrygia",
    "Ionia",
    "Thessalia",
    "Boreas",
    "Zephyr",
    "Notus",
    "Eurus",
)
MAIL_NAMES = (
    "Mercury",
    "Hermes",
    "Courier",
    "Herald",
    "Messenger",
    "Dispatch",
    "Postillion",
    "Express",
    "Royal Packet",
    "Swallow",
    "Relay",
    "Tidings",
)


class _Stream:
    def __init__(self, seed: int) -> None:
        self.state = int(mix64(seed & MASK64))

    def next(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return int(mix64(self.state))


def _shapes() -> list[tuple[tuple[int, ...], bool]]:
    out = []
    for r in range(10):
        for i, (values, twin) in enumerate(SHAPES):
            if len(values) == 3:
                values = TRIPLE_SPLITS[(r * 4 + i) % len(TRIPLE_SPLITS)]
            elif len(values) == 2:
                values = DOUBLE_SPLITS[(r * 5 + i) % len(DOUBLE_SPLITS)]
            out.append((values, twin))
    return out


def generate() -> dict[str, Any]:
    """The default ship list as a JSON-ready dict (deterministic)."""
    if len(set(REGULAR_NAMES)) != 120 or len(set(MAIL_NAMES)) != 12:
        raise ValueError("the generator needs 120 regular and 12 mail names, all different")
    if set(MAIL_NAMES) & set(REGULAR_NAMES):
        raise ValueError("mail and regular ship names overlap")
    legs = [(s, leg) for s in range(4) for leg in range(LEGS[s])]
    count = dict.fromkeys(legs, 0)
    total = dict.fromkeys(legs, 0)
    stream = _Stream(SEED)
    shapes = _shapes()
    # Step 2a: twins first (they are the most constrained), then by highest value.
    order = sorted(range(len(shapes)), key=lambda i: (not shapes[i][1], -max(shapes[i][0]), i))
    placed: dict[int, list[list[int]]] = {}
    for idx in order:
        values, twin = shapes[idx]
        entries: list[list[int]] = []
        for j, value in enumerate(sorted(values, reverse=True)):
            used_seas = {e[0] for e in entries}
            if twin and j == 1:
                options = [
                    (s, leg) for (s, leg) in legs if s == entries[0][0] and leg != entries[0][1]
                ]
            else:
                options = [(s, leg) for (s, leg) in legs if s not in used_seas]
            ties = {o: stream.next() for o in options}
            s, leg = min(options, key=lambda o: (count[o], total[o], ties[o]))
            count[(s, leg)] += 1
            total[(s, leg)] += value
            entries.append([s, leg, value])
        placed[idx] = entries
    # Step 2b: swap the legs of two entries (counts stay) while that evens the value totals.
    flat = [(i, j) for i in sorted(placed) for j in range(len(placed[i]))]

    def fits(i: int) -> bool:
        ent = placed[i]
        seas = {e[0] for e in ent}
        return len({(e[0], e[1]) for e in ent}) == len(ent) and len(seas) == len(ent) - (
            1 if shapes[i][1] else 0
        )

    improved = True
    while improved:
        improved = False
        for a in range(len(flat)):
            for b in range(a + 1, len(flat)):
                (i, j), (k, m) = flat[a], flat[b]
                ea, eb = placed[i][j], placed[k][m]
                la, lb = (ea[0], ea[1]), (eb[0], eb[1])
                if la == lb or i == k or ea[2] == eb[2]:
                    continue
                d = ea[2] - eb[2]
                before = (total[la] - 0) ** 2 + total[lb] ** 2
                after = (total[la] - d) ** 2 + (total[lb] + d) ** 2
                if after >= before:
                    continue
                ea[0], ea[1], eb[0], eb[1] = lb[0], lb[1], la[0], la[1]
                if fits(i) and fits(k):
                    total[la] -= d
                    total[lb] += d
                    improved = True
                else:
                    ea[0], ea[1], eb[0], eb[1] = la[0], la[1], lb[0], lb[1]
    ships: list[dict[str, Any]] = []
    for idx, name in enumerate(REGULAR_NAMES):
        entries = sorted(placed[idx])
        ships.append(
            {
                "name": name,
                "mail": False,
                "legs": [{"sea": SEAS[s], "leg": leg + 1, "value": v} for s, leg, v in entries],
            }
        )
    for name in MAIL_NAMES:
        ships.append({"name": name, "mail": True, "legs": []})
    return {
        "name": "standard",
        "description": (
            "Engine-authored ship list for Atlantic Star: 120 regular ships and 12 mail ships "
            "(ruling A4). The rulebook prints no ship data; this list follows the published "
            "system and is balanced so that every leg is covered about equally."
        ),
        "provenance": {
            "system": (
                "ruling A4 (published system): 1-3 (sea, leg) entries whose values 1..9 "
                "sum to 9; mail ships score 1 on any leg"
            ),
            "data": (
                "engine-authored by cruiselib.atlantic_star.shipgen "
                "(deterministic, seed 2001); not the printed cards"
            ),
        },
        "ships": ships,
    }


def render() -> str:
    """The data file's text."""
    data = generate()
    head = {k: v for k, v in data.items() if k != "ships"}
    lines = [json.dumps(head, indent=1, ensure_ascii=False)[:-2] + ",", ' "ships": [']
    ships = [json.dumps(s, ensure_ascii=False) for s in data["ships"]]
    lines += [f"  {s}," for s in ships[:-1]] + [f"  {ships[-1]}", " ]", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Write the ship list (default: the package's ``data/ships.json``)."""
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else Path(__file__).with_name("data") / "ships.json"
    path.write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main()
