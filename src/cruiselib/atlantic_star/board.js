// Atlantic Star's board on the cruiselib web page (docs/web.md): the four seas with their
// plaques, the charter agency, the seats, drawn from a seat's view alone.
"use strict";

(() => {
  const { el, panel, table, seatLabel, COLORS, fmt } = cruiselib;

  function shipCard(ship, price) {
    return el(
      "div",
      { class: "ship-card" + (ship && ship.mail ? " mail" : "") },
      price !== undefined ? el("div", { class: "price" }, price ? fmt(price) : "free") : null,
      ship ? el("div", { class: "ship-name" }, ship.name) : el("div", { class: "muted" }, "empty"),
      ship ? el("div", { class: "legs" }, ship.mail ? "mail: 1 on any leg" : ship.legs.join(" · ")) : null,
    );
  }

  function draw(v) {
    const seas = v.seas.map((sea) =>
      el(
        "div",
        { class: "sea" + (sea.full ? " full" : "") },
        el("h4", {}, sea.name, el("small", {}, ` ${sea.legs} legs${sea.stars ? " · " + "★".repeat(sea.stars) : ""}${sea.full ? " · full" : ""}`)),
        sea.plaques.length
          ? el(
              "ol",
              { class: "plaques" },
              sea.plaques.map((q) =>
                el(
                  "li",
                  { style: q.seat !== null ? `border-left-color:${COLORS[q.seat]}` : "" },
                  el("b", {}, `${q.victory_points} VP`),
                  ` · value ${q.value}`,
                  q.seat !== null ? ` · seat ${q.seat}` : " · operator",
                  q.loan ? ` · loan ${fmt(q.loan)}` : "",
                  el("div", { class: "legs" }, q.ships.join(", ")),
                ),
              ),
            )
          : el("p", { class: "muted" }, "no voyage yet"),
      ),
    );
    const seats = v.money.map((money, p) =>
      el(
        "tr",
        { class: p === v.current_player ? "to-move" : "" },
        el("td", {}, seatLabel(p)),
        el("td", { class: "num" }, fmt(money)),
        el("td", { class: "num" }, v.scores[p]),
        el("td", { class: "num" }, v.hand_sizes[p]),
        el("td", { class: "num" }, v.voyages_left[p]),
        el("td", { class: "num" }, fmt(v.loans[p].reduce((a, b) => a + b, 0))),
      ),
    );
    return el(
      "div",
      {},
      el("p", { class: "phase" }, `phase ${v.phase} · pack ${v.deck_size} ships · discard ${v.discard.length} · free classes ${v.free_classes.join(", ") || "—"}`),
      el("div", { class: "seas" }, seas),
      panel("Charter agency", el("div", { class: "row" }, v.agency.map((a) => shipCard(a.ship, a.price)))),
      panel("Your ships", el("div", { class: "row" }, v.hand.length ? v.hand.map((s) => shipCard(s)) : el("span", { class: "muted" }, "none"))),
      panel("Seats", table(["seat", "marks", "VP", "hand", "voyages left", "loans"], seats)),
    );
  }

  cruiselib.registerDrawer("atlantic_star", draw);
})();
