// cruiselib web: a person plays one seat, a bot the others, over the engine protocol
// (docs/protocol.md) on a WebSocket. Every board is drawn from the seat's view alone, and
// the game is opened with that seat as its player: no reply names a bot's hidden choice.
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

function panel(title, ...children) {
  return el("section", { class: "panel" }, el("h3", {}, title), children);
}

function table(headers, rows, attrs) {
  return el("table", attrs || {}, el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))), el("tbody", {}, rows));
}

// A JSON resource of the server (`posted`: sent as JSON in a POST); rejects with the server's error
// when it has no such thing.
async function getJSON(url, posted) {
  const response = await fetch(url, posted === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(posted) });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `${url}: HTTP ${response.status}`);
  return body;
}

// ------------------------------------------------------------------ the games' drawers

// The page knows no game: each game's board is drawn by a script of the game's own package,
// served at its catalog's `drawer` URL and loaded before its first board. The script calls
// cruiselib.registerDrawer(name, draw, hooks): draw(view, catalog) returns the board's DOM
// node for a seat's view; the optional hooks are winners(view, winners), the final scores'
// winners line (null: the page's own), and result(view), one more node for the final
// scores (or null). Two more hooks let a person play on the board (see "playing on the
// board" below): move(text, view, catalog), the board objects a legal move acts on, and
// kinds, a short explanation of each kind of move. What a person reads besides the board:
// detail(text, view, catalog), the content of the card a move names (a node or text shown beside the move
// where it is chosen, or null); events(before, after, catalog), lines for what the rules
// did on their own between two views of the person's seat (an automatic rival's turn).
// How to win and how the game ends (the page's "How to win" box) are the game's own
// declarations, in its catalog (`rules`: { goal, end }); why a finished game ended is the
// game's too, asked of the server with the game's record (POST /ending).
// The helpers the drawers share are on `cruiselib` too. A game's board styles, its
// drawer's `.css` beside the script, are loaded with it.
const DRAWERS = new Map(); // drawer URL -> { name, draw, winners?, result?, move?, kinds?, detail?, events? }
const LOADING = new Map(); // drawer URL -> the promise of its drawer

function registerDrawer(name, draw, hooks) {
  if (typeof draw !== "function") throw new TypeError(`cruiselib.registerDrawer("${name}"): draw is not a function`);
  // Keyed by the URL the page loaded the script from: a game registered under a new name
  // may share another game's drawer script.
  const script = document.currentScript;
  if (script && script.dataset.drawer) DRAWERS.set(script.dataset.drawer, { ...(hooks || {}), name, draw });
}

window.cruiselib = Object.freeze({ registerDrawer, el, panel, table, seatLabel, chip, fmt, COLORS });

function loadDrawer(url) {
  if (!LOADING.has(url)) {
    const loading = new Promise((resolve, reject) => {
      const fail = (message) => {
        LOADING.delete(url); // a later game may try again
        reject(new Error(message));
      };
      const script = el("script", { src: url, "data-drawer": url });
      script.addEventListener("load", () => (DRAWERS.has(url) ? resolve(DRAWERS.get(url)) : fail(`${url} registered no board drawer`)));
      script.addEventListener("error", () => fail(`cannot load the board drawer ${url}`));
      // The board's styles (the drawer's .css): a game without any still plays.
      const styles = url.replace(/\.js$/, ".css");
      if (styles !== url && !document.querySelector(`link[data-drawer="${styles}"]`)) {
        document.head.append(el("link", { rel: "stylesheet", href: styles, "data-drawer": styles }));
      }
      document.head.append(script);
    });
    LOADING.set(url, loading);
  }
  return LOADING.get(url);
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
  games: [], // the games the server offers (/games, in its order), as the games command describes them
  bots: {}, // name -> search?, the bots the server offers (/bots)
  hintBot: null, // the server's hint bot (/bots)
  catalogs: {},
  catalog: null, // the game's catalog
  drawer: null, // the game's board drawer (registerDrawer)
  game: null, // the game's name
  gid: null,
  human: 0,
  opponent: null, // the bot of the other seats, chosen in the form from the server's list
  think: 0.3,
  seed: 0,
  players: 2,
  ply: 0,
  status: null, // current_player, is_over, scores, winners
  view: null,
  legal: { actions: [], moves: [] },
  onBoard: [], // per legal move: { kind, objects } from the drawer's move hook (or null)
  selection: [], // the board objects clicked so far for the move being chosen
  humanPlies: [], // the ply before each of the person's moves, for undo
  log: [], // {ply, seat, text, who, auto?}: each move as the engine said it to the person's seat;
  // auto: a line for what the rules did on their own after the move of ply (the drawer's events)
  record: null,
  ending: null, // why the finished game ended (POST /ending), null until the server says
  busy: 0,
};

function setBusy(delta) {
  S.busy += delta;
  document.body.dataset.busy = S.busy > 0 ? "1" : "0";
  for (const button of document.querySelectorAll("#side button")) button.disabled = S.busy > 0 || button.dataset.off === "1";
  if (S.gid && S.view) markBoard(); // no object is playable while the page waits
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
  if (!S.catalogs[game]) S.catalogs[game] = await getJSON(`/catalog/${encodeURIComponent(game)}`);
  return S.catalogs[game];
}

// ------------------------------------------------------------------ setup form

async function fillSetup() {
  const [offered, games, bots] = await Promise.all([getJSON("/games"), S.conn.send({ cmd: "games" }), getJSON("/bots")]);
  // The server's order (the registry's: by name); the first is the default choice.
  const described = new Map(games.games.map((game) => [game.name, game]));
  const counts = new Map(offered.games.map((game) => [game.game, game.player_counts]));
  S.games = offered.games
    .map((game) => described.get(game.game))
    .filter(Boolean)
    .map((game) => ({ ...game, player_counts: counts.get(game.name) }));
  for (const bot of bots.bots) S.bots[bot.name] = bot.search;
  S.hintBot = bots.hint;
  // Every catalog now, so the form changes at once; a game whose catalog fails is left out
  // (with a warning on the console), not the page: the other games still start.
  const loaded = await Promise.allSettled(S.games.map((game) => catalog(game.name)));
  loaded.forEach((result, k) => {
    if (result.status === "rejected") console.warn(`cruiselib: game ${S.games[k].name} left out: its catalog failed:`, result.reason);
  });
  S.games = S.games.filter((game, k) => loaded[k].status === "fulfilled");
  if (!S.games.length) throw new Error("the server offers no game that the page can start");
  const gameBox = $("#game");
  for (const game of S.games) gameBox.append(el("option", { value: game.name }, game.title));
  // The server's list: the bots a person may face (none that sees hidden cards).
  for (const bot of bots.bots) $("#opponent").append(el("option", { value: bot.name }, bot.name));
  const params = new URLSearchParams(location.search);
  for (const key of ["game", "opponent", "think", "seed", "position"]) if (params.has(key)) $("#" + key).value = params.get(key);
  fillPlayers(params.get("players"), params.get("seat"));
  gameBox.addEventListener("change", () => fillPlayers());
  $("#players").addEventListener("change", () => fillSeats());
}

// A game of one seat (a solo game) has no seat to choose and no bot to play against: the
// form hides both boxes then.
// The options a game's catalog names as its solo game's (`solo_options`, such as the
// rival's difficulty) show only then.
function showSoloForm() {
  const solo = Number($("#players").value) === 1;
  for (const id of ["#seat", "#opponent"]) $(id).closest("label").hidden = solo;
  $("#setup").dataset.solo = solo ? "1" : "0";
  const info = S.catalogs[$("#game").value];
  const soloOnly = new Set((info && info.solo_options) || []);
  for (const label of document.querySelectorAll("#options [data-option]")) label.hidden = !solo && soloOnly.has(label.dataset.option);
}

function fillPlayers(players, seat) {
  const game = S.games.find((g) => g.name === $("#game").value);
  const info = S.catalogs[game.name];
  const box = $("#players");
  box.dataset.game = game.name;
  box.replaceChildren();
  for (const n of game.player_counts) box.append(el("option", { value: n }, n));
  box.value = players || String(game.num_players);
  if (!box.value) box.value = String(game.num_players);
  fillOptions(info);
  fillSeats(seat);
}

// The options the game offers when it starts (its catalog's) but the number of players,
// which the form's own players box chooses: a select each, whose values are the choices'
// indexes, so that a choice keeps its JSON type in the `new` request.
const formOptions = (info) => info.options.filter((option) => option.name !== "players");

function fillOptions(info) {
  const choiceText = (choice) => (typeof choice === "string" ? choice.replace(/_/g, " ") : String(choice));
  $("#options").replaceChildren(
    ...formOptions(info).map((option) =>
      el(
        "label",
        { "data-option": option.name },
        `${option.label} `,
        el("select", { id: `option-${option.name}`, name: option.name }, option.choices.map((choice, i) => el("option", { value: i }, choiceText(choice)))),
      ),
    ),
  );
}

// The chosen options of the form, as `make` options.
function chosenOptions(info) {
  const options = {};
  for (const option of formOptions(info)) {
    const box = document.getElementById(`option-${option.name}`);
    if (box.closest("label").hidden) continue; // an option of another configuration (solo)
    options[option.name] = option.choices[Number(box.value)];
  }
  return options;
}

function fillSeats(seat) {
  const box = $("#seat");
  box.replaceChildren();
  const n = Number($("#players").value);
  for (let p = 0; p < n; p++) box.append(el("option", { value: p }, p));
  box.value = seat && Number(seat) < n ? seat : "0";
  showSoloForm();
}

// ------------------------------------------------------------------ playing

function budget() {
  return S.bots[S.opponent] ? { seconds: S.think } : {};
}

async function newGame() {
  const game = $("#game").value;
  const info = await catalog(game);
  const drawer = await loadDrawer(info.drawer); // before the game starts: its board is drawn next
  const options = { ...chosenOptions(info), players: Number($("#players").value) };
  const seedText = $("#seed").value.trim();
  const positionText = $("#position").value.trim();
  let human = Number($("#seat").value);
  // The person's seat as the game's player: the engine then never tells this page what a
  // bot's move hides from that seat (a card kept in hand, a mission put under the pile).
  // A described position that is one seat's view makes that seat the person's own.
  const request = { cmd: "new", game, options, player: human };
  if (positionText) {
    request.position = positionText;
    delete request.player;
  }
  if (seedText) request.seed = /^\d+$/.test(seedText) ? Number(seedText) : seedText;
  if (S.gid) await S.conn.send({ cmd: "close", game_id: S.gid }).catch(() => {});
  const reply = await S.conn.send(request);
  if (positionText && reply.player !== null && reply.player !== undefined) {
    human = reply.player;
    $("#seat").value = String(human);
  }
  Object.assign(S, {
    game,
    gid: reply.game_id,
    human,
    opponent: $("#opponent").value,
    think: Math.max(0.05, Number($("#think").value) || 0.3),
    seed: typeof reply.seed === "number" ? reply.seed : 0,
    players: reply.num_players,
    ply: reply.ply,
    status: reply,
    humanPlies: [],
    log: [],
    record: null,
    ending: null,
    hints: null,
    catalog: info,
    drawer,
  });
  $("#seed").placeholder = String(reply.seed);
  showRules(!rulesSeen(game)); // how to win, open at a person's first game of it
  await botsMove();
  await refresh(true);
}

// A move played (an apply or bot reply): its text as said to the person's seat in its
// position (a bot's hidden choice said by its public text, its action then null).
function noteMove(reply, who) {
  S.log.push({ ply: S.ply, seat: reply.seat, text: reply.text ?? reply.move, who });
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

// The seat's view and moves now; unless `fresh` (a new game, an undo), the drawer's lines
// for what the rules did on their own since the last view join the log.
async function refresh(fresh) {
  const [view, legal] = await Promise.all([
    S.conn.send({ cmd: "view", game_id: S.gid, seat: S.human }),
    S.conn.send({ cmd: "legal", game_id: S.gid, seat: S.human }),
  ]);
  if (!fresh && S.view && S.drawer.events && S.ply > 0) {
    for (const text of S.drawer.events(S.view, view.view, S.catalog) || []) S.log.push({ ply: S.ply - 1, seat: null, text, who: null, auto: true });
  }
  S.view = view.view;
  S.legal = legal;
  S.selection = [];
  if (S.status.is_over && !S.record) {
    S.record = (await S.conn.send({ cmd: "save", game_id: S.gid, snapshot: false })).record;
    S.ending = await endingOf(S.record);
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
  S.ending = null;
  S.hints = null;
  await refresh(true);
}

async function hint() {
  const reply = await S.conn.send({
    cmd: "hint",
    game_id: S.gid,
    seat: S.human,
    bot: S.hintBot,
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
  renderBoard(); // first: the status says what the person does now from the board's moves
  renderStatus();
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
  let now = null;
  if (S.status.is_over) {
    box.dataset.state = "over";
    const ending = endingText();
    text = ending ? `Game over. ${ending}` : "Game over";
  } else if (S.status.current_player === S.human) {
    box.dataset.state = "your-turn";
    text = `Your turn (seat ${S.human})`;
    now = el("div", { class: "now", "data-now": "1" }, nowText());
  } else {
    box.dataset.state = "waiting";
    text = `Seat ${S.status.current_player} to move`;
  }
  const rulesButton = S.catalog && S.catalog.rules ? el("button", { type: "button", class: "rules-button", "data-action": "rules", "aria-expanded": $("#rules").hidden ? "false" : "true" }, "How to win") : null;
  box.replaceChildren(rulesButton || "", el("strong", {}, title), ` · ${S.players} player${S.players === 1 ? "" : "s"} · seed ${S.seed} · `, text, now || "");
}

// What the person does now, from the kinds of their legal moves: "now: play, octopus or end".
function nowText() {
  const kinds = [...new Set(S.legal.moves.map((text, i) => (S.onBoard[i] ? S.onBoard[i].kind : moveGroup(text))))];
  const said = kinds.length > 1 ? `${kinds.slice(0, -1).join(", ")} or ${kinds[kinds.length - 1]}` : kinds[0] || "";
  return `now: ${said}`;
}

// ------------------------------------------------------------------ how to win, how it ends

function rulesSeen(game) {
  try {
    return localStorage.getItem(`cruiselib-rules-${game}`) === "1";
  } catch {
    return false; // no storage (a private window): the rules open at every game
  }
}

function showRules(open) {
  const box = $("#rules");
  const rules = S.catalog && S.catalog.rules;
  if (!rules || !open) {
    box.hidden = true;
    return;
  }
  box.replaceChildren(
    el("button", { type: "button", class: "close", "data-action": "close-rules", "aria-label": "close" }, "×"),
    el("h2", {}, `${S.catalog.title}: how to win`),
    el("p", { "data-rules": "goal" }, rules.goal),
    el("p", { "data-rules": "end" }, el("b", {}, "The end. "), rules.end),
  );
  box.hidden = false;
  try {
    localStorage.setItem(`cruiselib-rules-${S.game}`, "1");
  } catch {
    // no storage: nothing to remember
  }
}

// Why the game ended, as the game says it (Game.end_reason, from the server), else none.
function endingText() {
  return S.status.is_over ? S.ending : null;
}

// Why the game of a record ended (the server replays it); null, with a warning on the
// console, when the server cannot say: the result still shows.
async function endingOf(record) {
  try {
    return (await getJSON("/ending", record)).reason;
  } catch (error) {
    console.warn("cruiselib: why the game ended is unknown:", error);
    return null;
  }
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
  const helps = new Map();
  moves.forEach((text, i) => {
    if (needle && !text.toLowerCase().includes(needle)) return;
    const key = moveGroup(text);
    if (!groups.has(key)) groups.set(key, []);
    if (!helps.has(key)) helps.set(key, kindHelp(i));
    groups.get(key).push(
      el("button", { type: "button", class: "move", "data-action": "move", "data-move": actions[i], title: `action ${actions[i]}` }, text),
    );
  });
  for (const [key, buttons] of groups) {
    const help = helps.get(key);
    box.append(
      el(
        "fieldset",
        { class: "group", "data-group": key },
        el("legend", {}, `${key} (${buttons.length})`),
        help ? el("p", { class: "kind-help" }, help) : null,
        buttons,
      ),
    );
  }
}

// A hint's value is the search's mean result after the move, from -1 (a loss) to +1 (a
// win): shown as a chance to win, and each move against the best one, since a hard
// position makes every move's value low without any being a mistake.
const winChance = (value) => Math.round(((Math.max(-1, Math.min(1, value)) + 1) / 2) * 100);

function renderHints() {
  const box = $("#hints");
  box.replaceChildren();
  if (!S.hints) return;
  box.append(el("h2", {}, `Hints (${S.hintBot})`));
  const values = S.hints.map((h) => h.value).filter((v) => v !== null);
  const best = values.length ? Math.max(...values) : null;
  for (const h of S.hints) {
    let said = "";
    if (h.value !== null) {
      const behind = winChance(best) - winChance(h.value);
      said = ` · about ${winChance(h.value)}% to win · ${behind <= 0 ? "the best found" : `${behind} points below the best`}`;
    }
    const visits = h.visits === null ? "" : ` · tried ${h.visits} times`;
    box.append(
      el(
        "button",
        { type: "button", class: "move hint", "data-action": "hint-move", "data-move": h.action, "data-value": h.value ?? "" },
        h.text ?? h.move,
        el("small", {}, said + visits),
      ),
    );
  }
  box.append(
    el(
      "p",
      { class: "kind-help", "data-hint-help": "1" },
      "The search plays the game on from each move many times; the chance to win is how often that went well for you (the score margin counts too in some games). " +
        "Compare the moves with each other: when every chance is low, the position is hard, not every move a mistake.",
    ),
  );
}

function renderLog() {
  const box = $("#log");
  box.replaceChildren(
    ...S.log.map((entry) =>
      entry.auto
        ? el("li", { class: "auto" }, entry.text)
        : el("li", { class: entry.who === "you" ? "mine" : "bot", "data-seat": entry.seat }, chip(entry.seat), `seat ${entry.seat} (${entry.who}): ${entry.text}`),
    ),
  );
  box.scrollTop = box.scrollHeight;
}

function winnersText(winners) {
  const told = S.drawer.winners ? S.drawer.winners(S.view, winners) : null;
  if (told) return told;
  if (!winners.length) return S.players > 1 ? "a draw: no seat won" : "you did not win";
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
  const ending = endingText();
  box.append(
    el("h2", {}, "Final scores"),
    ending ? el("p", { class: "ending", "data-ending": "1" }, ending) : null,
    el("table", { class: "scores" }, el("tbody", {}, rows)),
    el("p", { class: "winners" }, winnersText(winners)),
  );
  const more = S.drawer.result ? S.drawer.result(S.view) : null;
  if (more) box.append(more);
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
  board.className = `board ${S.view.game}`;
  board.replaceChildren(S.drawer.draw(S.view, S.catalog));
  S.onBoard = S.legal.moves.map((text) => boardMove(text));
  S.selection = [];
  hideChoice();
  markBoard();
}

// ------------------------------------------------------------------ playing on the board

// The drawer draws every object a person would touch (a card, a ship, an island, a cabin)
// with data-object="key", and maps each legal move to the keys of the objects it acts on:
// hooks.move(text, view, catalog) -> { kind, objects: [key, ...] }, or null for a move the
// board cannot show (it stays in the move list). A click on an object narrows the legal
// moves to those acting on it and on the objects clicked before: one left is played; more
// are offered as a small choice next to the object, and the other objects they act on are
// marked as targets (a click on one narrows further). hooks.kinds explains each kind.
function boardMove(text) {
  if (!S.drawer.move) return null;
  const info = S.drawer.move(text, S.view, S.catalog);
  if (!info || !Array.isArray(info.objects) || !info.objects.length) return null;
  return { kind: info.kind || moveGroup(text), objects: info.objects.map(String) };
}

// The drawer's explanation of legal move i's kind, or "".
function kindHelp(i) {
  const info = S.onBoard[i];
  const kinds = S.drawer && S.drawer.kinds;
  return info && kinds && Object.hasOwn(kinds, info.kind) ? String(kinds[info.kind]) : "";
}

// The legal moves (their indexes) that act on every object of `keys`.
function movesOn(keys) {
  const out = [];
  S.onBoard.forEach((info, i) => {
    if (info && keys.every((key) => info.objects.includes(key))) out.push(i);
  });
  return out;
}

function myTurn() {
  return S.gid && S.status && !S.status.is_over && S.status.current_player === S.human;
}

// Marks the board's objects: playable (some legal move acts on it), selected (clicked for
// the move being chosen), target (a move of the choice acts on it too).
function markBoard() {
  const board = $("#board");
  const live = myTurn() && S.busy === 0;
  const used = new Set();
  const targets = new Set();
  S.onBoard.forEach((info) => info && info.objects.forEach((key) => used.add(key)));
  if (S.selection.length) for (const i of movesOn(S.selection)) S.onBoard[i].objects.forEach((key) => targets.add(key));
  const drawn = new Set();
  for (const node of board.querySelectorAll("[data-object]")) {
    const key = node.dataset.object;
    drawn.add(key);
    const playable = live && used.has(key);
    node.classList.toggle("playable", playable);
    node.classList.toggle("selected", playable && S.selection.includes(key));
    node.classList.toggle("target", playable && targets.has(key) && !S.selection.includes(key));
    if (playable) {
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
    } else {
      node.removeAttribute("tabindex");
      node.removeAttribute("role");
    }
  }
  // The legal moves no drawn object plays (the move list's alone).
  board.dataset.unmapped = String(S.onBoard.filter((info) => !info || !info.objects.some((key) => drawn.has(key))).length);
}

function clearSelection() {
  S.selection = [];
  hideChoice();
  markBoard();
}

// A click on the playable objects `nodes` (the innermost first: a card on a ship's side,
// then the side): the innermost that goes with the objects chosen before (a hand card
// chosen, a click on a card of a side is a click on the side), else the innermost.
function boardClick(nodes) {
  const playable = nodes.filter((node) => node.classList.contains("playable"));
  if (!playable.length || S.busy) return clearSelection();
  const fits = (node) => {
    const key = node.dataset.object;
    return S.selection.length && !S.selection.includes(key) && movesOn([...S.selection, key]).length;
  };
  const node = playable.find(fits) || playable[0];
  const key = node.dataset.object;
  let keys = S.selection.includes(key) ? S.selection.filter((k) => k !== key) : [...S.selection, key];
  if (!keys.length) return clearSelection(); // the only selected object clicked again
  let found = movesOn(keys);
  if (!found.length) {
    // Not with the objects chosen before: a fresh choice from this object.
    keys = [key];
    found = movesOn(keys);
  }
  if (found.length === 1) {
    S.selection = [];
    hideChoice();
    guarded(() => play(S.legal.actions[found[0]]));
    return;
  }
  S.selection = keys;
  markBoard();
  showChoice(node, found);
}

// A move's content where it is chosen: the drawer's detail of the card it names, or null.
function moveDetail(i) {
  if (!S.drawer.detail) return null;
  const detail = S.drawer.detail(S.legal.moves[i], S.view, S.catalog);
  return detail ? el("span", { class: "detail" }, detail) : null;
}

// The moves left after the clicks, as buttons beside the object clicked last, placed where
// they cover none of the objects marked for the choice (and, where there is room, no
// other playable object either).
function showChoice(anchor, found) {
  const box = $("#choice");
  const helps = [...new Set(found.map(kindHelp).filter(Boolean))];
  box.replaceChildren(
    el("button", { type: "button", class: "close", "data-action": "close-choice", title: "hide the list (the marked objects stay)", "aria-label": "close" }, "×"),
    ...helps.map((help) => el("p", { class: "kind-help" }, help)),
    el("p", { class: "muted" }, `${found.length} moves: pick one, or click a marked object`),
    el(
      "div",
      { class: "choices" },
      found.map((i) => el("button", { type: "button", class: "move", "data-action": "move", "data-move": S.legal.actions[i] }, S.legal.moves[i], moveDetail(i))),
    ),
  );
  box.hidden = false;
  placeChoice(box, anchor);
}

// Rectangles (in #table's coordinates) and whether two overlap.
const overlaps = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

function placeChoice(box, anchor) {
  const tableNode = $("#table");
  const table = tableNode.getBoundingClientRect();
  const width = Math.min(360, table.width);
  box.style.width = `${width}px`;
  box.style.left = "0px";
  box.style.top = "0px";
  const height = box.getBoundingClientRect().height;
  const local = (r) => ({ left: r.left - table.left, right: r.right - table.left, top: r.top - table.top, bottom: r.bottom - table.top });
  const rectsOf = (selector) => [...$("#board").querySelectorAll(selector)].flatMap((node) => [...node.getClientRects()].map(local));
  const marked = rectsOf("[data-object].selected, [data-object].target");
  const playable = rectsOf("[data-object].playable");
  const at = local(anchor.getBoundingClientRect());
  const all = marked.concat([at]);
  const lowest = Math.max(...all.map((r) => r.bottom));
  const highest = Math.min(...all.map((r) => r.top));
  const clampX = (x) => Math.max(0, Math.min(x, table.width - width));
  // Beside the anchor first (below, above, right, left), then below or above every marked object.
  const spots = [
    [clampX(at.left), at.bottom + 4],
    [clampX(at.left), at.top - height - 4],
    [at.right + 4, at.top],
    [at.left - width - 4, at.top],
    [clampX(at.left), lowest + 4],
    [clampX(at.left), highest - height - 4],
  ].map(([left, top]) => ({ left, top, right: left + width, bottom: top + height }));
  const inside = (r) => r.left >= 0 && r.right <= table.width + 0.5 && r.top >= 0;
  const free = (r, rects) => !rects.some((o) => overlaps(r, o));
  const spot =
    spots.find((r) => inside(r) && free(r, playable)) ||
    spots.find((r) => inside(r) && free(r, marked)) ||
    spots[4]; // below every marked object: always free of them
  box.style.left = `${spot.left}px`;
  box.style.top = `${spot.top}px`;
  box.dataset.placed = String(spots.indexOf(spot));
}

function hideChoice() {
  const box = $("#choice");
  box.hidden = true;
  box.replaceChildren();
}

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
  $("#table").addEventListener("click", (event) => {
    const button = event.target.closest('button[data-action="rules"], button[data-action="close-rules"]');
    if (!button) return;
    showRules(button.dataset.action === "rules" && $("#rules").hidden);
    renderStatus();
  });
  // The objects under the pointer, the innermost first.
  const objectsAt = (target) => {
    const out = [];
    for (let node = target.closest("[data-object]"); node; node = node.parentElement && node.parentElement.closest("[data-object]")) out.push(node);
    return out;
  };
  $("#board").addEventListener("click", (event) => boardClick(objectsAt(event.target)));
  $("#board").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!event.target.closest("[data-object]")) return;
    event.preventDefault();
    boardClick(objectsAt(event.target));
  });
  $("#choice").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || S.busy) return;
    if (button.dataset.action === "close-choice") return hideChoice(); // the marked objects stay
    hideChoice();
    S.selection = [];
    guarded(() => play(Number(button.dataset.move)));
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && S.selection.length) clearSelection();
  });
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
