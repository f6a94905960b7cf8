#!/usr/bin/env node
// A client of the cruiselib engine protocol (docs/protocol.md) in plain Node.js (v18+),
// with no packages: it starts `python -m cruiselib serve`, shakes hands, and plays one
// whole game. Seat 0 plays uniformly random moves by their text (with the seat guard);
// every other seat asks the engine's bot to move for it. It also provokes one error on
// purpose (an illegal action) to show that an error reply leaves the session going.
//
//   node examples/node_client.js [game] [seed] [bot]
//   CRUISELIB_PYTHON=/path/to/python node examples/node_client.js dream_islands 7 greedy
//
// The last line printed is a JSON summary (scores, winners, the game's record).

'use strict';

const { spawn } = require('node:child_process');
const readline = require('node:readline');

class EngineError extends Error {
  constructor(code, message) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

// One engine process; requests carry increasing ids and replies are matched by id.
class Engine {
  constructor(python) {
    this.proc = spawn(python, ['-m', 'cruiselib', 'serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.pending = new Map();
    this.nextId = 1;
    this.exited = new Promise((resolve) => this.proc.on('exit', (code) => resolve(code)));
    this.proc.on('exit', (code) => {
      for (const { reject } of this.pending.values()) reject(new EngineError('engine_exited', `exit ${code}`));
      this.pending.clear();
    });
    const lines = readline.createInterface({ input: this.proc.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      const reply = JSON.parse(line);
      const waiting = this.pending.get(reply.id);
      if (!waiting) throw new Error(`a reply to no request: ${line}`);
      this.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply);
      else waiting.reject(new EngineError(reply.error.code, reply.error.message));
    });
  }

  request(cmd, fields = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.stdin.write(JSON.stringify({ cmd, id, ...fields }) + '\n');
    });
  }

  async quit() {
    await this.request('quit');
    return this.exited;
  }
}

// A small seeded generator (mulberry32), so the same seed plays the same game.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const [name = 'sirens', seedText = '1', botName = 'greedy'] = process.argv.slice(2);
  const seed = Number(seedText);
  const engine = new Engine(process.env.CRUISELIB_PYTHON || 'python3');
  const hello = await engine.request('hello', { version: 1 });
  if (hello.protocol !== 'cruiselib-engine' || hello.version !== 1) throw new Error('not a cruiselib engine');
  console.log(`engine: ${hello.protocol} v${hello.version}, cruiselib ${hello.cruiselib}`);

  const game = await engine.request('new', { game: name, seed });
  const id = game.game_id;
  console.log(`${game.game} (${game.num_players} seats) as ${id}`);
  const random = generator(seed);
  const errors = [];
  let plies = 0;
  let byText = 0;

  try {
    await engine.request('apply', { game_id: id, action: game.num_actions });
  } catch (error) {
    if (!(error instanceof EngineError) || error.code !== 'illegal_move') throw error;
    errors.push(error.code); // expected: the session goes on
  }

  for (;;) {
    const status = await engine.request('status', { game_id: id });
    if (status.is_over) break;
    const seat = status.current_player;
    if (seat === 0) {
      const view = await engine.request('view', { game_id: id, seat: 0 });
      if (view.view.player !== 0) throw new Error('the view is not seat 0\'s');
      const legal = await engine.request('legal', { game_id: id, seat: 0 });
      const text = legal.moves[Math.floor(random() * legal.moves.length)];
      const done = await engine.request('apply', { game_id: id, move: text, seat: 0 });
      if (done.move !== text || done.seat !== 0) throw new Error(`applied ${done.move}, not ${text}`);
      byText += 1;
    } else {
      await engine.request('bot', { game_id: id, bot: botName, seed: seed + seat, apply: true, seat });
    }
    plies += 1;
  }

  const final = await engine.request('status', { game_id: id });
  const saved = await engine.request('save', { game_id: id, snapshot: false, record: true });
  console.log(`game over after ${plies} moves: scores ${final.scores}, winners ${final.winners}`);
  const code = await engine.quit();
  console.log(
    JSON.stringify({
      game: name,
      plies,
      by_text: byText,
      scores: final.scores,
      winners: final.winners,
      errors,
      exit_code: code,
      record: saved.record,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
