// Dream Cruise's board on the cruiselib web page (docs/web.md): each seat's ship board
// (cabins, additions), location card and routes, drawn from a seat's view alone. The
// catalog (/catalog/dream_cruise) names the families, location cards and ship cards. Every
// object a move acts on carries its key (data-object), by the name the moves use: a cabin
// of the seat "cabin:<family>", an activity a guest or the captain may go to
// "dest:<activity>" (a location card's "<card> top"/"<card> bottom", an activity card, an
// addition), a hand card "hand:<ship card>", a drawn card "drawn:<name>", a display set
// "set:<number>" (0 face down) and "done"; move() maps a legal move's text to them.
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
      const mine = s.seat === v.player; // only the seat's own board is played on
      const key = (k) => (mine ? k : null);
      const rows = s.families.map((f, c) => {
        const family = fam(f);
        return el(
          "tr",
          { "data-object": family ? key(`cabin:${family.name}`) : null },
          el("th", {}, CABINS[c]),
          el("td", {}, family ? family.name : "empty"),
          el("td", { class: "nowrap" }, family ? `${s.figures_left[c]}/${family.members} to place` : ""),
          el("td", {}, family ? family.wants.join(", ") : ""),
          el("td", { class: "num nowrap" }, family ? `${family.points} pts` : ""),
        );
      });
      const additions = s.additions.map((x, j) => (x >= 0 ? el("li", { "data-object": key(`dest:${ship(x).name}`) }, `${ship(x).name} (${act(ship(x).activity)}): `, guests(s.addition_guests[j])) : null)).filter(Boolean);
      let location = el("p", { class: "muted" }, "no location card");
      if (s.location) {
        const card = loc(s.location.card);
        const spots = [];
        // A spot's text, and its name as the moves give it.
        const spotText = (i) => {
          if (i === 0) return [`top: ${act(card.top)}`, `${card.name} top`];
          const x = s.location.activity_cards[i - 1];
          if (x >= 0) return [`${ship(x).name} (${act(ship(x).activity)})`, ship(x).name];
          if (i === 1 && card.bottom) return [`bottom: ${act(card.bottom)}`, `${card.name} bottom`];
          return null;
        };
        for (let i = 0; i < 3; i++) {
          const spot = spotText(i);
          if (spot === null) continue;
          const [text, name] = spot;
          spots.push(el("li", { class: s.location.captain === i ? "captain" : "", "data-object": key(`dest:${name}`) }, text, s.location.captain === i ? " ⚓ captain" : "", " · guests ", guests(s.location.guests[i])));
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
        mine ? el("p", { class: "board-actions" }, el("span", { class: "obj-button", "data-object": "done" }, "done (end your turn)")) : null,
        el("p", { class: "legs" }, "played: ", s.played.map((x) => loc(x).name).join(", ") || "—", ` · points pile ${s.points_pile.length} families`),
      );
    };
    const display = v.display.map((set, k) =>
      el("li", { "data-object": `set:${k}` }, `set ${k}: `, set.taken_by >= 0 ? `taken by seat ${set.taken_by}` : set.face_down ? `face down (${set.size} cards)` : set.cards.map((x) => ship(x).name).join(", ")),
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
        el("ul", { class: "hand-list" }, v.hand.length ? v.hand.map((x) => el("li", { "data-object": `hand:${ship(x).name}` }, `${ship(x).name} (${ship(x).kind}: ${act(ship(x).activity)})`)) : el("li", { class: "muted" }, "empty")),
        v.drawn.length
          ? el(
              "p",
              {},
              v.phase === "boarding" ? "drawn families: " : "drawn location cards: ",
              v.drawn.map((x) => {
                const name = (v.phase === "boarding" ? fam(x) : loc(x)).name;
                return el("span", { class: "obj-button", "data-object": `drawn:${name}` }, name);
              }),
            )
          : null,
      ),
      display.length ? panel("Display", el("ul", {}, display)) : null,
      jana ? panel("Jana", el("p", {}, `${jana.pile_size} families face down · ${jana.locations.length} location cards · routes ${jana.route_points}${jana.score !== null ? " · score " + jana.score : ""}`)) : null,
    );
  }

  // Where a guest or the captain goes, as the move names it, without the activity's
  // "(type for capacity)".
  const dest = (text) => `dest:${text.replace(/ \([^()]*\)$/, "")}`;

  // The objects each kind of move acts on, read from its text (src/cruiselib/dream_cruise/moves.py).
  function move(text, v, cat) {
    let m = /^board (.+)$/.exec(text);
    if (m) return { kind: "board", objects: [`drawn:${m[1]}`] };
    m = /^keep (.+)$/.exec(text);
    if (m) return { kind: "keep", objects: [`drawn:${m[1]}`] };
    if (text === "take the face-down set") return { kind: "take", objects: ["set:0"] };
    m = /^take set (\d+)/.exec(text);
    if (m) return { kind: "take", objects: [`set:${m[1]}`] };
    m = /^send an? (.+?) guest to (.+)$/.exec(text);
    if (m) return { kind: "send", objects: [`cabin:${m[1]}`, dest(m[2])] };
    m = /^send a guest from the (\S+) cabin to (.+)$/.exec(text);
    if (m) {
      const family = cat.families && cat.families[v.seats[v.player].families[CABINS.indexOf(m[1])]];
      return family ? { kind: "send", objects: [`cabin:${family.name}`, dest(m[2])] } : null;
    }
    m = /^plan (.+)$/.exec(text);
    if (m) return { kind: "plan", objects: [`hand:${m[1]}`] };
    m = /^build (.+?), paying (.+?)(?:, replacing (.+))?$/.exec(text);
    if (m) return { kind: "build", objects: [`hand:${m[1]}`, `hand:${m[2]}`, ...(m[3] ? [`dest:${m[3]}`] : [])] };
    m = /^captain to (.+), paying (.+)$/.exec(text);
    if (m) return { kind: "captain", objects: [dest(m[1]), `hand:${m[2]}`] };
    if (text === "done") return { kind: "done", objects: ["done"] };
    return null;
  }

  const kinds = {
    board: "Put a drawn family into your first empty cabin.",
    keep: "Keep one drawn location card as your next stop; the others are discarded.",
    take: "Take a set of ship cards from the display (set 0 lies face down).",
    send: "Send a guest of a cabin's family to an activity: click the cabin, then the activity.",
    plan: "Play an activity card from your hand onto your location card.",
    build: "Build an addition from your hand, paying with another hand card.",
    captain: "Send the captain to an activity, paying a hand card; guests may then join it.",
    done: "End your turn of the entertainment phase.",
  };

  cruiselib.registerDrawer("dream_cruise", draw, {
    move,
    kinds,
    // The solo game (C9): Jana, not a seat, wins when the seat does not.
    winners: (v, winners) => (!winners.length && v.jana ? "Jana wins (no winner among the seats)" : null),
    result: (v) => (v.jana && v.jana.score !== null ? el("p", {}, `Jana scored ${v.jana.score}`) : null),
  });
})();
