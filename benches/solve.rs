//! `cargo bench --bench solve`: the double-dummy solver (rust/solver/) on one thread, a full
//! solve (value and every first play's value) of random deals the moment trump is named
//! (nine tricks, 36 cards): median and 99th percentile time, nodes searched. Every solve is
//! checked: the value is within the points left and equals the best play's value.

use std::time::Instant;

use tarabish::{derive, Hand, Rules, Solver, SplitMix64, ENTRY_BYTES, TABLE_ENTRIES};

/// Deals solved.
const DEALS: u64 = 1_000;
/// Action id of the first trump call (R0: 36-39 call C D H S).
const CALL_BASE: u8 = 36;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let deals: u64 = std::env::var("SOLVE_DEALS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEALS);
    let mut solver = Solver::new();
    let mut times = Vec::new();
    let mut nodes = Vec::new();
    let mut passes = Vec::new();
    for index in 0..deals {
        let seed = derive(2026, index);
        let mut rng = SplitMix64::new(seed);
        let mut hand = Hand::from_seed(rng.next_u64(), (index % 4) as u8, Rules::default(), [0, 0]);
        hand.apply(CALL_BASE + rng.below(4) as u8).unwrap();
        if std::env::var("SOLVE_VALUE_ONLY").is_ok() {
            let start = Instant::now();
            let value = solver.value(&hand).unwrap();
            times.push(start.elapsed().as_secs_f64() * 1e3);
            assert!(value <= 162);
            nodes.push(solver.nodes as f64);
            passes.push(solver.passes as f64);
            continue;
        }
        let start = Instant::now();
        let solution = solver.solve(&hand).unwrap();
        times.push(start.elapsed().as_secs_f64() * 1e3);
        nodes.push(solution.nodes as f64);
        passes.push(solver.passes as f64);
        assert!(solution.value <= solution.points_left);
        assert_eq!(
            solution.value,
            solution.value_of(solution.best.first().unwrap())
        );
    }
    let ns_per_node = times.iter().sum::<f64>() * 1e6 / nodes.iter().sum::<f64>();
    times.sort_by(|a, b| a.total_cmp(b));
    nodes.sort_by(|a, b| a.total_cmp(b));
    passes.sort_by(|a, b| a.total_cmp(b));
    println!(
        "full solve at trick one, {deals} deals, one thread: median {:.2} ms, p99 {:.2} ms, \
         max {:.2} ms; nodes median {:.0}, p99 {:.0}, total {:.0}; aspiration windows median {:.0}, p99 {:.0}; {:.0} ns a node (table {} entries x {} bytes)",
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times[times.len() - 1],
        percentile(&nodes, 0.5),
        percentile(&nodes, 0.99),
        nodes.iter().sum::<f64>(),
        percentile(&passes, 0.5),
        percentile(&passes, 0.99),
        ns_per_node,
        TABLE_ENTRIES,
        ENTRY_BYTES,
    );
}
