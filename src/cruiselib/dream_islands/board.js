// Dream Islands' board on the cruiselib web page (docs/web.md): the airplane, the islands
// around the middle, each seat's pieces, drawn from a seat's view alone. The catalog
// (/catalog/dream_islands) names the missions and gives the small islands' values.
"use strict";

(() => {
  const { el, panel, table, seatLabel, COLORS } = cruiselib;

  function pips(counts) {
    const out = [];
    counts.forEach((n, seat) => {
      for (let i = 0; i < n; i++) out.push(el("span", { class: "pip", style: `background:${COLORS[seat]}`, title: `seat ${seat}` }));
    });
    return out.length ? out : [el("span", { class: "muted" }, "—")];
  }

  function draw(v, cat) {
    const missions = cat.missions || [];
    const values = cat.small_island_values || [];
    const name = (m) => `[${m}] ${missions[m] || "mission " + m}`;
    const islands = v.seats[0].islands.length;
    const places = [el("div", { class: "place airplane" }, el("div", { class: "place-name" }, "✈ airplane"), el("div", {}, pips(v.seats.map((s) => s.airplane))))];
    for (let i = 0; i < islands; i++) {
      const last = i === islands - 1 ? " ♥" : "";
      places.push(
        el("div", { class: "place island" }, el("div", { class: "place-name" }, `island ${i + 1}${last}`), el("div", {}, pips(v.seats.map((s) => s.islands[i])))),
      );
    }
    const small = v.small_islands.map((owner, i) =>
      el("span", { class: "small-island", style: owner >= 0 ? `background:${COLORS[owner]};color:#fff` : "" }, `${values[i] ?? "?"} pts${owner >= 0 ? " · seat " + owner : ""}`),
    );
    places.push(el("div", { class: "place middle" }, el("div", { class: "place-name" }, "middle"), el("div", {}, small), el("div", {}, pips(v.seats.map((s) => s.middle)))));
    const seats = v.seats.map((s) =>
      el(
        "tr",
        { class: s.seat === v.current_player ? "to-move" : "" },
        el("td", {}, seatLabel(s.seat)),
        el("td", { class: "num" }, s.score),
        el("td", { title: s.completed.map(name).join("\n") }, `${s.completed.length}/${missions.length}`),
        el("td", {}, s.covered.length ? s.covered.join(" ") : "—"),
        el("td", { class: "num" }, s.hand_size),
        el("td", { class: "num" }, s.pile_size),
        el("td", { class: "num" }, s.under),
      ),
    );
    const me = v.seats[v.player];
    return el(
      "div",
      {},
      el("p", { class: "phase" }, `round ${v.rounds + 1}${v.max_rounds ? " of " + v.max_rounds : ""} · phase ${v.phase}${v.end_triggered ? " · last round" : ""}`),
      el("div", { class: "islands" }, places),
      panel("Seats", table(["seat", "score", "missions", "shells on", "hand", "pile", "put under"], seats)),
      panel("Your missions in hand", el("ul", { class: "missions" }, v.hand.map((m) => el("li", {}, name(m))))),
      me.completed.length ? panel("Your completed missions", el("ul", { class: "missions" }, me.completed.map((m) => el("li", {}, name(m))))) : null,
      v.under_pile.length ? panel("Under your pile (drawn next)", el("ul", { class: "missions" }, v.under_pile.map((m) => el("li", {}, name(m))))) : null,
    );
  }

  cruiselib.registerDrawer("dream_islands", draw);
})();
