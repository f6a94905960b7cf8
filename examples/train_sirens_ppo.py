"""Train an agent that beats the random bot at Sirens in Sight, with sb3-contrib's MaskablePPO.

The learner plays ``cruiselib.envs.gym_env("sirens", opponents="random")``: half of the
training envs seat it first, half second, and MaskablePPO reads each env's
``action_masks()`` so it only ever picks legal actions. Then the trained policy
(deterministic, masked) plays ``--eval-games`` games against the random bot, its seat
alternating, and so does a uniformly random player on the same deals: the script prints
both win rates with their 95% Wilson intervals.

    pip install 'cruiselib[rl]' sb3-contrib
    python examples/train_sirens_ppo.py --timesteps 1000000 --eval-games 2000 --seed 0

Everything is seeded by ``--seed``: the same command gives the same model and the same
numbers (on one thread; ``--threads`` above 1 lets torch reorder its sums). The evaluation
helpers (:func:`evaluate`, :func:`wilson_interval`) need no torch.

Measured with the command above (compiled core, sb3-contrib 2.9.2, torch 2.13.0 on the CPU,
one thread): 1,001,472 timesteps in 870 s (1,152 steps/s); the trained policy won 1,987
of 2,000 games against the random bot (99.4%, 95% CI 98.9-99.6%; 1 draw, 12 losses)
where the random player won 969 (48.4%, 95% CI 46.3-50.6%; 36 draws). After 100,000
timesteps (94 s) it already won 95.7% (94.3-96.8%) of 1,000. The random bot is a low
bar: the same policy beats the greedy bot 98% of the time but the game's rule bot
(``opponents="rules"``) only 15-20%, from either seat.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from cruiselib.arena.stats import wilson
from cruiselib.envs import gym_env
from cruiselib.errors import InvalidOptionError

# The training libraries are imported where used, so the helpers run without torch; the
# ignores keep mypy clean on an install without them (they are not among cruiselib's extras).
if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO  # type: ignore[import-not-found,unused-ignore]

GAME = "sirens"
SEATS = (0, 1)

Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]
"""What a player does: (observation, legal-action mask) -> action."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion: (low, high) within [0, 1].

    Unlike the normal approximation it stays inside [0, 1] and is honest near 0 and 1 and
    for few trials. Raises :class:`cruiselib.InvalidOptionError` unless
    ``0 <= successes <= trials`` and ``trials >= 1``.

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
    """Games won, drawn and lost by one player over an evaluation."""

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
        return self.wins / self.games

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def describe(self) -> str:
        """One line: win rate, its interval and the counts."""
        low, high = self.interval()
        return (
            f"win rate {self.win_rate:.3f} (95% CI {low:.3f}-{high:.3f}) over {self.games} games: "
            f"{self.wins} won, {self.draws} drawn, {self.losses} lost"
        )


def deal_seeds(games: int, seed: int) -> list[int]:
    """The evaluation's deals: seeds drawn from ``seed``'s own stream (training draws its
    deals from the envs' generators, so the two do not share games by construction)."""
    rng = np.random.default_rng([seed, 0xE7A1])
    return [int(x) for x in rng.integers(2**62, size=games)]


def evaluate(policy: Policy, games: int, seed: int) -> Record:
    """Play ``policy`` against the random bot for ``games`` games, seat 0 in even games
    and seat 1 in odd ones, on the deals :func:`deal_seeds` gives; count its results.

    Two policies evaluated with the same ``games`` and ``seed`` meet the same deals and
    the same opponent moves for as long as they play alike, which makes their win rates
    directly comparable."""
    if games < 1:
        raise InvalidOptionError(f"an evaluation plays at least one game, not {games}")
    envs = [gym_env(GAME, seat=seat, opponents="random") for seat in SEATS]
    wins = draws = losses = 0
    for index, deal in enumerate(deal_seeds(games, seed)):
        env = envs[index % len(envs)]
        observation, _ = env.reset(seed=deal)
        reward, done = 0.0, False
        while not done:
            action = policy(observation, env.action_masks())
            observation, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        if reward > 0:
            wins += 1
        elif reward < 0:
            losses += 1
        else:
            draws += 1
    return Record(wins, draws, losses)


def random_policy(seed: int) -> Policy:
    """A uniformly random legal action, from its own seeded generator: the baseline."""
    rng = np.random.default_rng(seed)

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return choose


def model_policy(model: MaskablePPO) -> Policy:
    """The trained policy's most likely legal action (deterministic, masked)."""

    def choose(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def train(timesteps: int, seed: int, num_envs: int = 8) -> MaskablePPO:
    """MaskablePPO trained for ``timesteps`` learner steps on ``num_envs`` envs against
    the random bot, half of them seating the learner first and half second."""
    from sb3_contrib import MaskablePPO  # type: ignore[import-not-found,unused-ignore]
    from stable_baselines3.common.monitor import Monitor  # type: ignore[import-not-found,unused-ignore]
    from stable_baselines3.common.vec_env import DummyVecEnv  # type: ignore[import-not-found,unused-ignore]

    def maker(seat: int) -> Callable[[], Any]:
        return lambda: Monitor(gym_env(GAME, seat=seat, opponents="random"))

    vec_env = DummyVecEnv([maker(SEATS[i % len(SEATS)]) for i in range(num_envs)])
    # 256 steps an env per rollout: about 70 games of ~29 learner moves each in a rollout
    # of 8 envs, so every update sees both seats and many endings (the only reward).
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        n_steps=256,
        batch_size=256,
        n_epochs=4,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        verbose=0,
        device="cpu",
    )
    model.learn(total_timesteps=timesteps)
    return model


def main(argv: Sequence[str] | None = None) -> dict[str, Record]:
    """Train, evaluate the trained policy and the random baseline, print both; returns
    their records by name ("trained", "random")."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--timesteps", type=int, default=1_000_000, help="learner steps of training")
    parser.add_argument("--eval-games", type=int, default=2000, help="games of each evaluation")
    parser.add_argument("--seed", type=int, default=0, help="seeds training and evaluation")
    parser.add_argument("--envs", type=int, default=8, help="training envs (even: half per seat)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--save", type=Path, default=None, help="save the trained model here (a .zip)")
    args = parser.parse_args(argv)
    if args.timesteps < 1 or args.envs < 2 or args.threads < 1:
        parser.error("--timesteps and --threads are at least 1, --envs at least 2")

    import torch  # type: ignore[import-not-found,unused-ignore]

    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    model = train(args.timesteps, args.seed, args.envs)
    seconds = time.perf_counter() - started
    trained_steps = model.num_timesteps
    print(
        f"trained {trained_steps} timesteps in {seconds:.0f} s ({trained_steps / seconds:.0f} steps/s, "
        f"{args.envs} envs, {args.threads} thread(s))"
    )
    if args.save is not None:
        model.save(args.save)
        print(f"saved the model to {args.save}")
    records = {
        "trained": evaluate(model_policy(model), args.eval_games, args.seed),
        "random": evaluate(random_policy(args.seed), args.eval_games, args.seed),
    }
    print(f"trained policy vs random bot: {records['trained'].describe()}")
    print(f"random player  vs random bot: {records['random'].describe()}")
    return records


if __name__ == "__main__":
    main()
