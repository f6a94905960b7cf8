// Dream Cruise's board on the cruiselib web page (docs/web.md): each seat's ship board
// (cabins, additions), location card and routes, drawn from a seat's view alone. The
// catalog (/catalog/dream_cruise) names the families, location cards and ship cards.
"use strict";

(() => {
  const { el, panel, seatLabel, COLORS } = cruiselib;
  const CABINS = ["inner", "oceanview", "balcony"];

  function draw(v, cat) {
    const fam = (id) => (cat.families && id >= 0 ? cat.families[id] : null);
    const loc = (id) => (cat.locations && id >= 0 ? cat.locations[id] : null);
    const ship = (id) => (cat.ships && id >= 0 ? cat.ships[id] : null);
    const act = (a) => (a ? `${a.type} for ${a.capacity}` : "");
    const guests = (list) => (list.length ? list.map((c) => el("span", { class: `guest cabin-${c}`, title: CABINS[c] }, CABINS[c])) : el("span", { class: "muted" }, "—"));
    const seatBoard = (s) => {
      const rows = s.families.map((f, c) => {
        const family = fam(f);
        return el(
          "tr",
          {},
          el("th", {}, CABINS[c]),
          el("td", {}, family ? family.name : "empty"),
          el("td", { class: "nowrap" }, family ? `${s.figures_left[c]}/${family.members} to place` : ""),
          el("td", {}, family ? family.wants.join(", ") : ""),
          el("td", { class: "num nowrap" }, family ? `${family.points} pts` : ""),
        );
      });
      const additions = s.additions.map((x, j) => (x >= 0 ? el("li", {}, `${ship(x).name} (${act(ship(x).activity)}): `, guests(s.addition_guests[j])) : null)).filter(Boolean);
      let location = el("p", { class: "muted" }, "no location card");
      if (s.location) {
        const card = loc(s.location.card);
        const spots = [];
        const spotText = (i) => {
          if (i === 0) return `top: ${act(card.top)}`;
          const x = s.location.activity_cards[i - 1];
          if (x >= 0) return `${ship(x).name} (${act(ship(x).activity)})`;
          if (i === 1 && card.bottom) return `bottom: ${act(card.bottom)}`;
          return null;
        };
        for (let i = 0; i < 3; i++) {
          const text = spotText(i);
          if (text === null) continue;
          spots.push(el("li", { class: s.location.captain === i ? "captain" : "" }, text, s.location.captain === i ? " ⚓ captain" : "", " · guests ", guests(s.location.guests[i])));
        }
        location = el("div", { class: "location" }, el("b", {}, card.name), el("small", {}, card.kind === "sea" ? " (sea)" : ` (${card.region})`), el("ul", {}, spots));
      }
      return el(
        "section",
        { class: "panel seat-board" + (s.seat === v.current_player ? " to-move" : ""), style: `border-top-color:${COLORS[s.seat]}` },
        el("h3", {}, seatLabel(s.seat), ` · score ${s.score} · routes ${s.route_points} · hand ${s.hand_size}${s.drawn_size ? " · drawn " + s.drawn_size : ""}`),
        el("table", { class: "cabins" }, el("tbody", {}, rows)),
        additions.length ? el("ul", { class: "additions" }, additions) : null,
        location,
        el("p", { class: "legs" }, "played: ", s.played.map((x) => loc(x).name).join(", ") || "—", ` · points pile ${s.points_pile.length} families`),
      );
    };
    const display = v.display.map((set, k) =>
      el("li", {}, `set ${k}: `, set.taken_by >= 0 ? `taken by seat ${set.taken_by}` : set.face_down ? `face down (${set.size} cards)` : set.cards.map((x) => ship(x).name).join(", ")),
    );
    const jana = v.jana;
    return el(
      "div",
      {},
      el(
        "p",
        { class: "phase" },
        `round ${v.round}${v.final_round ? " (final)" : ""} · phase ${v.phase.replace(/_/g, " ")} · start player ${v.start_player} · decks: families ${v.family_deck}, locations ${v.location_deck}, ships ${v.ship_deck}`,
      ),
      el("div", { class: "seat-boards" }, v.seats.map(seatBoard)),
      panel(
        "Your hand",
        el("ul", { class: "hand-list" }, v.hand.length ? v.hand.map((x) => el("li", {}, `${ship(x).name} (${ship(x).kind}: ${act(ship(x).activity)})`)) : el("li", { class: "muted" }, "empty")),
        v.drawn.length
          ? el("p", {}, v.phase === "boarding" ? "drawn families: " : "drawn location cards: ", v.drawn.map((x) => (v.phase === "boarding" ? fam(x) : loc(x)).name).join(", "))
          : null,
      ),
      display.length ? panel("Display", el("ul", {}, display)) : null,
      jana ? panel("Jana", el("p", {}, `${jana.pile_size} families face down · ${jana.locations.length} location cards · routes ${jana.route_points}${jana.score !== null ? " · score " + jana.score : ""}`)) : null,
    );
  }

  cruiselib.registerDrawer("dream_cruise", draw, {
    // The solo game (C9): Jana, not a seat, wins when the seat does not.
    winners: (v, winners) => (!winners.length && v.jana ? "Jana wins (no winner among the seats)" : null),
    result: (v) => (v.jana && v.jana.score !== null ? el("p", {}, `Jana scored ${v.jana.score}`) : null),
  });
})();
