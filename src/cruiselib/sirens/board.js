// Sirens in Sight's board on the cruiselib web page (docs/web.md): five ship cards between
// the two seats' sides, drawn from a seat's view alone.
"use strict";

(() => {
  const { el, panel, table, seatLabel, COLORS } = cruiselib;

  function card(c, extra) {
    const classes = ["card", `emblem-${c.emblem}`];
    if (c.crew) classes.push("crew");
    return el(
      "span",
      { class: classes.join(" "), title: `${c.value} · ${c.emblem}${c.crew ? " · crew" : ""}` },
      c.crew ? `${c.value}⚓` : c.value,
      el("small", {}, c.emblem === "seastar" ? "star" : c.emblem),
      c.octopus !== null ? el("span", { class: "octopus", title: `seat ${c.octopus}'s octopus`, style: `background:${COLORS[c.octopus]}` }, "oct") : null,
      extra || null,
    );
  }

  function draw(v) {
    const rows = v.ships.map((ship) => {
      const state = ship.removed ? "removed" : ship.owner !== null ? `won by seat ${ship.owner}` : ship.in_play ? "" : "not in play";
      const centre = el(
        "td",
        { class: "ship" + (ship.owner !== null ? " owned" : ""), style: ship.owner !== null ? `border-color:${COLORS[ship.owner]}` : "" },
        el("div", { class: "ship-value" }, ship.value),
        ship.rum ? el("div", { class: "rum" }, `rum ×${ship.rum}: needs ${ship.threshold}`) : el("div", { class: "muted" }, `needs ${ship.threshold}`),
        ship.crew.length ? el("div", { class: "crew-tag" }, ship.crew.join(", ")) : null,
        state ? el("div", { class: "muted" }, state) : null,
      );
      const side = (seat) =>
        el(
          "td",
          { class: `side side-${seat}` },
          el("div", { class: "cards" }, ship.sides[seat].map((c) => card(c))),
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
      el("p", { class: "phase" }, `phase ${v.phase}${v.phase === "over" ? "" : ` · seat ${v.turn_player}'s turn`} · draw pile ${v.pile_sizes.join(" / ")}`, v.passes ? ` · passes ${v.passes}` : ""),
      table([seatLabel(0), "ship", seatLabel(1)], rows, { class: "sirens-ships" }),
      panel("Your hand", el("div", { class: "cards hand" }, v.hand.length ? v.hand.map((c) => card(c)) : el("span", { class: "muted" }, "empty"))),
      v.own_pile ? panel("Your remaining cards", el("div", { class: "cards" }, v.own_pile.map((c) => card(c)))) : null,
      panel("Seats", table(["seat", "points", "hand", "rum", "octopus"], seats)),
      panel("Crew", el("ul", {}, crew), v.crew_choice ? el("p", {}, `crew choice: ships ${v.crew_choice.join(" and ")}`) : null),
      v.removed.length ? panel("Removed cards", el("div", { class: "cards" }, v.removed.map((c) => card(c)))) : null,
    );
  }

  cruiselib.registerDrawer("sirens", draw);
})();
