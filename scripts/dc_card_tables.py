"""Print the distribution tables of a Dream Cruise card set as markdown (C10).

    PYTHONPATH=src python scripts/dc_card_tables.py                # the standard set
    PYTHONPATH=src python scripts/dc_card_tables.py my_cards.json  # any card set

The tables of the "Component data" section of the Dream Cruise docs are this script's
output for the standard set.
"""

from __future__ import annotations

import sys
from collections import Counter

from cruiselib.dream_cruise.cardgen import supply_demand
from cruiselib.dream_cruise.cards import GENERAL, REGION_NAMES, REGIONS, TYPE_NAMES, TYPES, CardSet


def row(*cells: object) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def tables(cards: CardSet) -> str:
    out: list[str] = []
    shore = [x for x in cards.locations if x.kind == "shore"]
    sea = [x for x in cards.locations if x.kind == "sea"]
    slots: Counter[tuple[str, str]] = Counter()
    for x in shore:
        slots["shore excursions", x.top.type] += x.top.capacity
        if x.bottom is not None:
            slots["shore activities", x.bottom.type] += x.bottom.capacity
    for x in sea:
        slots["sea cards", x.top.type] += x.top.capacity
    for s in cards.ships:
        slots[f"{s.kind} cards", s.activity.type] += s.activity.capacity
    sources = ("shore excursions", "shore activities", "sea cards", "activity cards", "addition cards")
    table = supply_demand(cards)
    out += [
        "Guest slots per type (sum of the capacities) against the figures of the families "
        "desiring that type; *split* divides each family's members evenly over its desires.",
        "",
        row("id", "type", *sources, "slots", "figures desiring", "split"),
        row(*["---"] * (len(sources) + 5)),
    ]
    for i, t in enumerate(TYPES):
        total, fig, share = table[t]
        out.append(row(i, TYPE_NAMES[i], *(slots[src, t] or "–" for src in sources), f"**{total}**", fig, share))
    starting = [f for f in cards.families if f.start is not None]
    others = [f for f in cards.families if f.start is None]

    def histogram(title: str, key: str, values: list[int]) -> None:
        a = Counter(getattr(f, key) if key != "wants" else len(f.wants) for f in starting)
        b = Counter(getattr(f, key) if key != "wants" else len(f.wants) for f in others)
        out.extend(["", row(title, *values), row("---", *["---"] * len(values))])
        out.append(row("starting families", *(a[v] or "–" for v in values)))
        out.append(row("other families", *(b[v] or "–" for v in values)))

    histogram("members", "members", sorted({f.members for f in cards.families}))
    histogram("points", "points", sorted({f.points for f in cards.families}))
    histogram("desired types", "wants", sorted({len(f.wants) for f in cards.families}))
    out += ["", row("families wanting", *TYPES), row("---", *["---"] * len(TYPES))]
    out.append(row("starting", *(sum(t in f.wants for f in starting) for t in TYPES)))
    out.append(row("other", *(sum(t in f.wants for f in others) for t in TYPES)))
    only_location = [f for f in others if not set(f.wants) & set(GENERAL)]
    out += ["", f"Families without a general type: {', '.join(str(f) for f in only_location) or 'none'}."]
    out += [
        "",
        row("region", "shore cards", *(f"top {t}" for t in TYPES[3:]), *(f"bottom {t}" for t in GENERAL), "ports"),
        row(*["---"] * 9),
    ]
    for r, region in enumerate(REGIONS):
        cs = [x for x in shore if x.region == region]
        tops = Counter(x.top.type for x in cs)
        bottoms = Counter(x.bottom.type for x in cs if x.bottom)
        out.append(
            row(
                REGION_NAMES[r],
                len(cs),
                *(tops[t] for t in TYPES[3:]),
                *(bottoms[t] for t in GENERAL),
                ", ".join(x.name for x in cs),
            )
        )
    sea_tops = Counter(x.top.type for x in sea)
    tops_by_type = (f"top {sea_tops[t]}" for t in GENERAL)
    out.append(row("sea cards (wild)", len(sea), "–", "–", "–", *tops_by_type, "Open Sea: …"))
    caps = Counter((s.kind, s.activity.type, s.activity.capacity) for s in cards.ships)
    out += ["", row("ship cards", *(f"{t} 1/2/3" for t in GENERAL)), row("---", *["---"] * 3)]
    for kind in ("activity", "addition"):
        out.append(row(kind, *("/".join(str(caps[kind, t, c]) for c in (1, 2, 3)) for t in GENERAL)))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    cards = CardSet.from_file(args[0]) if args else CardSet.standard()
    print(tables(cards))


if __name__ == "__main__":
    main()
