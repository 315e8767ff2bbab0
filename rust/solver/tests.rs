//! The solver against a plain minimax over the engine's own `Hand` (no pruning, no table, no
//! merging), and its properties on whole hands.

use super::*;
use crate::cpu::test_cases;
use crate::rng::SplitMix64;
use crate::rules::Rules;
use crate::seats::seat_of;
use crate::state::CALL_BASE;

/// Card points and last taken by team 0 so far (R1.3, R1.4): runs and bella left out.
fn team0_taken(hand: &Hand) -> u32 {
    hand.taken_by(0) + hand.taken_by(2)
}

/// Team 0's points still to win with best play by all four, by plain minimax.
fn minimax_team0(hand: &Hand) -> u32 {
    if hand.is_terminal() {
        return 0;
    }
    let maximizing = hand.to_move().unwrap() & 1 == 0;
    let values = hand.legal_cards().iter().map(|card| {
        let mut next = *hand;
        next.play_unchecked(card);
        team0_taken(&next) - team0_taken(hand) + minimax_team0(&next)
    });
    if maximizing {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Team 0's points still to win, by a plain full-window alpha-beta over `Hand` (no table, no
/// merging, no quick bounds, cards in index order): exact, and independent of every
/// speed-up in the solver, for endgames too deep for minimax.
fn alpha_beta_team0(hand: &Hand, mut alpha: u32, mut beta: u32) -> u32 {
    if hand.is_terminal() {
        return 0;
    }
    let maximizing = hand.to_move().unwrap() & 1 == 0;
    let mut best = if maximizing { 0 } else { u32::MAX };
    for card in hand.legal_cards() {
        let mut next = *hand;
        next.play_unchecked(card);
        let won = team0_taken(&next) - team0_taken(hand);
        let value =
            won + alpha_beta_team0(&next, alpha.saturating_sub(won), beta.saturating_sub(won));
        if maximizing {
            best = best.max(value);
            alpha = alpha.max(value);
        } else {
            best = best.min(value);
            beta = beta.min(value);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// A random hand under `rules`, trump called at random, then `plays` random cards.
fn random_position(seed: u64, rules: Rules, plays: usize) -> Hand {
    let mut rng = SplitMix64::new(seed);
    let mut hand = Hand::from_seed(rng.next_u64(), seat_of(seed), rules, [0, 0]);
    let call = CALL_BASE + rng.below(4) as u8;
    hand.apply(call).unwrap();
    for _ in 0..plays {
        let legal = hand.legal_cards();
        hand.play_unchecked(legal.nth(rng.below(legal.len())));
    }
    hand
}

/// The play variants of R5.1, all eight combinations in turn.
fn variant(k: u64) -> Rules {
    Rules {
        head_plain: k & 1 != 0,
        undertrump_optional: k & 2 != 0,
        partner_exempt: k & 4 != 0,
        ..Rules::default()
    }
}

fn points_left(hand: &Hand) -> u32 {
    162 - (0..4).map(|s| hand.taken_by(s)).sum::<u32>()
}

#[test]
fn every_play_valued_as_minimax_does_up_to_three_tricks_left() {
    let mut solver = Solver::new();
    for seed in 0..240u64 {
        // 24 to 35 cards played: one to three tricks left, at every point of a trick.
        let plays = 24 + (seed % 12) as usize;
        let hand = random_position(seed, variant(seed), plays);
        let solution = solver.solve(&hand).unwrap();
        let team = hand.to_move().unwrap() & 1;
        let left = points_left(&hand);
        assert_eq!(solution.points_left, left);
        for card in hand.legal_cards() {
            let mut next = hand;
            next.play_unchecked(card);
            let team0 = team0_taken(&next) - team0_taken(&hand) + minimax_team0(&next);
            let expected = if team == 0 { team0 } else { left - team0 };
            assert_eq!(solution.value_of(card), expected, "seed {seed} card {card}");
        }
        let best = hand
            .legal_cards()
            .iter()
            .map(|c| solution.value_of(c))
            .max();
        assert_eq!(Some(solution.value), best);
    }
}

#[test]
fn every_play_valued_as_plain_alpha_beta_does_six_tricks_left() {
    let mut solver = Solver::new();
    // 400 positions (a quarter under emulation): the neighbour bounds and twins of
    // docs/SOLVER.md "Algorithm" act at every depth, and a wrong bound shows in few positions.
    let cases = test_cases(
        "every_play_valued_as_plain_alpha_beta_does_six_tricks_left",
        400,
    );
    for seed in 0..cases {
        // 12 to 19 cards played: five or six tricks left (the table, merging and bounds all at
        // work).
        let plays = 12 + (seed % 8) as usize;
        let hand = random_position(3000 + seed, variant(seed), plays);
        let solution = solver.solve(&hand).unwrap();
        let team = hand.to_move().unwrap() & 1;
        let left = points_left(&hand);
        for card in hand.legal_cards() {
            let mut next = hand;
            next.play_unchecked(card);
            let won = team0_taken(&next) - team0_taken(&hand);
            let team0 = won + alpha_beta_team0(&next, 0, u32::MAX);
            let expected = if team == 0 { team0 } else { left - team0 };
            assert_eq!(solution.value_of(card), expected, "seed {seed} card {card}");
        }
    }
}

#[test]
fn solver_best_plays_reach_the_value_and_both_sides_agree() {
    let mut solver = Solver::new();
    for seed in 0..6u64 {
        // Six tricks left, so the debug build stays quick.
        let mut hand = random_position(1000 + seed, variant(seed), 12);
        let team = (hand.to_move().unwrap() & 1) as usize;
        let team_taken = |hand: &Hand| hand.taken_by(team) + hand.taken_by(team + 2);
        let first = solver.solve(&hand).unwrap();
        assert!(first.value <= first.points_left);
        assert_eq!(first.points_left, points_left(&hand));
        // The team ends the hand with what it has taken plus the value.
        let team_total = team_taken(&hand) + first.value;
        while !hand.is_terminal() {
            let solution = solver.solve(&hand).unwrap();
            let own = if hand.to_move().unwrap() as usize & 1 == team {
                solution.value
            } else {
                solution.points_left - solution.value
            };
            assert_eq!(team_taken(&hand) + own, team_total, "seed {seed}");
            hand.play_unchecked(solution.best.first().unwrap());
        }
        assert_eq!(team_taken(&hand), team_total, "seed {seed}");
    }
}

#[test]
fn merged_cards_share_a_value_and_the_solve_is_repeatable() {
    let mut solver = Solver::new();
    let mut fresh = Solver::new();
    for seed in 0..test_cases("merged_cards_share_a_value_and_the_solve_is_repeatable", 20) {
        let hand = random_position(2000 + seed, variant(seed), (seed % 8) as usize);
        let warm = solver.solve(&hand).unwrap();
        let cold = fresh.solve(&hand).unwrap();
        fresh = Solver::new();
        assert_eq!(warm.value, cold.value);
        for card in hand.legal_cards() {
            assert_eq!(warm.value_of(card), cold.value_of(card));
        }
    }
}

/// The search's copy for each kernel the CPU runs (compiled for BMI2, or portable) searches
/// the same nodes and finds the same values.
#[test]
fn every_kernel_searches_the_same() {
    let kernels = crate::cpu::kernels_compared("every_kernel_searches_the_same");
    for seed in 0..24u64 {
        // 16 to 27 cards played: three to five tricks left.
        let hand = random_position(4000 + seed, variant(seed), 16 + (seed % 12) as usize);
        let run = |kernel| {
            let mut solver = Solver::new();
            let (mut search, pos) = solver.search_for(&hand).unwrap();
            search.force_kernel(kernel);
            let value = search.value(&pos, pos.points_left() / 2);
            (value, search.nodes)
        };
        let results: Vec<_> = kernels.iter().map(|&kernel| run(kernel)).collect();
        assert!(
            results.windows(2).all(|pair| pair[0] == pair[1]),
            "seed {seed}: {results:?}"
        );
    }
}

#[test]
fn not_in_play_is_an_error() {
    let hand = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
    let error = solve(&hand).unwrap_err();
    assert!(error.to_string().contains("R5"), "{error}");
}

/// R5.1b: the leader's spade masters are not all sure tricks when its partner, void in spades
/// and holding trump, must ruff the first and take the lead (the last trick then goes to the
/// ace of hearts). Seat 2 (KD KS AS) leads, diamonds trump; seat 0 holds 7D 8D 9H, seat 1 QC
/// 8H AH, seat 3 7C JC 6H. The quick bound once counted both spades (found by
/// tests/test_solver.py's hypothesis search).
#[test]
fn a_partner_forced_to_ruff_stops_the_cashing() {
    let rules = Rules {
        head_plain: true,
        undertrump_optional: true,
        ..Rules::default()
    };
    let mut hand = Hand::from_seed(3032689916156889961, 1, rules, [0, 0]);
    let actions = [
        37, 33, 30, 32, 28, 13, 17, 14, 12, 29, 23, 31, 9, 7, 2, 4, 3, 22, 19, 24, 25, 0, 15, 8, 27,
    ];
    for action in actions {
        hand.apply(action).unwrap();
    }
    let solution = Solver::new().solve(&hand).unwrap();
    for card in solution.legal.iter() {
        let mut next = hand;
        next.play_unchecked(card);
        let won = team0_taken(&next) - team0_taken(&hand);
        assert_eq!(
            solution.value_of(card),
            won + minimax_team0(&next),
            "{card}"
        );
    }
}

/// One deal dealt from `seed`, trump `trump` called by eldest, then `plays` cards chosen by a
/// generator seeded from the deal alone among the plays legal under the strictest play rules
/// (R5.1a's `head_plain` on, the exemptions off), so the same cards are legal under every
/// variant: the position is the same under each `rules`, only the rules differ.
fn deal_under(seed: u64, trump: u8, rules: Rules, plays: usize) -> Hand {
    let strictest = Rules {
        head_plain: true,
        ..Rules::default()
    };
    let mut chooser = Hand::from_seed(seed, seat_of(seed), strictest, [0, 0]);
    let mut hand = Hand::from_seed(seed, seat_of(seed), rules, [0, 0]);
    for hand in [&mut chooser, &mut hand] {
        hand.apply(CALL_BASE + trump).unwrap();
    }
    let mut rng = SplitMix64::new(seed ^ 0x5EED);
    for _ in 0..plays {
        let legal = chooser.legal_cards();
        let card = legal.nth(rng.below(legal.len()));
        chooser.play_unchecked(card);
        hand.apply(card.index()).unwrap();
    }
    hand
}

/// Asserts that `warm` (a solver that has seen other positions) solves `hand` exactly as a
/// new solver does: value, every play's value and the best plays.
fn assert_solves_as_fresh(warm: &mut Solver, hand: &Hand, what: &str) {
    let got = warm.solve(hand).unwrap();
    let want = Solver::new().solve(hand).unwrap();
    assert_eq!(got.value, want.value, "{what}");
    assert_eq!(got.best, want.best, "{what}");
    for card in hand.legal_cards() {
        assert_eq!(
            got.value_of(card),
            want.value_of(card),
            "{what}, card {card}"
        );
    }
}

/// A solver's table holds values for one trump and one set of play variants (R5.1): a user
/// asking "which trump is best for this deal" solves the same cards under every trump on one
/// solver, and each answer must be a fresh solver's.
#[test]
fn one_solver_solves_a_deal_under_every_trump_as_a_fresh_one() {
    let mut solver = Solver::new();
    for seed in 0..3u64 {
        // Trumps in an order that comes back to the first: C D H S C H.
        for trump in [0u8, 1, 2, 3, 0, 2] {
            let hand = deal_under(7000 + seed, trump, Rules::default(), 4);
            assert_solves_as_fresh(&mut solver, &hand, &format!("seed {seed} trump {trump}"));
        }
    }
}

/// The same for the play variants (R5.1a-c): for each variant, positions whose values it
/// changes (found among a few hundred), solved on one solver with the variant off, on, and
/// off again, and then under all eight combinations in turn.
#[test]
fn one_solver_solves_a_deal_under_every_play_variant_as_a_fresh_one() {
    let toggles: [fn(&mut Rules) -> &mut bool; 3] = [
        |rules| &mut rules.head_plain,
        |rules| &mut rules.undertrump_optional,
        |rules| &mut rules.partner_exempt,
    ];
    let mut solver = Solver::new();
    for (flag, toggle) in toggles.iter().enumerate() {
        let with = |on: bool, seed: u64| {
            let mut rules = Rules::default();
            *toggle(&mut rules) = on;
            deal_under(7100 + seed, (seed % 4) as u8, rules, 16)
        };
        let fresh_values = |hand: &Hand| Solver::new().solve(hand).unwrap().values;
        let mattering: Vec<u64> = (0..400u64)
            .filter(|&seed| fresh_values(&with(false, seed)) != fresh_values(&with(true, seed)))
            .take(3)
            .collect();
        assert!(!mattering.is_empty(), "variant {flag} changes no value");
        for seed in mattering {
            for on in [false, true, false] {
                let what = format!("variant {flag} {on}, seed {seed}");
                assert_solves_as_fresh(&mut solver, &with(on, seed), &what);
            }
            for k in (0..8u64).chain([0]) {
                let hand = deal_under(7100 + seed, (seed % 4) as u8, variant(k), 16);
                assert_solves_as_fresh(&mut solver, &hand, &format!("seed {seed} rules {k}"));
            }
        }
    }
}

/// `solve_many` keeps one solver a thread: deals that differ only in trump or in the play
/// variants, in a row, give on any thread count what a fresh solver gives each.
#[test]
fn solve_many_on_deals_differing_in_trump_or_rules_equals_fresh_solves() {
    let hands: Vec<Hand> = (0..4u8)
        .map(|trump| deal_under(7200, trump, Rules::default(), 4))
        .chain((0..8u64).map(|k| deal_under(7200, 1, variant(k), 8)))
        .collect();
    let fresh: Vec<Solution> = hands
        .iter()
        .map(|hand| Solver::new().solve(hand).unwrap())
        .collect();
    for threads in [1, 2, 0] {
        let solved = solve_many(&hands, threads).unwrap();
        for (i, (got, want)) in solved.iter().zip(&fresh).enumerate() {
            assert_eq!(
                (got.value, got.values, got.best),
                (want.value, want.values, want.best),
                "hand {i} on {threads} threads"
            );
        }
    }
}
