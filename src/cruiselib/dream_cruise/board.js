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

  // Cards as a player of the table knows them: a name, a kind, what it offers.
  const act = (a) => (a ? `${a.type} for ${a.capacity}` : "");
  const regionText = (card) => (card.kind === "sea" ? "open sea: joins one route" : `${card.region.replace(/_/g, " ")} shore`);
  const byName = (list, name) => (list || []).find((x) => x.name === name) || null;

  // A location card: its name, its region (its route) and its two activities.
  function locationCard(card, attrs) {
    return el(
      "div",
      { class: `dc-card location-card ${card.kind}`, ...(attrs || {}) },
      el("div", { class: "dc-card-name" }, card.name),
      el("div", { class: "dc-card-kind" }, regionText(card)),
      el("div", { class: "dc-activity" }, "top: ", act(card.top)),
      card.bottom ? el("div", { class: "dc-activity" }, "bottom: ", act(card.bottom)) : null,
    );
  }

  // A family card: its name, its guests, the activities it wants, its points.
  function familyCard(family, attrs) {
    return el(
      "div",
      { class: "dc-card family-card", ...(attrs || {}) },
      el("div", { class: "dc-card-name" }, family.name),
      el("div", { class: "dc-card-kind" }, `family of ${family.members}`),
      el("div", { class: "dc-activity" }, "wants ", family.wants.join(", ")),
      el("div", { class: "dc-points" }, `${family.points} pts`),
    );
  }

  // A ship card: an activity card (played onto the location card) or an addition (built on the ship).
  function shipCard(card, attrs) {
    return el(
      "div",
      { class: `dc-card ship-card-dc ${card.kind}`, ...(attrs || {}) },
      el("div", { class: "dc-card-name" }, card.name),
      el("div", { class: "dc-card-kind" }, card.kind),
      el("div", { class: "dc-activity" }, act(card.activity)),
    );
  }

  function draw(v, cat) {
    const fam = (id) => (cat.families && id >= 0 ? cat.families[id] : null);
    const loc = (id) => (cat.locations && id >= 0 ? cat.locations[id] : null);
    const ship = (id) => (cat.ships && id >= 0 ? cat.ships[id] : null);
    const guests = (list) => (list.length ? list.map((c) => el("span", { class: `guest cabin-${c}`, title: CABINS[c] }, CABINS[c])) : el("span", { class: "muted" }, "—"));
    const seatBoard = (s) => {
      const mine = s.seat === v.player; // only the seat's own board is played on
      const key = (k) => (mine ? k : null);
      // The ship's three cabins, side by side: the family in each, its guests still aboard
      // (a figure each), what it wants and its points.
      const cabins = s.families.map((f, c) => {
        const family = fam(f);
        const figures = family ? Array.from({ length: family.members }, (_, k) => el("span", { class: `figure cabin-${c}` + (k < s.figures_left[c] ? "" : " out") })) : [];
        return el(
          "div",
          { class: `cabin cabin-${c}` + (family ? "" : " empty"), "data-object": family ? key(`cabin:${family.name}`) : null },
          el("div", { class: "cabin-name" }, CABINS[c]),
          family
            ? [
                el("div", { class: "dc-card-name" }, family.name),
                el("div", { class: "figures", title: `${s.figures_left[c]} of ${family.members} guests still to place` }, figures),
                el("div", { class: "dc-activity" }, "wants ", family.wants.join(", ")),
                el("div", { class: "dc-points" }, `${family.points} pts`),
              ]
            : el("div", { class: "muted" }, "empty"),
        );
      });
      const additions = s.additions
        .map((x, j) => (x >= 0 ? el("div", { class: "dc-card addition", "data-object": key(`dest:${ship(x).name}`) }, el("div", { class: "dc-card-name" }, ship(x).name), el("div", { class: "dc-activity" }, act(ship(x).activity)), el("div", {}, guests(s.addition_guests[j]))) : null))
        .filter(Boolean);
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
          spots.push(el("div", { class: "spot" + (s.location.captain === i ? " captain" : ""), "data-object": key(`dest:${name}`) }, text, s.location.captain === i ? " ⚓ captain" : "", el("div", {}, guests(s.location.guests[i]))));
        }
        location = el("div", { class: `location dc-card location-card ${card.kind}` }, el("div", { class: "dc-card-name" }, card.name), el("div", { class: "dc-card-kind" }, regionText(card)), el("div", { class: "spots" }, spots));
      }
      return el(
        "section",
        { class: "panel seat-board" + (s.seat === v.current_player ? " to-move" : ""), style: `border-top-color:${COLORS[s.seat]}` },
        el("h3", {}, seatLabel(s.seat), ` · score ${s.score} · routes ${s.route_points} · hand ${s.hand_size}${s.drawn_size ? " · drawn " + s.drawn_size : ""}`),
        el("div", { class: "cabins" }, cabins),
        el("div", { class: "dc-cards play-area" }, location, additions),
        mine ? el("p", { class: "board-actions" }, el("span", { class: "obj-button", "data-object": "done" }, "done (end your turn)")) : null,
        el("p", { class: "legs" }, "played: ", s.played.map((x) => loc(x).name).join(", ") || "—", ` · points pile ${s.points_pile.length} families`),
      );
    };
    const display = v.display.map((set, k) =>
      el(
        "div",
        { class: "display-set" + (set.taken_by >= 0 ? " taken" : ""), "data-object": `set:${k}` },
        el("div", { class: "cabin-name" }, `set ${k}`),
        set.taken_by >= 0
          ? el("div", { class: "muted" }, `taken by seat ${set.taken_by}`)
          : set.face_down
            ? el("div", { class: "dc-card face-down" }, `${set.size} cards face down`)
            : el("div", { class: "dc-cards" }, set.cards.map((x) => shipCard(ship(x)))),
      ),
    );
    const jana = v.jana;
    return el(
      "div",
      {},
      el(
        "p",
        { class: "phase" },
        `round ${v.round}${v.final_round ? " (the last)" : ""} · ${PHASES[v.phase] || v.phase.replace(/_/g, " ")} · start player ${v.start_player} · decks: families ${v.family_deck}, locations ${v.location_deck}, ships ${v.ship_deck}`,
      ),
      el("div", { class: "seat-boards" }, v.seats.map(seatBoard)),
      v.drawn.length
        ? panel(
            v.phase === "boarding" ? "Drawn families: board one" : "Drawn location cards: keep one",
            el(
              "div",
              { class: "dc-cards" },
              v.drawn.map((x) => (v.phase === "boarding" ? familyCard(fam(x), { "data-object": `drawn:${fam(x).name}` }) : locationCard(loc(x), { "data-object": `drawn:${loc(x).name}` }))),
            ),
          )
        : null,
      panel("Your hand", el("div", { class: "dc-cards hand-cards" }, v.hand.length ? v.hand.map((x) => shipCard(ship(x), { "data-object": `hand:${ship(x).name}` })) : el("span", { class: "muted" }, "empty"))),
      display.length ? panel("Display: take a set", el("div", { class: "display" }, display)) : null,
      jana
        ? panel(
            "Jana",
            el("p", {}, `${jana.pile_size} families face down in her points pile · routes ${jana.route_points} points${jana.score !== null ? " · score " + jana.score : ""}`),
            el("div", { class: "dc-cards jana-cards" }, jana.locations.map((x) => el("div", { class: `dc-card small ${loc(x).kind}` }, el("div", { class: "dc-card-name" }, loc(x).name), el("div", { class: "dc-card-kind" }, regionText(loc(x)))))),
          )
        : null,
    );
  }

  // Each phase as what the seats do in it.
  const PHASES = {
    boarding: "boarding: families board the cabins",
    set_course: "set course: each seat keeps a location card",
    entertainment: "prepare entertainment: each seat takes a set of ship cards",
    set_sail: "set sail: send guests to activities, plan, build, move the captain, then done",
    over: "the cruise is over",
  };

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
    done: "End your turn of the set sail phase.",
  };

  // The content of the card a move names, where the move is chosen.
  function detail(text, v, cat) {
    let m = /^keep (.+)$/.exec(text);
    let card = m && byName(cat.locations, m[1]);
    if (card) return `${regionText(card)} · top: ${act(card.top)}${card.bottom ? " · bottom: " + act(card.bottom) : ""}`;
    m = /^board (.+)$/.exec(text);
    card = m && byName(cat.families, m[1]);
    if (card) return `family of ${card.members} · wants ${card.wants.join(", ")} · ${card.points} pts`;
    m = /^(?:plan|build) (.+?)(?:, paying .*)?$/.exec(text);
    card = m && byName(cat.ships, m[1]);
    if (card) return `${card.kind}: ${act(card.activity)}`;
    m = /^take set (\d+)/.exec(text);
    const set = m && v.display[Number(m[1])];
    if (set && !set.face_down) return set.cards.map((x) => `${cat.ships[x].name} (${cat.ships[x].kind}: ${act(cat.ships[x].activity)})`).join(", ");
    return null;
  }

  // Jana's turns (the solo game, C9, C23): automatic rules, said as lines of the log.
  function events(before, after, cat) {
    const was = before.jana;
    const now = after.jana;
    if (!was || !now) return [];
    const lines = [];
    const drew = now.pile_size - was.pile_size;
    if (drew > 0) lines.push(`Jana draws ${drew === 1 ? "a family" : drew + " families"} into her points pile, face down (${now.pile_size} there now)`);
    const taken = now.locations.slice(was.locations.length).map((x) => `${cat.locations[x].name} (${regionText(cat.locations[x])})`);
    if (taken.length) {
      const gained = now.route_points - was.route_points;
      lines.push(`Jana takes ${taken.join(" and ")}: her routes score ${now.route_points}${gained > 0 ? ` (+${gained})` : ""}`);
    }
    if (now.score !== null && was.score === null) lines.push(`Jana scores ${now.score}: her points pile and her longest route`);
    return lines;
  }

  cruiselib.registerDrawer("dream_cruise", draw, {
    move,
    kinds,
    detail,
    events,
    // The solo game (C9): Jana, not a seat, wins when the seat does not (she wins ties).
    winners: (v, winners) => {
      if (!v.jana || v.jana.score === null) return null;
      const mine = v.seats[0].score;
      return winners.length ? `You beat Jana, ${mine} to ${v.jana.score}` : `Jana wins, ${v.jana.score} to your ${mine}${v.jana.score === mine ? " (she wins ties)" : ""}`;
    },
    result: (v) => (v.jana && v.jana.score !== null ? el("p", {}, `Jana scored ${v.jana.score}: her points pile and her longest route`) : null),
  });
})();
