// Sirens in Sight's board on the cruiselib web page (docs/web.md): five ship cards between
// the two seats' sides, drawn from a seat's view alone. Every object a move acts on carries
// its key (data-object): a hand card "hand:<face>", a card in play "card:<face>:<ship>:<seat>",
// a ship's side "side:<ship>:<seat>", a ship card "ship:<ship>", a card of the own set
// "pick:<face>", and "end" and "pass"; move() maps a legal move's text to them.
"use strict";

(() => {
  const { el, panel, table, seatLabel, COLORS } = cruiselib;

  // A card's face as the moves name it: its value, and ⚓ when it moves the crew.
  const face = (c) => `${c.value}${c.crew ? "⚓" : ""}`;

  function card(c, object) {
    const classes = ["card", `emblem-${c.emblem}`];
    if (c.crew) classes.push("crew");
    return el(
      "span",
      { class: classes.join(" "), title: `${c.value} · ${c.emblem}${c.crew ? " · crew" : ""}`, "data-object": object || null },
      c.crew ? `${c.value}⚓` : c.value,
      el("small", {}, c.emblem === "seastar" ? "star" : c.emblem),
      c.octopus !== null ? el("span", { class: "octopus", title: `seat ${c.octopus}'s octopus`, style: `background:${COLORS[c.octopus]}` }, "oct") : null,
    );
  }

  function draw(v) {
    const rows = v.ships.map((ship) => {
      const state = ship.removed ? "removed" : ship.owner !== null ? `won by seat ${ship.owner}` : ship.in_play ? "" : "not in play";
      const centre = el(
        "td",
        {
          class: "ship" + (ship.owner !== null ? " owned" : ""),
          style: ship.owner !== null ? `border-color:${COLORS[ship.owner]}` : "",
          "data-object": `ship:${ship.value}`,
        },
        el("div", { class: "ship-value" }, ship.value),
        ship.rum ? el("div", { class: "rum" }, `rum ×${ship.rum}: needs ${ship.threshold}`) : el("div", { class: "muted" }, `needs ${ship.threshold}`),
        ship.crew.length ? el("div", { class: "crew-tag" }, ship.crew.join(", ")) : null,
        state ? el("div", { class: "muted" }, state) : null,
      );
      const side = (seat) =>
        el(
          "td",
          { class: `side side-${seat}`, "data-object": `side:${ship.value}:${seat}` },
          el("div", { class: "cards" }, ship.sides[seat].map((c) => card(c, `card:${face(c)}:${ship.value}:${seat}`))),
          el("div", { class: "total" }, `= ${ship.totals[seat]}`),
        );
      return el("tr", {}, side(0), centre, side(1));
    });
    const seats = [0, 1].map((p) =>
      el(
        "tr",
        {},
        el("td", {}, seatLabel(p)),
        el("td", { class: "num" }, v.points[p]),
        el("td", { class: "num" }, v.hand_sizes[p]),
        el("td", {}, v.rum_held[p] ? "rum mug ready" : "rum mug used"),
        el("td", {}, v.octopus_held[p] ? "octopus ready" : "octopus placed"),
      ),
    );
    const crew = v.crew.map((c) =>
      el("li", {}, `${c.name}: `, c.removed ? "removed" : c.owner !== null ? `won by seat ${c.owner}` : c.ship !== null ? `on ship ${c.ship}` : "waiting"),
    );
    return el(
      "div",
      {},
      el("p", { class: "board-actions" }, el("span", { class: "obj-button", "data-object": "end" }, "end turn"), el("span", { class: "obj-button", "data-object": "pass" }, "pass")),
      el("p", { class: "phase" }, `${v.phase === "over" ? "" : `seat ${v.turn_player}'s turn: `}${PHASES[v.phase] || v.phase} · draw pile ${v.pile_sizes.join(" / ")}`, v.passes ? ` · passes ${v.passes}` : ""),
      table([seatLabel(0), "ship", seatLabel(1)], rows, { class: "sirens-ships" }),
      panel("Your hand", el("div", { class: "cards hand" }, v.hand.length ? v.hand.map((c) => card(c, `hand:${face(c)}`)) : el("span", { class: "muted" }, "empty"))),
      v.own_pile ? panel("Your remaining cards", el("div", { class: "cards" }, v.own_pile.map((c) => card(c, `pick:${face(c)}`)))) : null,
      panel("Seats", table(["seat", "points", "hand", "rum", "octopus"], seats)),
      panel("Crew", el("ul", {}, crew), v.crew_choice ? el("p", {}, `crew choice: ships ${v.crew_choice.join(" and ")}`) : null),
      v.removed.length ? panel("Removed cards", el("div", { class: "cards" }, v.removed.map((c) => card(c)))) : null,
    );
  }

  // Each step of a turn (S4, S5, S9) as what the seat does in it.
  const PHASES = {
    pick: "pick a starting card from your set",
    main: "play a card or move one with the octopus (the rum mug too, once a game)",
    after: "end the turn (or use the rum mug first)",
    crew: "move the crew token of the ship just played on",
    over: "the game is over",
  };

  // The objects each kind of move acts on, read from its text (src/cruiselib/sirens/moves.py).
  function move(text) {
    let m = /^play (\S+) to ship (\d+), seat (\d)'s side$/.exec(text);
    if (m) return { kind: "play", objects: [`hand:${m[1]}`, `side:${m[2]}:${m[3]}`] };
    m = /^octopus: move (\S+) from ship (\d+)\/seat (\d) to ship (\d+)\/seat (\d)$/.exec(text);
    if (m) return { kind: "octopus", objects: [`card:${m[1]}:${m[2]}:${m[3]}`, `side:${m[4]}:${m[5]}`] };
    m = /^rum on ship (\d+)$/.exec(text);
    if (m) return { kind: "rum", objects: [`ship:${m[1]}`] };
    m = /^move crew to ship (\d+)$/.exec(text);
    if (m) return { kind: "crew", objects: [`ship:${m[1]}`] };
    m = /^pick (\S+)$/.exec(text);
    if (m) return { kind: "pick", objects: [`pick:${m[1]}`] };
    if (text === "end turn") return { kind: "end", objects: ["end"] };
    if (text === "pass") return { kind: "pass", objects: ["pass"] };
    return null;
  }

  const kinds = {
    play: "Play a card from your hand to one side of a ship (click the card, then the side); then you draw.",
    octopus: "Once a game: move a card already in play to another side (click the card, then the side).",
    rum: "Once a game: put your rum mug on a ship; the total it needs rises by 3.",
    crew: "You own the side just played on: move that ship's crew token to another ship.",
    end: "End your turn, keeping the rum mug for later.",
    pass: "No card to play and no octopus move: pass.",
    pick: "Bow to rear: choose the card you start with from your own set.",
  };

  cruiselib.registerDrawer("sirens", draw, {
    move,
    kinds,
    winners: (v, winners) => (winners.length ? null : `A draw: ${v.points[0]} points each`),
  });
})();
