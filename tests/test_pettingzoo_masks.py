"""The PettingZoo environment's action masks in the auction, where the rules take ``pass`` away:
the stuck dealer (R3.2) and the forced call (R3.4), checked at every step of whole match and
hand episodes against a model of R3 written here from RULES.md.

A random policy rarely lets three seats pass in a row, so these episodes pass whenever the mask
allows it (most of the time), which sticks the dealer in most hands and takes the teams' scores
past ``forced_at``. Every agent's mask is checked at every step: the seat to move gets exactly
the model's ids, the other seats all zeros."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from tarabish import HandState, MatchState, Phase, Rules
from tarabish._actions import CALL_BASE, NUM_ACTIONS, PASS_ID
from tarabish.pettingzoo import AGENTS, env

SEATS = 4
CALLS = frozenset(range(CALL_BASE, CALL_BASE + 4))
PASS_RATE = 0.9  # how often the policy passes when it may
EPISODES_PER_RULES = 4


def forced_team(scores: tuple[int, int], forced_at: int | None) -> int | None:
    """R3.4: the team that must call: one at ``forced_at`` or more, the higher if both, none at
    equal scores."""
    if forced_at is None:
        return None
    qualified = [team for team in (0, 1) if scores[team] >= forced_at]
    if len(qualified) == 2:
        return None if scores[0] == scores[1] else int(scores[1] > scores[0])
    return qualified[0] if qualified else None


def auction_ids(
    seat: int, dealer: int, passes: int, scores: tuple[int, int], rules: Rules
) -> set[int]:
    """The ids ``seat`` may take in the auction after ``passes`` passes (R3.1-R3.4): any call,
    and pass unless the rules take it away."""
    may_pass = True
    if passes == SEATS - 1 and seat == dealer and not rules.dealer_may_pass:
        may_pass = False  # R3.2: the first three passed; the dealer must call
    team = forced_team(scores, rules.forced_at)
    if team is not None:
        # R3.4: the forced team's last speaker may not pass: the dealer if the team holds the
        # deal (even under R3.3), else its player on the dealer's right.
        last_speaker = dealer if dealer % 2 == team else (dealer + SEATS - 1) % SEATS
        if seat == last_speaker:
            may_pass = False
    return set(CALLS) | ({PASS_ID} if may_pass else set())


def play_checked(rules: Rules, episode: str, seed: int) -> dict[str, int]:
    """Plays one episode with the pass-loving policy, checking every mask at every step against
    the model (auction) or the game's legal ids (play); returns what the episode exercised."""
    environment = env(episode=episode, rules=rules)
    environment.reset(seed=seed)
    # The documented equivalent of reset(seed=seed), kept in step as a shadow: it tells the
    # dealer and the scores, which the model needs and the observations only encode.
    dealer = seed % SEATS
    shadow: MatchState | HandState = (
        MatchState(seed=seed, rules=rules, first_dealer=dealer)
        if episode == "match"
        else HandState(dealer, seed=seed, rules=rules)
    )
    rng = random.Random(seed)
    seen = {"stuck_dealer": 0, "forced": 0, "steps": 0}
    for agent in environment.agent_iter():
        _, _, termination, truncation, _ = environment.last()
        if termination or truncation:
            environment.step(None)
            continue
        hand = shadow.hand if isinstance(shadow, MatchState) else shadow
        scores = shadow.scores if isinstance(shadow, MatchState) else (0, 0)
        seat = AGENTS.index(agent)
        assert hand.to_move == seat
        masks: dict[str, Any] = {name: environment.observe(name)["action_mask"] for name in AGENTS}
        for name, mask in masks.items():
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            if name != agent:
                assert not mask.any(), f"{name} is not to move but its mask is {mask}"
        ids = set(np.flatnonzero(masks[agent]).tolist())
        if hand.phase is Phase.AUCTION:
            passes = len(hand.actions)
            expected = auction_ids(seat, hand.dealer, passes, scores, rules)
            if PASS_ID not in expected:
                forced = forced_team(scores, rules.forced_at) is not None
                seen["forced" if forced else "stuck_dealer"] += 1
            assert ids == expected, (
                f"seed {seed}, seat {seat}, dealer {hand.dealer}, {passes} passes, "
                f"scores {scores}: mask {sorted(ids)}, rules give {sorted(expected)}"
            )
            action = (
                PASS_ID
                if PASS_ID in ids and rng.random() < PASS_RATE
                else rng.choice(sorted(ids - {PASS_ID}))
            )
        else:
            assert ids == set(hand.legal_action_ids())
            action = rng.choice(sorted(ids))
        environment.step(action)
        shadow.apply(action)
        seen["steps"] += 1
    return seen


@pytest.mark.timeout(60)  # a few seconds
@pytest.mark.parametrize(
    ("rules", "episode"),
    [
        (Rules(), "match"),
        (Rules(), "hand"),
        (Rules(forced_at=400), "match"),
        (Rules(forced_at=300, dealer_may_pass=True), "match"),
    ],
    ids=["default-match", "default-hand", "forced_at-400", "forced_at-300-dealer-may-pass"],
)
def test_every_mask_follows_r3_at_every_step(rules: Rules, episode: str) -> None:
    """R3.2, R3.3, R3.4: the stuck dealer and the forced seat are offered no pass; everyone else
    may pass; only the seat to move has a mask. The episodes must reach those cases."""
    totals = {"stuck_dealer": 0, "forced": 0, "steps": 0}
    episodes = EPISODES_PER_RULES * (4 if episode == "hand" else 1)
    for seed in range(episodes):
        for key, count in play_checked(rules, episode, 1000 + seed).items():
            totals[key] += count
    if not rules.dealer_may_pass:
        assert totals["stuck_dealer"] > 0, "no stuck dealer reached: the test proves nothing"
    if rules.forced_at is not None:
        assert totals["forced"] > 0, "no forced call reached: the test proves nothing"
