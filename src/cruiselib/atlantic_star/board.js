// Atlantic Star's board on the cruiselib web page (docs/web.md): the four seas as rows of
// their six fields, each staged voyage's plaque a card on its field (owner's colour,
// victory points, value, loan, ships), the charter agency and the hand as ship cards (name,
// each leg's sea, number and value), the seats, drawn from a seat's view alone. Every object a
// move acts on carries its key (data-object): a sea "sea:<name>", the seat's own voyage
// there "voyage:<sea>:<0 first, 1 second>", a free star class "class:<stars>", a ship of the
// hand "hand:<name>", an agency space "agency:<price>" and the agency's refresh "refresh";
// move() maps a legal move's text to them.
"use strict";

(() => {
  const { el, panel, table, seatLabel, COLORS, fmt } = cruiselib;

  // A leg of a ship card as the view says it, "Med 2: 4": the sea, the leg, its value.
  function legRow(text) {
    const m = /^(\S+) (\d+): (-?\d+)$/.exec(text);
    if (!m) return el("li", {}, text);
    return el("li", { class: "leg" }, el("span", { class: "leg-sea" }, m[1]), el("span", { class: "leg-no" }, `leg ${m[2]}`), el("b", { class: "leg-value" }, m[3]));
  }

  // A ship card: its name, and per leg it sails the sea, the leg and the value it adds (a
  // mail ship: 1 on any leg); on an agency space, its price above.
  function shipCard(ship, price) {
    const key = price !== undefined ? `agency:${price}` : ship ? `hand:${ship.name}` : null;
    return el(
      "div",
      { class: "ship-card" + (ship && ship.mail ? " mail" : "") + (ship ? "" : " empty"), "data-object": key },
      price !== undefined ? el("div", { class: "price" }, price ? `${fmt(price)} marks` : "free") : null,
      ship ? el("div", { class: "ship-name" }, ship.mail ? "✉ " : "⚓ ", ship.name) : el("div", { class: "muted" }, "empty"),
      ship ? (ship.mail ? el("div", { class: "legs" }, "mail ship: 1 on any leg") : el("ul", { class: "legs" }, ship.legs.map(legRow))) : null,
    );
  }

  const FIELDS = 6; // every sea ends with six plaques (A8)

  // A staged voyage's plaque, a card on its field: the owner's colour (grey: the operator),
  // the field's victory points, the voyage's value, any loan, the ships that sailed it.
  function plaqueCard(q, key) {
    const owner = q.seat !== null ? COLORS[q.seat % COLORS.length] : "#7f8c8d";
    return el(
      "div",
      { class: "field plaque", style: `--owner:${owner}`, "data-object": key, title: q.ships.join(", ") },
      el("div", { class: "plaque-owner" }, q.seat !== null ? `seat ${q.seat}` : "operator"),
      el("div", { class: "plaque-vp" }, el("b", {}, q.victory_points), " VP"),
      el("div", { class: "plaque-value" }, `value ${q.value}`),
      q.loan ? el("div", { class: "plaque-loan" }, `loan ${fmt(q.loan)}`) : null,
      el("div", { class: "plaque-ships" }, q.ships.join(" · ")),
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
    // Each sea a row: its name, legs and star class, then its six fields in board order,
    // a plaque on each field a voyage took, the free fields empty slots.
    const seas = v.seas.map((sea) => {
      const fields = [];
      for (let f = 1; f <= FIELDS; f++) {
        const q = sea.plaques.find((x) => x.field === f);
        fields.push(
          q
            ? plaqueCard(q, q.seat === v.player ? `voyage:${sea.name}:${ownVoyage(sea, q)}` : null)
            : el("div", { class: "field free" }, el("span", { class: "muted" }, `field ${f}`)),
        );
      }
      return el(
        "div",
        { class: "sea" + (sea.full ? " full" : ""), "data-object": `sea:${sea.name}` },
        el(
          "div",
          { class: "sea-head" },
          el("b", {}, sea.name),
          el("span", { class: "sea-legs" }, `${sea.legs} legs`),
          el("span", { class: "sea-class" }, sea.stars ? "★".repeat(sea.stars) : "no class yet"),
          sea.full ? el("span", { class: "sea-full" }, "full") : null,
        ),
        el("div", { class: "fields" }, fields),
      );
    });
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
