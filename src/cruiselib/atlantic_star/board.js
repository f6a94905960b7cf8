// Atlantic Star's board on the cruiselib web page (docs/web.md): the four seas with their
// plaques, the charter agency, the seats, drawn from a seat's view alone. Every object a
// move acts on carries its key (data-object): a sea "sea:<name>", the seat's own voyage
// there "voyage:<sea>:<0 first, 1 second>", a free star class "class:<stars>", a ship of the
// hand "hand:<name>", an agency space "agency:<price>" and the agency's refresh "refresh";
// move() maps a legal move's text to them.
"use strict";

(() => {
  const { el, panel, table, seatLabel, COLORS, fmt } = cruiselib;

  function shipCard(ship, price) {
    const key = price !== undefined ? `agency:${price}` : ship ? `hand:${ship.name}` : null;
    return el(
      "div",
      { class: "ship-card" + (ship && ship.mail ? " mail" : ""), "data-object": key },
      price !== undefined ? el("div", { class: "price" }, price ? fmt(price) : "free") : null,
      ship ? el("div", { class: "ship-name" }, ship.name) : el("div", { class: "muted" }, "empty"),
      ship ? el("div", { class: "legs" }, ship.mail ? "mail: 1 on any leg" : ship.legs.join(" · ")) : null,
    );
  }

  // A turn (A9): a loan first if any, refreshes, then one charter or one voyage.
  function turnText(v) {
    if (v.phase === "over") return "all voyages staged";
    const who = v.current_player === v.player ? "your turn" : `seat ${v.current_player}'s turn`;
    return `${who}: ${v.phase === "loan" ? "a loan first if you like, then " : ""}charter a ship or stage a voyage`;
  }

  function draw(v) {
    // The seat's own voyages in a sea, in the order loans name them (first, second).
    const ownVoyage = (sea, q) => sea.plaques.filter((x) => x.seat === v.player).indexOf(q);
    const seas = v.seas.map((sea) =>
      el(
        "div",
        { class: "sea" + (sea.full ? " full" : ""), "data-object": `sea:${sea.name}` },
        el("h4", {}, sea.name, el("small", {}, ` ${sea.legs} legs${sea.stars ? " · " + "★".repeat(sea.stars) : ""}${sea.full ? " · full" : ""}`)),
        sea.plaques.length
          ? el(
              "ol",
              { class: "plaques" },
              sea.plaques.map((q) =>
                el(
                  "li",
                  {
                    style: q.seat !== null ? `border-left-color:${COLORS[q.seat]}` : "",
                    "data-object": q.seat === v.player ? `voyage:${sea.name}:${ownVoyage(sea, q)}` : null,
                  },
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
      el("p", { class: "phase" }, `${turnText(v)} · pack ${v.deck_size} ships · discard ${v.discard.length}`),
      el(
        "p",
        { class: "board-actions" },
        "free classes: ",
        v.free_classes.length ? v.free_classes.map((n) => el("span", { class: "obj-button", "data-object": `class:${n}` }, "★".repeat(n))) : "—",
      ),
      el("div", { class: "seas" }, seas),
      panel(
        "Charter agency",
        el("p", { class: "board-actions" }, el("span", { class: "obj-button", "data-object": "refresh" }, "↻ refresh the agency (2,000)")),
        el("div", { class: "row" }, v.agency.map((a) => shipCard(a.ship, a.price))),
      ),
      panel("Your ships", el("div", { class: "row" }, v.hand.length ? v.hand.map((s) => shipCard(s)) : el("span", { class: "muted" }, "none"))),
      panel("Seats", table(["seat", "marks", "VP", "hand", "voyages left", "loans"], seats)),
    );
  }

  const marks = (text) => Number(text.replace(/,/g, ""));

  // The objects each kind of move acts on, read from its text (src/cruiselib/atlantic_star/moves.py).
  function move(text) {
    if (text.startsWith("refresh the agency")) return { kind: "refresh", objects: ["refresh"] };
    let m = /^charter .* (?:for ([\d,]+)|free)$/.exec(text);
    if (m) return { kind: "charter", objects: [`agency:${m[1] ? marks(m[1]) : 0}`] };
    m = /^voyage (\S+) (\d)★/.exec(text);
    if (m) {
      // The ships it keeps in hand, when the move names them: "(keeps Juno, Ceres)".
      const kept = /\(keeps (.+)\)$/.exec(text);
      const ships = kept ? kept[1].split(", ").map((name) => `hand:${name}`) : [];
      return { kind: "voyage", objects: [`sea:${m[1]}`, `class:${m[2]}`, ...ships] };
    }
    m = /^loan [\d,]+ on the (second )?(\S+) voyage/.exec(text);
    if (m) return { kind: "loan", objects: [`voyage:${m[2]}:${m[1] ? 1 : 0}`] };
    return null;
  }

  const kinds = {
    charter: "Charter the ship on an agency space, paying its price; it joins your hand.",
    refresh: "Pay 2,000 marks to replace the four ships of the agency.",
    voyage: "Stage a voyage in a sea in a free star class with your hand's ships: click the sea, the class, and the ships (at most 2) to keep.",
    loan: "Borrow marks against your voyage in a sea (click your plaque): each 1,000 lowers its value by 1.",
  };

  cruiselib.registerDrawer("atlantic_star", draw, { move, kinds });
})();
