// Dream Islands' board on the cruiselib web page (docs/web.md): the airplane, the islands
// around the middle, each seat's pieces, and the mission cards as cards (their kind, a
// picture of what they ask, their text, their 2 points), drawn from a seat's view alone. The catalog
// (/catalog/dream_islands) names the missions and gives the small islands' values. Every
// object a move acts on carries its key (data-object): a place "place:airplane",
// "place:island <n>", "place:middle", a shell "shell:<number>", a mission in hand
// "mission:<name>" and the own draw pile "pile"; move() maps a legal move's text to them.
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

  // What a mission asks, drawn as on its card (I4): pieces on one island, islands in a row,
  // or a majority on a numbered island; the seat's own colour for its pieces.
  function missionArt(text, colour) {
    const piece = () => el("span", { class: "pip", style: `background:${colour}` });
    let m = /^exactly (\d+) pieces on one island$/.exec(text);
    if (m) return ["one island", [el("span", { class: "isle" }, Array.from({ length: Number(m[1]) }, piece))]];
    m = /^on exactly (\d+) consecutive islands$/.exec(text);
    if (m) return ["in a row", Array.from({ length: Number(m[1]) }, (_, i) => [i ? el("span", { class: "link" }, "–") : null, el("span", { class: "isle" }, piece())])];
    m = /^majority on island (\d+)$/.exec(text);
    if (m) return ["majority", [el("span", { class: "isle numbered" }, m[1]), el("span", { class: "crown" }, "♛")]];
    return ["mission", []];
  }

  // A mission card: its kind and number, the picture of what it asks, its text, 2 points.
  function missionCard(m, missions, colour, key) {
    const text = missions[m] || `mission ${m}`;
    const [kind, art] = missionArt(text, colour);
    return el(
      "div",
      { class: "mission-card", "data-object": key || null, title: text },
      el("div", { class: "mission-head" }, el("span", {}, kind), el("span", { class: "mission-id" }, `#${m}`)),
      el("div", { class: "mission-art" + (kind === "in a row" ? " chain" : "") }, art),
      el("div", { class: "mission-text" }, text),
      el("div", { class: "mission-points" }, "2 pts"),
    );
  }

  function draw(v, cat) {
    const missions = cat.missions || [];
    const values = cat.small_island_values || [];
    const name = (m) => `[${m}] ${missions[m] || "mission " + m}`;
    const colour = COLORS[v.player % COLORS.length];
    const cards = (ids, keyed) => el("div", { class: "mission-row" }, ids.map((m) => missionCard(m, missions, colour, keyed ? `mission:${missions[m]}` : null)));
    const islands = v.seats[0].islands.length;
    const places = [el("div", { class: "place airplane", "data-object": "place:airplane" }, el("div", { class: "place-name" }, "✈ airplane"), el("div", {}, pips(v.seats.map((s) => s.airplane))))];
    for (let i = 0; i < islands; i++) {
      const last = i === islands - 1 ? " ♥" : "";
      places.push(
        el("div", { class: "place island", "data-object": `place:island ${i + 1}` }, el("div", { class: "place-name" }, `island ${i + 1}${last}`), el("div", {}, pips(v.seats.map((s) => s.islands[i])))),
      );
    }
    const small = v.small_islands.map((owner, i) =>
      el("span", { class: "small-island", style: owner >= 0 ? `background:${COLORS[owner]};color:#fff` : "" }, `${values[i] ?? "?"} pts${owner >= 0 ? " · seat " + owner : ""}`),
    );
    places.push(el("div", { class: "place middle", "data-object": "place:middle" }, el("div", { class: "place-name" }, "middle"), el("div", {}, small), el("div", {}, pips(v.seats.map((s) => s.middle)))));
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
    // The four shells of the numbers 2..5: a covered one is spent.
    const shells = [2, 3, 4, 5].map((n) =>
      el("span", { class: "obj-button shell" + (me.covered.includes(n) ? " covered" : ""), "data-object": `shell:${n}`, title: `cover ${n}` }, `shell ${n}`),
    );
    return el(
      "div",
      {},
      el("p", { class: "phase" }, `round ${v.rounds + 1}${v.max_rounds ? " of " + v.max_rounds : ""} · ${PHASES[v.phase] || v.phase}${v.end_triggered ? " · last round" : ""}`),
      el(
        "p",
        { class: "board-actions" },
        "your shells: ",
        shells,
        " ",
        el("span", { class: "obj-button", "data-object": "pile" }, `your draw pile (${me.pile_size})`),
      ),
      el("div", { class: "islands" }, places),
      panel("Seats", table(["seat", "score", "missions", "shells on", "hand", "pile", "put under"], seats)),
      panel("Your missions in hand", v.hand.length ? cards(v.hand, true) : el("span", { class: "muted" }, "none")),
      me.completed.length ? panel("Your completed missions", cards(me.completed, false)) : null,
      v.under_pile.length ? panel("Under your pile (drawn next)", cards(v.under_pile, false)) : null,
    );
  }

  // A place as a path of a cover move names it: "airplane", "middle", "island 3" (or "3"
  // after an island start: "island 1→3").
  const placeKey = (text) => `place:${/^\d+$/.test(text) ? "island " + text : text}`;

  // The objects each kind of move acts on, read from its text (src/cruiselib/dream_islands/moves.py).
  function move(text) {
    let m = /^cover (\d)(?: \(no piece can move\))?$/.exec(text);
    if (m) return { kind: "cover", objects: [`shell:${m[1]}`] };
    m = /^cover (\d): (.+)$/.exec(text);
    if (m) {
      const objects = [`shell:${m[1]}`];
      for (const path of m[2].split(", ")) {
        const p = /^\d+ pieces? (.+)→(.+)$/.exec(path);
        if (!p) return null;
        objects.push(placeKey(p[1]), placeKey(p[2]));
      }
      return { kind: "cover", objects: [...new Set(objects)] };
    }
    m = /^put '(.+)' under the draw pile$/.exec(text);
    if (m) return { kind: "put", objects: [`mission:${m[1]}`] };
    if (text === "draw up to 3") return { kind: "draw", objects: ["pile"] };
    return null;
  }

  // Each step of a turn as what the seat does in it.
  const PHASES = {
    move: "move: cover a shell and move your pieces",
    exchange: "exchange: put missions under your pile, then draw up to 3",
    over: "the game is over",
  };

  const kinds = {
    cover: "Cover one of your shells (2 to 5) and move your pieces that many steps in all: click a shell, then the islands your pieces leave or reach.",
    put: "Put a mission card from your hand at the bottom of your draw pile.",
    draw: "End the exchange: draw until you hold 3 missions.",
  };

  cruiselib.registerDrawer("dream_islands", draw, { move, kinds });
})();
