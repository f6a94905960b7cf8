// cruiselib web: a person plays one seat, a bot the others, over the engine protocol
// (docs/protocol.md) on a WebSocket. Every board is drawn from the seat's view alone.
"use strict";

const COLORS = ["#c0392b", "#2471a3", "#229954", "#d68910", "#7d3c98", "#148f77"];
const FILTER_AT = 24; // more legal moves than this: show the filter box

// ------------------------------------------------------------------ small helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const $ = (selector) => document.querySelector(selector);
const fmt = (n) => Number(n).toLocaleString("en-US");
const chip = (seat) => el("span", { class: "chip", style: `background:${COLORS[seat % COLORS.length]}` });

function seatLabel(seat) {
  if (seat === null || seat === undefined || seat < 0) return "—";
  const who = seat === S.human ? "you" : S.opponent;
  return el("span", { class: "seat-label" }, chip(seat), `seat ${seat} (${who})`);
}

// ------------------------------------------------------------------ the connection

// Seconds between two keep-alive pings: 60, or the page address's `keepalive` (at least 1).
function keepAliveSeconds() {
  const asked = Number(new URLSearchParams(location.search).get("keepalive"));
  return Number.isFinite(asked) && asked >= 1 ? asked : 60;
}

class Connection {
  constructor(url) {
    this.url = url;
    this.next = 1;
    this.pending = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.socket = new WebSocket(url);
      this.socket.onopen = () => resolve();
      this.socket.onerror = () => reject(new Error("cannot connect to " + url));
    });
    this.socket.onmessage = (event) => {
      const reply = JSON.parse(event.data);
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      waiter(reply);
    };
    // The server closes a WebSocket silent for its idle time (15 minutes): a ping now and
    // then keeps the page's games while a person thinks, however long.
    this.keepAlive = setInterval(() => {
      if (this.socket.readyState === WebSocket.OPEN) this.send({ cmd: "ping" }).catch(() => {});
    }, keepAliveSeconds() * 1000);
    this.socket.onclose = () => {
      clearInterval(this.keepAlive);
      showError("the connection to the engine closed: reload the page");
      for (const waiter of this.pending.values()) waiter({ ok: false, error: { code: "closed", message: "closed" } });
      this.pending.clear();
    };
  }

  // One request; resolves to the reply's fields, rejects with the error reply's message.
  async send(request) {
    await this.ready;
    const id = this.next++;
    const reply = await new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ ...request, id }));
    });
    if (!reply.ok) {
      const error = new Error(`${reply.error.code}: ${reply.error.message}`);
      error.code = reply.error.code;
      throw error;
    }
    return reply;
  }
}

// ------------------------------------------------------------------ the session

const S = {
  conn: null,
  games: [], // from the games command
  bots: {}, // name -> search?
  catalogs: {},
  game: null, // the game's name
  gid: null,
  human: 0,
  opponent: "random",
  think: 0.3,
  seed: 0,
  players: 2,
  ply: 0,
  status: null, // current_player, is_over, scores, winners
  view: null,
  legal: { actions: [], moves: [] },
  humanPlies: [], // the ply before each of the person's moves, for undo
  log: [], // {ply, seat, move, who}
  record: null,
  busy: 0,
};

function setBusy(delta) {
  S.busy += delta;
  document.body.dataset.busy = S.busy > 0 ? "1" : "0";
  for (const button of document.querySelectorAll("#side button")) button.disabled = S.busy > 0 || button.dataset.off === "1";
}

function showError(message) {
  const box = $("#error");
  box.hidden = !message;
  box.textContent = message || "";
}

async function guarded(work) {
  setBusy(1);
  showError("");
  try {
    await work();
  } catch (error) {
    showError(error.message);
  } finally {
    setBusy(-1);
    render();
  }
}

async function catalog(game) {
  if (!S.catalogs[game]) {
    const response = await fetch(`/catalog/${game}`);
    S.catalogs[game] = await response.json();
  }
  return S.catalogs[game];
}

// ------------------------------------------------------------------ setup form

async function fillSetup() {
  const [games, bots] = await Promise.all([S.conn.send({ cmd: "games" }), S.conn.send({ cmd: "bots" })]);
  S.games = games.games;
  const order = ["sirens", "dream_islands", "atlantic_star", "dream_cruise"];
  S.games.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  for (const bot of bots.bots) S.bots[bot.name] = bot.search;
  await Promise.all(S.games.map((game) => catalog(game.name))); // so the form changes at once
  const gameBox = $("#game");
  for (const game of S.games) gameBox.append(el("option", { value: game.name }, game.title));
  for (const bot of bots.bots) {
    if (bot.name === "cheating_mcts") continue; // it sees hidden cards
    $("#opponent").append(el("option", { value: bot.name }, bot.name));
  }
  const params = new URLSearchParams(location.search);
  for (const key of ["game", "opponent", "think", "seed"]) if (params.has(key)) $("#" + key).value = params.get(key);
  fillPlayers(params.get("players"), params.get("seat"));
  gameBox.addEventListener("change", () => fillPlayers());
  $("#players").addEventListener("change", () => fillSeats());
}

function fillPlayers(players, seat) {
  const game = S.games.find((g) => g.name === $("#game").value);
  const info = S.catalogs[game.name];
  const box = $("#players");
  box.dataset.game = game.name;
  box.replaceChildren();
  for (let n = info.players[0]; n <= info.players[1]; n++) box.append(el("option", { value: n }, n));
  box.value = players || String(game.num_players);
  if (!box.value) box.value = String(game.num_players);
  $("#variant-box").hidden = game.name !== "sirens";
  fillSeats(seat);
}

function fillSeats(seat) {
  const box = $("#seat");
  box.replaceChildren();
  const n = Number($("#players").value);
  for (let p = 0; p < n; p++) box.append(el("option", { value: p }, p));
  box.value = seat && Number(seat) < n ? seat : "0";
}

// ------------------------------------------------------------------ playing

function budget() {
  return S.bots[S.opponent] ? { seconds: S.think } : {};
}

async function newGame() {
  const game = $("#game").value;
  const options = { players: Number($("#players").value) };
  if (game === "sirens") options.variant = $("#variant").value;
  const seedText = $("#seed").value.trim();
  const request = { cmd: "new", game, options };
  if (seedText) request.seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText;
  if (S.gid) await S.conn.send({ cmd: "close", game_id: S.gid }).catch(() => {});
  const reply = await S.conn.send(request);
  Object.assign(S, {
    game,
    gid: reply.game_id,
    human: Number($("#seat").value),
    opponent: $("#opponent").value,
    think: Math.max(0.05, Number($("#think").value) || 0.3),
    seed: typeof reply.seed === "number" ? reply.seed : 0,
    players: reply.num_players,
    ply: reply.ply,
    status: reply,
    humanPlies: [],
    log: [],
    record: null,
    hints: null,
  });
  S.catalog = await catalog(game);
  $("#seed").placeholder = String(reply.seed);
  await botsMove();
  await refresh();
}

function noteMove(reply, who) {
  S.log.push({ ply: S.ply, seat: reply.seat, move: reply.move, who });
  S.ply += 1;
  S.status = { ...S.status, current_player: reply.current_player, is_over: reply.is_over, scores: reply.scores, winners: reply.winners };
}

// The bots play every seat but the person's until it is the person's turn or the game ends.
async function botsMove() {
  while (!S.status.is_over && S.status.current_player !== S.human) {
    const seat = S.status.current_player;
    const reply = await S.conn.send({
      cmd: "bot",
      game_id: S.gid,
      bot: S.opponent,
      seed: (S.seed + 7919 * (seat + 1)) % 2 ** 53,
      apply: true,
      seat,
      ...budget(),
    });
    noteMove(reply, S.opponent);
  }
}

async function refresh() {
  const [view, legal] = await Promise.all([
    S.conn.send({ cmd: "view", game_id: S.gid, seat: S.human }),
    S.conn.send({ cmd: "legal", game_id: S.gid, seat: S.human }),
  ]);
  S.view = view.view;
  S.legal = legal;
  if (S.status.is_over && !S.record) {
    S.record = (await S.conn.send({ cmd: "save", game_id: S.gid, snapshot: false })).record;
  }
}

async function play(action) {
  const before = S.ply;
  const reply = await S.conn.send({ cmd: "apply", game_id: S.gid, action, seat: S.human });
  S.humanPlies.push(before);
  S.hints = null;
  noteMove(reply, "you");
  await botsMove();
  await refresh();
}

async function undo() {
  if (!S.humanPlies.length) return;
  const back = S.humanPlies.pop();
  const reply = await S.conn.send({ cmd: "undo", game_id: S.gid, count: S.ply - back });
  S.ply = reply.ply;
  S.status = reply;
  S.log = S.log.filter((entry) => entry.ply < S.ply);
  S.record = null;
  S.hints = null;
  await refresh();
}

async function hint() {
  const reply = await S.conn.send({
    cmd: "hint",
    game_id: S.gid,
    seat: S.human,
    bot: "ismcts",
    seconds: S.think,
    count: 3,
    seed: S.seed + S.ply,
  });
  S.hints = reply.hints;
}

// ------------------------------------------------------------------ drawing: the side panel

function render() {
  document.body.dataset.renders = String(Number(document.body.dataset.renders) + 1);
  if (!S.gid || !S.view) return;
  renderStatus();
  renderBoard();
  renderMoves();
  renderHints();
  renderLog();
  renderResult();
  const undo = $('[data-action="undo"]');
  undo.dataset.off = S.humanPlies.length ? "0" : "1";
  undo.disabled = S.busy > 0 || !S.humanPlies.length;
  const hintButton = $('[data-action="hint"]');
  hintButton.dataset.off = S.status.is_over || S.status.current_player !== S.human ? "1" : "0";
  hintButton.disabled = S.busy > 0 || hintButton.dataset.off === "1";
}

function renderStatus() {
  const box = $("#status");
  const title = S.catalog ? S.catalog.title : S.game;
  let text;
  if (S.status.is_over) {
    box.dataset.state = "over";
    text = "Game over";
  } else if (S.status.current_player === S.human) {
    box.dataset.state = "your-turn";
    text = `Your turn (seat ${S.human})`;
  } else {
    box.dataset.state = "waiting";
    text = `Seat ${S.status.current_player} to move`;
  }
  box.replaceChildren(el("strong", {}, title), ` · ${S.players} player${S.players === 1 ? "" : "s"} · seed ${S.seed} · `, text);
}

// A move's kind: its text before a colon when short ("cover 3", "octopus"), else its first word.
function moveGroup(text) {
  const colon = text.indexOf(":");
  if (colon > 0 && colon <= 12) return text.slice(0, colon);
  return text.split(/\s/)[0] || "move";
}

function renderMoves() {
  const box = $("#moves");
  box.replaceChildren();
  const { actions, moves } = S.legal;
  const filter = $("#filter");
  filter.hidden = moves.length <= FILTER_AT;
  const needle = filter.hidden ? "" : filter.value.trim().toLowerCase();
  $("#move-count").textContent = moves.length ? `(${moves.length})` : "";
  $("#movebox").hidden = !moves.length;
  const groups = new Map();
  moves.forEach((text, i) => {
    if (needle && !text.toLowerCase().includes(needle)) return;
    const key = moveGroup(text);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(
      el("button", { type: "button", class: "move", "data-action": "move", "data-move": actions[i], title: `action ${actions[i]}` }, text),
    );
  });
  for (const [key, buttons] of groups) {
    box.append(el("fieldset", { class: "group", "data-group": key }, el("legend", {}, `${key} (${buttons.length})`), buttons));
  }
}

function renderHints() {
  const box = $("#hints");
  box.replaceChildren();
  if (!S.hints) return;
  box.append(el("h2", {}, "Hints (ISMCTS)"));
  for (const h of S.hints) {
    const value = h.value === null ? "" : ` · value ${h.value.toFixed(2)}`;
    const visits = h.visits === null ? "" : ` · ${h.visits} visits`;
    box.append(el("button", { type: "button", class: "move hint", "data-action": "hint-move", "data-move": h.action }, h.move, el("small", {}, visits + value)));
  }
}

function renderLog() {
  const box = $("#log");
  box.replaceChildren(
    ...S.log.map((entry) =>
      el("li", { class: entry.who === "you" ? "mine" : "bot", "data-seat": entry.seat }, chip(entry.seat), `seat ${entry.seat} (${entry.who}): ${entry.move}`),
    ),
  );
  box.scrollTop = box.scrollHeight;
}

function winnersText(winners) {
  if (!winners.length) return S.players === 1 ? "Jana wins (no winner among the seats)" : "no winner";
  return "winner" + (winners.length > 1 ? "s" : "") + ": " + winners.map((w) => `seat ${w}${w === S.human ? " (you)" : ""}`).join(", ");
}

function renderResult() {
  const box = $("#result");
  box.hidden = !S.status.is_over;
  box.replaceChildren();
  if (!S.status.is_over) return;
  const { scores, winners } = S.status;
  box.dataset.scores = JSON.stringify(scores);
  box.dataset.winners = JSON.stringify(winners);
  const rows = scores.map((score, seat) =>
    el("tr", { class: winners.includes(seat) ? "winner" : "" }, el("td", {}, seatLabel(seat)), el("td", { class: "num", "data-score": seat }, score), el("td", {}, winners.includes(seat) ? "★ winner" : "")),
  );
  box.append(
    el("h2", {}, "Final scores"),
    el("table", { class: "scores" }, el("tbody", {}, rows)),
    el("p", { class: "winners" }, winnersText(winners)),
  );
  if (S.view && S.view.jana && S.view.jana.score !== null) box.append(el("p", {}, `Jana scored ${S.view.jana.score}`));
  if (S.record) {
    const text = JSON.stringify(S.record);
    box.append(
      el("a", { "data-action": "record", download: `${S.game}-${S.seed}.json`, href: "data:application/json;charset=utf-8," + encodeURIComponent(text) }, "Download the game record"),
    );
  }
}

// ------------------------------------------------------------------ drawing: the boards

function renderBoard() {
  const board = $("#board");
  const draw = BOARDS[S.view.game];
  board.className = `board ${S.view.game}`;
  board.replaceChildren(draw(S.view, S.catalog || {}));
}

function panel(title, ...children) {
  return el("section", { class: "panel" }, el("h3", {}, title), children);
}

function table(headers, rows, attrs) {
  return el("table", attrs || {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))), el("tbody", {}, rows));
}

// Sirens in Sight: five ship cards between the two seats' sides.
function sirensCard(card, extra) {
  const classes = ["card", `emblem-${card.emblem}`];
  if (card.crew) classes.push("crew");
  return el(
    "span",
    { class: classes.join(" "), title: `${card.value} · ${card.emblem}${card.crew ? " · crew" : ""}` },
    card.crew ? `${card.value}⚓` : card.value,
    el("small", {}, card.emblem === "seastar" ? "star" : card.emblem),
    card.octopus !== null ? el("span", { class: "octopus", title: `seat ${card.octopus}'s octopus`, style: `background:${COLORS[card.octopus]}` }, "oct") : null,
    extra || null,
  );
}

function drawSirens(v) {
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
        el("div", { class: "cards" }, ship.sides[seat].map((c) => sirensCard(c))),
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
    panel("Your hand", el("div", { class: "cards hand" }, v.hand.length ? v.hand.map((c) => sirensCard(c)) : el("span", { class: "muted" }, "empty"))),
    v.own_pile ? panel("Your remaining cards", el("div", { class: "cards" }, v.own_pile.map((c) => sirensCard(c)))) : null,
    panel("Seats", table(["seat", "points", "hand", "rum", "octopus"], seats)),
    panel("Crew", el("ul", {}, crew), v.crew_choice ? el("p", {}, `crew choice: ships ${v.crew_choice.join(" and ")}`) : null),
    v.removed.length ? panel("Removed cards", el("div", { class: "cards" }, v.removed.map((c) => sirensCard(c)))) : null,
  );
}

// Dream Islands: the airplane, eight islands around the middle, each seat's pieces.
function pips(counts) {
  const out = [];
  counts.forEach((n, seat) => {
    for (let i = 0; i < n; i++) out.push(el("span", { class: "pip", style: `background:${COLORS[seat]}`, title: `seat ${seat}` }));
  });
  return out.length ? out : [el("span", { class: "muted" }, "—")];
}

function drawDreamIslands(v, cat) {
  const missions = cat.missions || [];
  const name = (m) => `[${m}] ${missions[m] || "mission " + m}`;
  const places = [el("div", { class: "place airplane" }, el("div", { class: "place-name" }, "✈ airplane"), el("div", {}, pips(v.seats.map((s) => s.airplane))))];
  for (let i = 0; i < 8; i++) {
    places.push(
      el("div", { class: "place island" }, el("div", { class: "place-name" }, `island ${i + 1}${i === 7 ? " ♥" : ""}`), el("div", {}, pips(v.seats.map((s) => s.islands[i])))),
    );
  }
  const small = v.small_islands.map((owner, i) =>
    el("span", { class: "small-island", style: owner >= 0 ? `background:${COLORS[owner]};color:#fff` : "" }, `${[3, 2, 2][i]} pts${owner >= 0 ? " · seat " + owner : ""}`),
  );
  places.push(el("div", { class: "place middle" }, el("div", { class: "place-name" }, "middle"), el("div", {}, small), el("div", {}, pips(v.seats.map((s) => s.middle)))));
  const seats = v.seats.map((s) =>
    el(
      "tr",
      { class: s.seat === v.current_player ? "to-move" : "" },
      el("td", {}, seatLabel(s.seat)),
      el("td", { class: "num" }, s.score),
      el("td", { title: s.completed.map(name).join("\n") }, `${s.completed.length}/16`),
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

// Atlantic Star: the four seas with their plaques, the charter agency, the seats.
function shipCard(ship, price) {
  return el(
    "div",
    { class: "ship-card" + (ship && ship.mail ? " mail" : "") },
    price !== undefined ? el("div", { class: "price" }, price ? fmt(price) : "free") : null,
    ship ? el("div", { class: "ship-name" }, ship.name) : el("div", { class: "muted" }, "empty"),
    ship ? el("div", { class: "legs" }, ship.mail ? "mail: 1 on any leg" : ship.legs.join(" · ")) : null,
  );
}

function drawAtlanticStar(v) {
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

// Dream Cruise: each seat's ship board (cabins, additions), location card and routes.
function drawDreamCruise(v, cat) {
  const fam = (id) => (cat.families && id >= 0 ? cat.families[id] : null);
  const loc = (id) => (cat.locations && id >= 0 ? cat.locations[id] : null);
  const ship = (id) => (cat.ships && id >= 0 ? cat.ships[id] : null);
  const act = (a) => (a ? `${a.type} for ${a.capacity}` : "");
  const cabins = ["inner", "oceanview", "balcony"];
  const guests = (list) => (list.length ? list.map((c) => el("span", { class: `guest cabin-${c}`, title: cabins[c] }, cabins[c])) : el("span", { class: "muted" }, "—"));
  const seatBoard = (s) => {
    const rows = s.families.map((f, c) => {
      const family = fam(f);
      return el(
        "tr",
        {},
        el("th", {}, cabins[c]),
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

const BOARDS = {
  sirens: drawSirens,
  dream_islands: drawDreamIslands,
  atlantic_star: drawAtlanticStar,
  dream_cruise: drawDreamCruise,
};

// ------------------------------------------------------------------ wiring

async function start() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  S.conn = new Connection(`${scheme}://${location.host}/ws`);
  $("#setup").addEventListener("submit", (event) => {
    event.preventDefault();
    guarded(newGame);
  });
  $("#side").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || button.disabled || S.busy) return;
    const action = button.dataset.action;
    if (action === "move" || action === "hint-move") guarded(() => play(Number(button.dataset.move)));
    else if (action === "undo") guarded(undo);
    else if (action === "hint") guarded(hint);
  });
  $("#filter").addEventListener("input", () => renderMoves());
  await guarded(async () => {
    await S.conn.ready;
    const hello = await S.conn.send({ cmd: "hello", version: 1 });
    document.title = `cruiselib ${hello.cruiselib}: play against a bot`;
    await fillSetup();
    $("#status").textContent = "Choose a game and press New game.";
    if (new URLSearchParams(location.search).has("autostart")) await newGame();
  });
}

start();
