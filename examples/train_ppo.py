"""PPO over BatchEnv in one file: a fast, seeded trainer for any cruiselib game.

CleanRL's PPO (GAE, the clipped objective, an entropy bonus, advantage normalisation,
gradient clipping) on :class:`cruiselib.envs.BatchEnv`, built to keep up with it: a small
MLP torso, large batches and few epochs, rollouts under ``torch.inference_mode``, and a
head that scores only the legal actions. Each action id has a row in an embedding table;
an action's score is that row's dot product with the torso's query vector plus the
action's bias, computed for the legal ids alone (about 30 of Sirens in Sight's 1,677, 6 of
Dream Cruise's 15,975), never a dense head over the whole action space.

Curriculum: for ``--opponent-steps`` learner steps the learner plays the core's compiled
opponents (``--opponents random`` or ``rollout``), in two BatchEnvs of half the envs each,
seated first in one and second in the other. Then the envs play themselves: in a share
(``--league-share``) the learner meets a frozen copy of itself drawn from a league of
snapshots (its seat alternating env by env), in ``--bot-share`` a cruiselib bot named by
``--bot`` (``rules``: its moves in a copy of the env's position), in ``--opponent-share``
still the compiled opponents, and in the rest both seats are the learner. Every ``--eval-every`` steps the
greedy policy plays ``--eval-games`` against the random bot and ``--eval-rules`` against
the game's rule-based bot (seat-rotated, each deal from both seats), and a line goes to
``--curve`` (CSV). ``--export`` writes the weights that ``cruiselib.bots.policy.from_file``
plays with numpy alone (``cruiselib.bots.policy``), labelled with what made them.

    python examples/train_ppo.py --game sirens --steps 20000000 --seed 1 \
        --export policy.npz --curve curve.csv

Sirens in Sight's shipped weights: 6 M steps of the defaults (``--seed 1``), then 12 M more
from them with ``--init`` and ``--bot rules --bot-share 0.2 --league-share 0.4 --lr 1e-3
--opponent-steps 0 --seed 2``; each weights file's ``meta`` records its commands.

Everything is seeded by ``--seed`` (the same command gives the same weights on one torch
thread). ``train_ppo.py --plot-curve CURVE.csv PLOT.png TITLE`` draws a curve (matplotlib).
docs/rl.md, "PPO example", has the measured speed and learning curves.
"""

from __future__ import annotations

import argparse
import copy
import csv
import importlib
import itertools
import json
import math
import shlex
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import cruiselib
from cruiselib.arena.stats import wilson
from cruiselib.bots import make_bot
from cruiselib.bots.policy import FORMAT, FORMAT_VERSION, configuration_of
from cruiselib.envs import BatchEnv
from cruiselib.errors import InvalidOptionError


def _optional(name: str) -> Any:
    """A module, or None where it is not installed: torch is not among cruiselib's extras,
    so the helpers here run (and type-check) without it; its objects are typed Any."""
    try:
        return importlib.import_module(name)
    except ImportError:  # pragma: no cover - the helpers only
        return None


torch: Any = _optional("torch")
nn: Any = None if torch is None else torch.nn

if torch is not None:
    # torch warns once per process that its sparse CSR tensors are beta: the head uses their
    # product alone, and builds its layouts valid (so the invariant checks are off too).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.sparse_csr_tensor(torch.tensor([0, 1]), torch.tensor([0]), torch.ones(1), check_invariants=False)

VERSION = "1"
"""This example's version, recorded in the weights it exports."""

Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion: (low, high) within [0, 1].

    >>> tuple(round(x, 4) for x in wilson_interval(50, 100))
    (0.4038, 0.5962)
    """
    if trials < 1 or not 0 <= successes <= trials:
        raise InvalidOptionError(
            f"a Wilson interval needs 0 <= successes <= trials and trials >= 1, not {successes} of {trials}"
        )
    return wilson(successes, trials, z)  # the arena's interval: one implementation


@dataclass(frozen=True)
class Record:
    """Games won, drawn and lost by the learner over an evaluation."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def win_rate(self) -> float:
        """Wins over games played (a draw is not a win)."""
        return self.wins / self.games if self.games else 0.0

    def describe(self) -> str:
        """One line: win rate, its 95% interval and the counts."""
        low, high = wilson_interval(self.wins, self.games)
        return (
            f"{self.win_rate:.1%} (95% CI {low:.1%}-{high:.1%}) of {self.games}: "
            f"{self.wins} won, {self.draws} drawn, {self.losses} lost"
        )


# --------------------------------------------------------------------------- legal actions


def legal_pairs(ids: npt.NDArray[np.int32], counts: npt.NDArray[np.int32]) -> tuple[Ints, Ints]:
    """The legal actions of ``BatchEnv.legal_actions()`` (ids padded with -1, counts) as
    pairs (row, action id), sorted by row."""
    rows = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    return rows, ids[ids >= 0].astype(np.int64)


def columns(rows: Ints, n: int) -> tuple[Ints, Ints]:
    """For sorted pair rows: each pair's column within its row, and each row's count."""
    counts = np.bincount(rows, minlength=n).astype(np.int64)
    starts = np.cumsum(counts) - counts
    return np.arange(len(rows), dtype=np.int64) - starts[rows], counts


# --------------------------------------------------------------------------- the network


if torch is not None:

    class LegalScores(torch.autograd.Function):  # type: ignore[misc]
        """``scores[p] = query[row p] · embedding[id p]`` for the legal pairs only, as a
        sparse (CSR) product: nothing of size pairs × width is ever made, forward or back."""

        @staticmethod
        def forward(ctx: Any, query: Any, embedding: Any, layout: Layout) -> Any:
            pattern = torch.sparse_csr_tensor(
                layout.crow,
                layout.ids,
                torch.zeros(len(layout.ids)),
                size=(query.shape[0], embedding.shape[0]),
                check_invariants=False,
            )
            ctx.save_for_backward(query, embedding)
            ctx.layout = layout
            return torch.sparse.sampled_addmm(pattern, query, embedding.T).values()

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            query, embedding = ctx.saved_tensors
            layout: Layout = ctx.layout
            n, a = query.shape[0], embedding.shape[0]
            by_row = torch.sparse_csr_tensor(
                layout.crow, layout.ids, grad.contiguous(), size=(n, a), check_invariants=False
            )
            by_action = torch.sparse_csr_tensor(
                layout.crow_t, layout.rows_t, grad[layout.perm_t], size=(a, n), check_invariants=False
            )
            return by_row @ embedding, by_action @ query, None

    class Agent(nn.Module):  # type: ignore[misc]
        """The MLP torso, the value head, and the head that scores legal action ids."""

        def __init__(self, observation_size: int, num_actions: int, hidden: Sequence[int], head: int) -> None:
            super().__init__()
            sizes = [observation_size, *hidden]
            self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in itertools.pairwise(sizes))
            for layer in self.layers:
                nn.init.orthogonal_(layer.weight, math.sqrt(2))
                nn.init.zeros_(layer.bias)
            self.query = nn.Linear(sizes[-1], head)
            self.value = nn.Linear(sizes[-1], 1)
            nn.init.orthogonal_(self.value.weight, 1.0)
            nn.init.zeros_(self.value.bias)
            # One row per action id, its bias in the last column (the query gets a 1 there).
            # Zero rows: every legal action starts equally likely, and an action never legal
            # in training keeps a zero row (the exported file compresses it away).
            self.embedding = nn.Parameter(torch.zeros(num_actions, head + 1))

        def features(self, observations: Any) -> Any:
            """The torso's output, ``[n, hidden]``."""
            h = observations
            for layer in self.layers:
                h = torch.relu(layer(h))
            return h

        def padded_scores(self, h: Any, layout: Layout) -> Any:
            """The legal actions' scores as ``[n, width]`` (-inf past each row's count)."""
            query = torch.cat([self.query(h), torch.ones(h.shape[0], 1)], 1)
            scores = LegalScores.apply(query, self.embedding, layout)
            padded = torch.full((h.shape[0], layout.width), -math.inf, dtype=scores.dtype)
            return padded.index_put((layout.rows, layout.cols), scores)

        def values(self, h: Any) -> Any:
            """The value head, ``[n]``."""
            return self.value(h).squeeze(1)


@dataclass(frozen=True)
class Layout:
    """Legal pairs (row, action id) sorted by row, as the head's tensors: CSR by row
    (``crow``, ``ids``), each pair's column in its row (``cols``), the widest row, and for
    the backward pass the same pairs by action (``crow_t``, ``rows_t``, order ``perm_t``)."""

    rows: Any
    ids: Any
    cols: Any
    crow: Any
    width: int
    crow_t: Any
    rows_t: Any
    perm_t: Any
    counts: Ints

    @staticmethod
    def of(rows: Ints, ids: Ints, n: int, num_actions: int, backward: bool = False) -> Layout:
        """The layout of ``n`` rows' pairs (each row has at least one)."""
        cols, counts = columns(rows, n)
        crow = np.zeros(n + 1, np.int64)
        np.cumsum(counts, out=crow[1:])
        if backward:
            perm = np.argsort(ids, kind="stable")
            crow_t = np.zeros(num_actions + 1, np.int64)
            np.cumsum(np.bincount(ids, minlength=num_actions), out=crow_t[1:])
            rows_t, perm_t = torch.from_numpy(rows[perm]), torch.from_numpy(perm)
            crow_t_t = torch.from_numpy(crow_t)
        else:
            crow_t_t = rows_t = perm_t = None
        return Layout(
            rows=torch.from_numpy(rows),
            ids=torch.from_numpy(ids),
            cols=torch.from_numpy(cols),
            crow=torch.from_numpy(crow),
            width=int(counts.max()),
            crow_t=crow_t_t,
            rows_t=rows_t,
            perm_t=perm_t,
            counts=counts,
        )


def scores(agent: Any, observations: Floats, rows: Ints, ids: Ints) -> tuple[Floats, Floats]:
    """The legal actions' scores ``[n, K]`` (-inf past each row's count) and the values
    ``[n]`` of ``n`` observations, without gradients."""
    layout = Layout.of(rows, ids, len(observations), agent.embedding.shape[0])
    with torch.inference_mode():
        h = agent.features(torch.from_numpy(observations))
        padded = agent.padded_scores(h, layout).numpy()
        values = agent.values(h).numpy()
    return padded, values


def log_softmax(padded: Floats) -> Floats:
    """Row-wise log-softmax of scores padded with -inf."""
    z = padded - padded.max(1, keepdims=True)
    out: Floats = z - np.log(np.exp(z).sum(1, keepdims=True))
    return out


# --------------------------------------------------------------------------- the envs


@dataclass
class Group:
    """A BatchEnv and who plays each of its envs: ``learner_seat[i]`` is the learner's
    seat in env i (-1: every seat is the learner, self-play), ``frozen[i]`` whether the
    other seats are the frozen opponent, ``bots[i]`` a cruiselib bot playing them (None:
    neither, so uniformly random legal moves in an env without compiled opponents)."""

    env: BatchEnv
    learner_seat: npt.NDArray[np.int64]
    frozen: npt.NDArray[np.bool_]
    compiled: bool
    bots: list[Any] = field(default_factory=list)


def make_groups(game: Any, args: argparse.Namespace, phase: int, seed: int) -> list[Group]:
    """The envs of a phase: 0, the compiled opponents (half the envs per seat in a 2-seat
    game, seats in turn otherwise); 1, self-play with the league and compiled shares."""
    n, players = args.envs, game.num_players
    common: dict[str, Any] = {"autoreset": "same_step", "max_steps": args.max_steps}
    if players == 1:
        env = BatchEnv(game, n, seed=seed, **common)
        return [Group(env, np.zeros(n, np.int64), np.zeros(n, np.bool_), True)]
    compiled = n if phase == 0 else round(n * args.opponent_share)
    groups = []
    if compiled:
        for seat in range(players):
            size = compiled // players + (1 if seat < compiled % players else 0)
            if size:
                env = BatchEnv(
                    game, size, seed=seed + 7919 * (seat + 1), learner=seat, opponents=args.opponents, **common
                )
                groups.append(Group(env, np.full(size, seat, np.int64), np.zeros(size, np.bool_), True))
    rest = n - compiled
    if rest:
        env = BatchEnv(game, rest, seed=seed, **common)
        league = round(rest * args.league_share)
        with_bot = round(rest * args.bot_share) if args.bot else 0
        seats = np.full(rest, -1, np.int64)
        seats[: league + with_bot] = np.arange(league + with_bot) % players
        frozen = np.zeros(rest, np.bool_)
        frozen[:league] = True
        bots: list[Any] = [None] * rest
        for i in range(league, league + with_bot):
            bots[i] = make_bot(args.bot, seed=seed * 7919 + i)
        groups.append(Group(env, seats, frozen, False, bots))
    return groups


# --------------------------------------------------------------------------- the rollout


@dataclass
class Rollout:
    """One rollout of every env, ``[steps, envs]`` (envs of all groups side by side)."""

    observations: Floats
    learn: npt.NDArray[np.bool_]
    seats: npt.NDArray[np.int64]
    values: Floats
    logps: Floats
    choices: Ints
    pair_starts: Ints
    pair_counts: Ints
    rewards: Floats  # [steps, envs, players]
    ended: npt.NDArray[np.bool_]
    ids: list[Ints] = field(default_factory=list)
    last_values: Floats | None = None
    last_seats: Ints | None = None
    last_learn: npt.NDArray[np.bool_] | None = None


def collect(agent: Any, frozen: Any, groups: list[Group], steps: int, players: int, stats: dict[str, float]) -> Rollout:
    """Play ``steps`` steps in every group: the learner where its seat is to act, the
    frozen opponent or uniformly random moves elsewhere, every env's action sampled in the
    core (``BatchEnv.choose``) from the scores of the legal actions. Counts finished games
    in ``stats``."""
    n = sum(g.env.num_envs for g in groups)
    size = groups[0].env.observation_size
    r = Rollout(
        observations=np.zeros((steps, n, size), np.float32),
        learn=np.zeros((steps, n), np.bool_),
        seats=np.zeros((steps, n), np.int64),
        values=np.zeros((steps, n), np.float32),
        logps=np.zeros((steps, n), np.float32),
        choices=np.zeros((steps, n), np.int64),
        pair_starts=np.zeros((steps, n), np.int64),
        pair_counts=np.zeros((steps, n), np.int64),
        rewards=np.zeros((steps, n, players), np.float32),
        ended=np.zeros((steps, n), np.bool_),
    )
    offset_pairs = 0
    for t in range(steps):
        lo = 0
        for g in groups:
            env, m = g.env, g.env.num_envs
            hi = lo + m
            seats = env.seats.astype(np.int64)
            learn = (g.learner_seat < 0) | (seats == g.learner_seat)
            ids, counts = env.legal_actions()
            rows, flat = legal_pairs(ids, counts)
            table = np.zeros(ids.shape, np.float32)  # zeros: uniformly random moves
            if frozen is not None and g.frozen.any():
                opp = np.flatnonzero(g.frozen & ~learn)
                if len(opp):
                    padded, _ = scores(frozen, env.observations[opp], *_subset(rows, flat, opp, m))
                    table[opp, : padded.shape[1]] = padded
            mine = np.flatnonzero(learn)
            sub_rows, sub_ids = _subset(rows, flat, mine, m)
            obs = env.observations[mine]
            padded, value = scores(agent, obs, sub_rows, sub_ids)
            table[mine, : padded.shape[1]] = padded
            actions = env.choose(table, layout="legal").copy()
            if g.bots:
                for i in np.flatnonzero(~learn):
                    if g.bots[i] is not None:  # a cruiselib bot: its move in a copy of the position
                        actions[i] = g.bots[i].choose(env.state(int(i)))
            choice = (ids[mine] == actions[mine, None]).argmax(1)
            cols = lo + mine
            r.observations[t, cols] = obs
            r.learn[t, cols] = True
            r.seats[t, cols] = seats[mine]
            r.values[t, cols] = value
            r.logps[t, cols] = log_softmax(padded)[np.arange(len(mine)), choice]
            r.choices[t, cols] = choice
            sub_counts = counts[mine].astype(np.int64)
            r.pair_counts[t, cols] = sub_counts
            r.pair_starts[t, cols] = offset_pairs + np.cumsum(sub_counts) - sub_counts
            r.ids.append(sub_ids)
            offset_pairs += len(sub_ids)
            step = env.step(actions)
            r.rewards[t, lo:hi] = step.rewards
            ended = step.terminated | step.truncated
            r.ended[t, lo:hi] = ended
            if ended.any():
                stats["games"] += float(ended.sum())
                mine_ended = ended & (g.learner_seat >= 0)
                if mine_ended.any():
                    won = step.rewards[np.flatnonzero(mine_ended), g.learner_seat[mine_ended]]
                    stats["learner_games"] += float(mine_ended.sum())
                    stats["learner_wins"] += float((won > 0).sum())
            lo = hi
    # Values of the positions the rollout stops at, to bootstrap from.
    r.last_values = np.zeros(n, np.float32)
    r.last_seats = np.zeros(n, np.int64)
    r.last_learn = np.zeros(n, np.bool_)
    lo = 0
    for g in groups:
        m = g.env.num_envs
        seats = g.env.seats.astype(np.int64)
        with torch.inference_mode():
            v = agent.values(agent.features(torch.from_numpy(g.env.observations))).numpy()
        r.last_values[lo : lo + m] = v
        r.last_seats[lo : lo + m] = seats
        r.last_learn[lo : lo + m] = (g.learner_seat < 0) | (seats == g.learner_seat)
        lo += m
    return r


def _subset(rows: Ints, ids: Ints, which: Ints, n: int) -> tuple[Ints, Ints]:
    """The pairs of the rows ``which`` (sorted), renumbered 0.. in that order."""
    position = np.full(n, -1, np.int64)
    position[which] = np.arange(len(which))
    keep = position[rows] >= 0
    return position[rows[keep]], ids[keep]


def advantages(r: Rollout, players: int, gamma: float, lam: float) -> tuple[Floats, Floats]:
    """GAE over each (env, seat) stream of decisions: a seat's next decision is its own
    next move in that env, whatever the other seats did in between; a game's rewards go to
    every seat's last decision. Returns (advantages, returns), ``[steps, envs]``."""
    steps, n = r.learn.shape
    assert r.last_values is not None and r.last_seats is not None and r.last_learn is not None
    next_value = np.zeros((n, players), np.float32)
    next_adv = np.zeros((n, players), np.float32)
    pending = np.zeros((n, players), np.float32)
    # A seat whose next decision lies past the rollout: the seat to act bootstraps from its
    # value there; the others from their own last value (a zero advantage for that move).
    cut = np.ones((n, players), np.bool_)
    envs = np.arange(n)
    known = r.last_learn
    next_value[envs[known], r.last_seats[known]] = r.last_values[known]
    cut[envs[known], r.last_seats[known]] = False
    adv = np.zeros((steps, n), np.float32)
    for t in range(steps - 1, -1, -1):
        ended = r.ended[t]
        if ended.any():
            next_value[ended] = 0.0
            next_adv[ended] = 0.0
            pending[ended] = r.rewards[t, ended]
            cut[ended] = False
        rows = np.flatnonzero(r.learn[t])
        seats = r.seats[t, rows]
        v = r.values[t, rows]
        nv = np.where(cut[rows, seats], v, next_value[rows, seats])
        delta = pending[rows, seats] + gamma * nv - v
        a = delta + gamma * lam * next_adv[rows, seats]
        adv[t, rows] = a
        next_value[rows, seats] = v
        next_adv[rows, seats] = a
        pending[rows, seats] = 0.0
        cut[rows, seats] = False
    return adv, adv + r.values


# --------------------------------------------------------------------------- the update


def update(
    agent: Any, optimizer: Any, r: Rollout, adv: Floats, ret: Floats, args: argparse.Namespace, rng: Any
) -> dict[str, float]:
    """The PPO epochs over the rollout's learner decisions; returns the last epoch's means."""
    flat = np.flatnonzero(r.learn.reshape(-1))
    ids = np.concatenate(r.ids) if r.ids else np.zeros(0, np.int64)
    obs = r.observations.reshape(-1, r.observations.shape[-1])
    starts, counts = r.pair_starts.reshape(-1), r.pair_counts.reshape(-1)
    choices, old_logp = r.choices.reshape(-1), r.logps.reshape(-1)
    adv_flat, ret_flat = adv.reshape(-1), ret.reshape(-1)
    size = max(1, min(args.minibatch, len(flat)))
    num_actions = int(agent.embedding.shape[0])
    out: dict[str, float] = {}
    for _ in range(args.epochs):
        order = rng.permutation(flat)
        sums = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "clipped": 0.0, "approx_kl": 0.0}
        batches = 0
        for k in range(0, len(order) - size + 1, size):
            mb = np.sort(order[k : k + size])
            c = counts[mb]
            total = int(c.sum())
            base = np.cumsum(c) - c
            rows = np.repeat(np.arange(len(mb), dtype=np.int64), c)
            cols = np.arange(total, dtype=np.int64) - base[rows]
            pair_ids = ids[starts[mb][rows] + cols]
            h = agent.features(torch.from_numpy(obs[mb]))
            padded = agent.padded_scores(h, Layout.of(rows, pair_ids, len(mb), num_actions, backward=True))
            logp_all = torch.log_softmax(padded, 1)
            choice = torch.from_numpy(choices[mb])
            new_logp = logp_all.gather(1, choice[:, None]).squeeze(1)
            p = logp_all.exp()
            entropy = -(p * torch.where(torch.isfinite(logp_all), logp_all, 0.0)).sum(1).mean()
            values = agent.values(h)
            a = torch.from_numpy(adv_flat[mb])
            a = (a - a.mean()) / (a.std() + 1e-8)
            log_ratio = new_logp - torch.from_numpy(old_logp[mb])
            ratio = log_ratio.exp()
            policy_loss = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
            target = torch.from_numpy(ret_flat[mb])
            value_loss = 0.5 * ((values - target) ** 2).mean()
            loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                sums["policy_loss"] += float(policy_loss)
                sums["value_loss"] += float(value_loss)
                sums["entropy"] += float(entropy)
                sums["clipped"] += float(((ratio - 1).abs() > args.clip).float().mean())
                sums["approx_kl"] += float(((ratio - 1) - log_ratio).mean())
            batches += 1
        out = {key: value / max(1, batches) for key, value in sums.items()}
    return out


# --------------------------------------------------------------------------- evaluation


def evaluate_random(agent: Any, game: Any, games: int, seed: int) -> Record:
    """The greedy policy against the core's random opponents: ``games`` games, the
    learner's seat in turn (each seat's envs a BatchEnv), one game per env."""
    wins = draws = losses = 0
    players = max(1, game.num_players)
    for seat in range(players):
        count = games // players + (1 if seat < games % players else 0)
        if count == 0:
            continue
        options: dict[str, Any] = {"learner": seat, "opponents": "random"} if players > 1 else {}
        env = BatchEnv(game, count, seed=seed + 104729 * seat, **options)
        done = np.zeros(count, np.bool_)
        result = np.zeros(count, np.float32)
        while not done.all():
            ids, counts = env.legal_actions()
            live = np.flatnonzero(counts > 0)
            table = np.zeros(ids.shape, np.float32)
            if len(live):
                rows, flat = legal_pairs(ids, counts)
                padded, _ = scores(agent, env.observations[live], *_subset(rows, flat, live, count))
                table[live, : padded.shape[1]] = padded
            step = env.step(env.choose(table, layout="legal", greedy=True))
            ended = (step.terminated | step.truncated) & ~done
            result[ended] = step.rewards[ended, seat]
            done |= ended
        wins += int((result > 0).sum())
        losses += int((result < 0).sum())
        draws += int((result == 0).sum())
    return Record(wins, draws, losses)


def evaluate_bot(agent: Any, game: Any, bot: str, games: int, seed: int) -> Record:
    """The greedy policy against a cruiselib bot through the state API, seat-rotated: each
    deal is played once from every seat (``games`` rounded up to whole deals); the
    learner's moves of all games are chosen in one batch."""
    players = game.num_players
    deals = max(1, math.ceil(games / players))
    rng = np.random.default_rng([seed, 0xB07])
    seeds = [int(s) for s in rng.integers(2**62, size=deals)]
    states = [game.new_state(seed=s) for s in seeds for _ in range(players)]
    seats = [k % players for k in range(len(states))]
    bots = [make_bot(bot, seed=seed * 1_000_003 + k) for k in range(len(states))]
    live = list(range(len(states)))
    size = int(game.observation_shape[0])
    while live:
        turn = []
        for k in live:
            state = states[k]
            while not state.is_over and state.current_player != seats[k]:
                state.apply(bots[k].choose(state))
            if not state.is_over:
                turn.append(k)
        if not turn:
            break
        obs = np.zeros((len(turn), size), np.float32)
        legal = []
        for i, k in enumerate(turn):
            obs[i] = states[k].observation(seats[k])
            legal.append(np.asarray(states[k].legal_actions(), np.int64))
        counts = np.array([len(x) for x in legal])
        rows = np.repeat(np.arange(len(turn), dtype=np.int64), counts)
        padded, _ = scores(agent, obs, rows, np.concatenate(legal))
        best = padded.argmax(1)  # the lowest id among equal scores, as the policy bot
        for i, k in enumerate(turn):
            states[k].apply(int(legal[i][best[i]]))
        live = [k for k in turn if not states[k].is_over]
    wins = draws = losses = 0
    for k, state in enumerate(states):
        winners = state.winners()
        if seats[k] in winners:
            wins += 1
        elif winners:
            losses += 1
        else:
            draws += 1
    return Record(wins, draws, losses)


# --------------------------------------------------------------------------- export


def export(agent: Any, game: Any, path: Path, args: argparse.Namespace, steps: int, argv: Sequence[str]) -> None:
    """Write the weights the ``policy`` bot plays (cruiselib.bots.policy), float16 in a
    compressed ``.npz``, with what made them in ``meta``."""
    arrays: dict[str, Any] = {}
    state = {k: v.detach().float().numpy() for k, v in agent.state_dict().items()}
    for k in range(len(agent.layers)):
        arrays[f"layer{k}.weight"] = state[f"layers.{k}.weight"].T
        arrays[f"layer{k}.bias"] = state[f"layers.{k}.bias"]
    arrays["query.weight"], arrays["query.bias"] = state["query.weight"].T, state["query.bias"]
    arrays["value.weight"], arrays["value.bias"] = state["value.weight"].T, state["value.bias"]
    arrays["actions.embedding"], arrays["actions.bias"] = state["embedding"][:, :-1], state["embedding"][:, -1]
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "label": "trained weights: engine-authored data, made by cruiselib's examples/train_ppo.py (PPO), "
        "not taken from any rulebook",
        **configuration_of(game),
        "num_players": int(game.num_players),
        "observation_size": int(game.observation_shape[0]),
        "num_actions": int(game.num_actions),
        "layers": len(agent.layers),
        "hidden": list(args.hidden),
        "head": args.head,
        "dtype": "float16",
        "command": "python examples/train_ppo.py " + shlex.join(argv),
        "seed": args.seed,
        "steps": steps,
        "example_version": VERSION,
        "cruiselib_version": cruiselib.__version__,
    }
    if args.init is not None:  # what the run went on from: that file's own record
        from cruiselib.bots.policy import read_weights

        before = dict(read_weights(args.init).meta)
        meta["init"] = {
            key: before[key] for key in ("command", "seed", "steps", "total_steps", "init") if key in before
        }
        meta["total_steps"] = int(before.get("total_steps", before.get("steps", 0))) + steps
    else:
        meta["total_steps"] = steps
    arrays = {k: np.ascontiguousarray(v, dtype=np.float16) for k, v in arrays.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        np.savez_compressed(out, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)


def import_weights(agent: Any, path: Path) -> None:
    """Load an exported weights file into ``agent`` (to go on training from it)."""
    from cruiselib.bots.policy import read_weights

    net = read_weights(path)
    with torch.no_grad():
        for k, (w, b) in enumerate(net.layers):
            agent.layers[k].weight.copy_(torch.from_numpy(w.T.copy()))
            agent.layers[k].bias.copy_(torch.from_numpy(b.copy()))
        agent.query.weight.copy_(torch.from_numpy(net.query[0].T.copy()))
        agent.query.bias.copy_(torch.from_numpy(net.query[1].copy()))
        agent.value.weight.copy_(torch.from_numpy(net.value[0].T.copy()))
        agent.value.bias.copy_(torch.from_numpy(net.value[1].copy()))
        agent.embedding.copy_(torch.from_numpy(np.concatenate([net.actions, net.action_bias[:, None]], 1)))


def plot_curve(curve: Path, png: Path, title: str) -> None:
    """A PNG of a ``--curve`` CSV: the win rates against the random and the rule-based bot
    (95% intervals where recorded) over the learner steps, a line style per value of an
    optional ``run`` column (runs joined into one file). Needs matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with curve.open() as f:
        rows = list(csv.DictReader(f))
    runs = list(dict.fromkeys(r.get("run") or "" for r in rows))
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    for run, style in zip(runs, ["-", "--", ":", "-."] * len(runs), strict=False):
        mine = [r for r in rows if (r.get("run") or "") == run]
        steps = [int(r["steps"]) / 1e6 for r in mine]
        for key, label, colour in (
            ("win_random", "against random", "#3b7dd8"),
            ("win_rules", "against rules", "#d8593b"),
        ):
            points = [(x, float(r[key])) for x, r in zip(steps, mine, strict=True) if r.get(key)]
            if points:
                name = f"{label}, {run}" if run else label
                ax.plot(*zip(*points, strict=True), style, marker="o", ms=3, label=name, color=colour)
            low, high = f"{key}_low", f"{key}_high"
            band = [
                (x, float(r[low]), float(r[high]))
                for x, r in zip(steps, mine, strict=True)
                if r.get(low) and r.get(high)
            ]
            if band:
                xs, lows, highs = zip(*band, strict=True)
                ax.fill_between(xs, lows, highs, color=colour, alpha=0.15)
    ax.axhline(0.5, color="#888", lw=0.8, ls="--")
    ax.set_ylim(0, 1)
    ax.set_xlabel("learner steps (millions)")
    ax.set_ylabel("win rate of the greedy policy")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------- main


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--game", default="sirens", help="a registered game (cruiselib.games())")
    p.add_argument("--players", type=int, default=2, help="seats (for games that take a count)")
    p.add_argument("--steps", type=int, default=2_000_000, help="learner decisions to train on")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--envs", type=int, default=512, help="games played at once")
    p.add_argument("--rollout", type=int, default=32, help="env steps per rollout")
    p.add_argument("--hidden", type=int, nargs="+", default=[128, 128], help="the torso's widths")
    p.add_argument("--head", type=int, default=64, help="the width of the action embedding")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--lr-end", type=float, default=0.1, help="the learning rate's last value, a share of --lr")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--minibatch", type=int, default=2048)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--max-steps", type=int, default=2000, help="a game is cut after this many actions")
    p.add_argument("--opponents", choices=["random", "rollout"], default="random", help="the compiled opponents")
    p.add_argument("--opponent-steps", type=int, default=300_000, help="learner steps against them first")
    p.add_argument("--opponent-share", type=float, default=0.0, help="envs kept against them afterwards")
    p.add_argument("--league-share", type=float, default=0.5, help="self-play envs against a frozen snapshot")
    p.add_argument("--bot", default=None, help="a cruiselib bot (e.g. rules) as the opponent in a share of envs")
    p.add_argument("--bot-share", type=float, default=0.0, help="self-play envs against --bot")
    p.add_argument("--snapshot-every", type=int, default=20, help="updates between snapshots to the league")
    p.add_argument("--league-size", type=int, default=10, help="the most snapshots kept")
    p.add_argument("--eval-every", type=int, default=1_000_000, help="learner steps between evaluations")
    p.add_argument("--eval-games", type=int, default=1000, help="games against the random opponents")
    p.add_argument("--eval-rules", type=int, default=0, help="games against the rule-based bot (0: none)")
    p.add_argument("--final-rules", type=int, default=0, help="games against it at the end")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--init", type=Path, default=None, help="start from an exported weights file")
    p.add_argument("--export", type=Path, default=None, help="write the policy bot's weights file here")
    p.add_argument("--curve", type=Path, default=None, help="append the evaluations here (CSV)")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.steps < 1 or args.envs < 2 or args.rollout < 1 or args.epochs < 1 or args.minibatch < 1:
        p.error("--steps, --rollout, --epochs and --minibatch are at least 1, --envs at least 2")
    return args


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train; returns the last evaluation and the throughput. ``--plot-curve CSV PNG`` only
    plots a curve written before, and returns nothing."""
    given = list(sys.argv[1:] if argv is None else argv)
    if given[:1] == ["--plot-curve"]:
        if len(given) != 4:
            raise SystemExit("usage: train_ppo.py --plot-curve CURVE.csv PLOT.png TITLE")
        plot_curve(Path(given[1]), Path(given[2]), given[3])
        return {}
    if torch is None:
        raise SystemExit("train_ppo.py needs torch: pip install torch")
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse(argv)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    from cruiselib._registry import game_class

    options = {"players": args.players} if len(game_class(args.game).player_counts) > 1 else {}
    game = cruiselib.make(args.game, **options)
    players = game.num_players
    agent = Agent(int(game.observation_shape[0]), int(game.num_actions), args.hidden, args.head)
    if args.init is not None:
        import_weights(agent, args.init)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    phase = 0 if args.opponent_steps > 0 or players == 1 else 1
    groups = make_groups(game, args, phase, args.seed)
    league: list[Any] = []
    frozen: Any = None
    stats = {"games": 0.0, "learner_games": 0.0, "learner_wins": 0.0}
    learner_steps = env_steps = updates = 0
    next_eval = args.eval_every
    started = time.perf_counter()
    train_seconds = 0.0
    result: dict[str, Any] = {}
    curve_fields = [
        "steps",
        "seconds",
        "updates",
        "phase",
        "win_random",
        "win_random_low",
        "win_rules",
        "win_rules_low",
        "win_rules_high",
        "entropy",
    ]
    if args.curve is not None and not args.curve.exists():
        args.curve.parent.mkdir(parents=True, exist_ok=True)
        with args.curve.open("w", newline="") as f:
            csv.writer(f).writerow(curve_fields)
    log: dict[str, float] = {}
    while learner_steps < args.steps:
        if phase == 0 and learner_steps >= args.opponent_steps and players > 1:
            phase = 1
            for g in groups:
                g.env.close()
            groups = make_groups(game, args, phase, args.seed + 1)
        if phase == 1 and (not league or updates % args.snapshot_every == 0):
            league.append(copy.deepcopy(agent))
            del league[: -args.league_size]
        frozen = league[int(rng.integers(len(league)))] if league else None
        fraction = min(1.0, learner_steps / args.steps)
        for group in optimizer.param_groups:
            group["lr"] = args.lr * (1 - fraction * (1 - args.lr_end))
        tick = time.perf_counter()
        r = collect(agent, frozen, groups, args.rollout, players, stats)
        adv, ret = advantages(r, players, args.gamma, args.gae_lambda)
        log = update(agent, optimizer, r, adv, ret, args, rng)
        train_seconds += time.perf_counter() - tick
        updates += 1
        learner_steps += int(r.learn.sum())
        env_steps += r.learn.size
        if learner_steps >= next_eval or learner_steps >= args.steps:
            next_eval += args.eval_every
            result = evaluation(agent, game, args, learner_steps, train_seconds, updates, phase, log, stats)
            stats = {"games": 0.0, "learner_games": 0.0, "learner_wins": 0.0}
            if args.export is not None:
                export(agent, game, args.export, args, learner_steps, argv)
    for g in groups:
        g.env.close()
    if args.final_rules:
        final = evaluate_bot(agent, game, "rules", args.final_rules, args.seed + 99)
        result["final_rules"] = final
        print(f"final: against the rule-based bot {final.describe()}", flush=True)
    result.update(
        learner_steps=learner_steps,
        env_steps=env_steps,
        train_seconds=train_seconds,
        steps_per_second=learner_steps / max(train_seconds, 1e-9),
        seconds=time.perf_counter() - started,
    )
    if not args.quiet:
        print(
            f"trained {learner_steps:,} learner steps in {train_seconds:.0f} s "
            f"({result['steps_per_second']:,.0f} steps/s; {time.perf_counter() - started:.0f} s with evaluations)",
            flush=True,
        )
    return result


def evaluation(
    agent: Any,
    game: Any,
    args: argparse.Namespace,
    steps: int,
    seconds: float,
    updates: int,
    phase: int,
    log: dict[str, float],
    stats: dict[str, float],
) -> dict[str, Any]:
    """Evaluate, print a line and append it to the curve."""
    out: dict[str, Any] = {}
    row: dict[str, Any] = {"steps": steps, "seconds": round(seconds, 1), "updates": updates, "phase": phase}
    row["entropy"] = round(log.get("entropy", float("nan")), 4)
    line = f"{steps:>11,} steps {seconds:7.0f} s  ({steps / max(seconds, 1e-9):,.0f}/s)  entropy {row['entropy']:.3f}"
    if stats["learner_games"]:
        line += f"  train-win {stats['learner_wins'] / stats['learner_games']:.3f}"
    if args.eval_games:
        rec = out["random"] = evaluate_random(agent, game, args.eval_games, args.seed + 17)
        row["win_random"] = round(rec.win_rate, 4)
        row["win_random_low"] = round(wilson_interval(rec.wins, rec.games)[0], 4)
        line += f"  vs random {rec.win_rate:.3f}"
    if args.eval_rules and game.num_players > 1:
        rec = out["rules"] = evaluate_bot(agent, game, "rules", args.eval_rules, args.seed + 31)
        low, high = wilson_interval(rec.wins, rec.games)
        row.update(win_rules=round(rec.win_rate, 4), win_rules_low=round(low, 4), win_rules_high=round(high, 4))
        line += f"  vs rules {rec.win_rate:.3f} ({low:.3f}-{high:.3f})"
    if not args.quiet:
        print(line, flush=True)
    if args.curve is not None:
        with args.curve.open("a", newline="") as f:
            writer = csv.DictWriter(
                f,
                [
                    "steps",
                    "seconds",
                    "updates",
                    "phase",
                    "win_random",
                    "win_random_low",
                    "win_rules",
                    "win_rules_low",
                    "win_rules_high",
                    "entropy",
                ],
            )
            writer.writerow(row)
    return out


if __name__ == "__main__":
    main()
