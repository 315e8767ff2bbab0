//! `cargo bench --bench vector`: the vectorized environment's steps a second inside Rust (no
//! Python), 1,000 games, each step taking every game's lowest legal action from the mask it
//! wrote; compact rows and float tensors, on one thread and on two; and, in the same run, the
//! self-play decisions a second (random bots, compact rows, one thread) and `simulate`'s random
//! actions a second on one thread (the engine's own pace, as the baseline). Each figure is the
//! median of several rounds, and every round checks its result.

use std::time::Instant;

use tarabish::{
    play_logs, row_starts, simulate_on, write_rows, Batch, BotSpec, Encoding, Episode, Outputs,
    Rows, Rules, VectorConfig, VectorEnv, COMPACT_SIZE, NUM_ACTIONS, TENSOR_SIZE,
};

const ENVS: usize = 1_000;
const ROUNDS: usize = 7;

/// The calling thread's CPU time so far in seconds (Linux: /proc/thread-self/schedstat), so a
/// one-thread figure does not depend on the other work of a loaded machine; wall time elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".into())
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

/// The arrays of `ENVS` games.
struct Arrays {
    observation: Vec<u8>,
    mask: Vec<i8>,
    seat: Vec<i64>,
    reward: Vec<f32>,
    terminated: Vec<bool>,
    hand_over: Vec<bool>,
    score: Vec<i32>,
}

impl Arrays {
    fn new(encoding: Encoding) -> Arrays {
        let row = match encoding {
            Encoding::Tensor => TENSOR_SIZE * 4,
            Encoding::Compact => COMPACT_SIZE,
        };
        Arrays {
            // f32-aligned bytes: the tensor rows are float32.
            observation: vec![0; ENVS * row + 4],
            mask: vec![0; ENVS * NUM_ACTIONS as usize],
            seat: vec![0; ENVS],
            reward: vec![0.0; ENVS],
            terminated: vec![false; ENVS],
            hand_over: vec![false; ENVS],
            score: vec![0; 2 * ENVS],
        }
    }

    fn outputs(&mut self) -> Outputs {
        let base = self.observation.as_mut_ptr();
        Outputs {
            observation: base.wrapping_add(base.align_offset(4)),
            action_mask: self.mask.as_mut_ptr(),
            seat: self.seat.as_mut_ptr(),
            reward: self.reward.as_mut_ptr(),
            terminated: self.terminated.as_mut_ptr(),
            hand_over: self.hand_over.as_mut_ptr(),
            score: self.score.as_mut_ptr(),
        }
    }
}

/// A rate by wall time and by the calling thread's CPU time (medians of the rounds).
struct Rate {
    wall: f64,
    cpu: f64,
}

/// Times `round` (returning how many things it did) `ROUNDS` times.
fn rate(mut round: impl FnMut(usize) -> usize) -> Rate {
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    for k in 0..ROUNDS {
        let (start, cpu_start) = (Instant::now(), thread_cpu_seconds());
        let count = round(k) as f64;
        wall.push(count / start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu_seconds()) {
            cpu.push(count / (b - a));
        }
    }
    Rate {
        wall: median(wall),
        cpu: if cpu.is_empty() {
            f64::NAN
        } else {
            median(cpu)
        },
    }
}

/// Steps a second of `ENVS` games, all seats controlled, lowest legal action.
fn steps_per_second(encoding: Encoding, threads: usize, steps: usize) -> Rate {
    let config = VectorConfig {
        rules: Rules::default(),
        controlled: [true; 4],
        opponents: None,
        episode: Episode::Hand,
        encoding,
    };
    let mut env = VectorEnv::new(ENVS, config, 1, threads);
    let mut arrays = Arrays::new(encoding);
    let mut actions = vec![0i64; ENVS];
    rate(|round| {
        // SAFETY: the arrays hold ENVS rows of every output.
        unsafe { env.reset(Some(round as u64), arrays.outputs()) };
        let mut hands = 0;
        for _ in 0..steps {
            for (i, action) in actions.iter_mut().enumerate() {
                let mask = &arrays.mask[i * NUM_ACTIONS as usize..][..NUM_ACTIONS as usize];
                *action = mask.iter().position(|&m| m == 1).unwrap_or(0) as i64;
            }
            env.check(&actions)
                .expect("the lowest legal action is legal");
            // SAFETY: as above.
            unsafe { env.step(&actions, arrays.outputs()) };
            hands += arrays.hand_over.iter().filter(|&&h| h).count();
        }
        // A hand is 37 steps here (a call, 36 cards; R3, R5), plus one to start the next.
        assert!(
            hands * 30 < steps * ENVS && hands * 60 > steps * ENVS,
            "{hands} hands in {steps} steps"
        );
        steps * ENVS
    })
}

/// Self-play decisions a second on one thread, compact rows.
fn self_play_per_second(hands: u64) -> Rate {
    let batch = Batch {
        seed: 3,
        rules: Rules::default(),
        bots: [BotSpec::Random; 4],
    };
    rate(|_| {
        let logs = play_logs(&batch, hands, 1);
        let starts = row_starts(&logs);
        let total = starts[logs.len()];
        let mut hand = vec![0i64; total];
        let mut seat = vec![0i8; total];
        let mut observation = vec![0u8; total * COMPACT_SIZE];
        let mut mask = vec![0i8; total * NUM_ACTIONS as usize];
        let mut action = vec![0i8; total];
        let mut score = vec![0i32; 2 * total];
        let rows = Rows {
            hand: hand.as_mut_ptr(),
            seat: seat.as_mut_ptr(),
            observation: observation.as_mut_ptr(),
            action_mask: mask.as_mut_ptr(),
            action: action.as_mut_ptr(),
            score: score.as_mut_ptr(),
        };
        // SAFETY: every array holds `total` rows.
        unsafe { write_rows(&batch, &logs, &starts, Encoding::Compact, rows, 1) };
        assert_eq!(hand[total - 1], hands as i64 - 1);
        assert!(total as u64 > 36 * hands && (total as u64) < 41 * hands);
        total
    })
}

/// `simulate`'s random actions a second on one thread (about 38.5 actions a hand).
fn simulate_actions_per_second(hands: u64) -> Rate {
    let batch = Batch {
        seed: 3,
        rules: Rules::default(),
        bots: [BotSpec::Random; 4],
    };
    let logs = play_logs(&batch, 2_000, 1);
    let actions_a_hand =
        logs.iter().map(|log| log.actions().len()).sum::<usize>() as f64 / logs.len() as f64;
    rate(|_| {
        let summary = simulate_on(&batch, 0..hands, false, 1);
        assert_eq!(summary.hands, hands);
        (hands as f64 * actions_a_hand) as usize
    })
}

fn main() {
    let load = load_average();
    let compact_one = steps_per_second(Encoding::Compact, 1, 200);
    let compact_two = steps_per_second(Encoding::Compact, 2, 200);
    let tensor_one = steps_per_second(Encoding::Tensor, 1, 100);
    let tensor_two = steps_per_second(Encoding::Tensor, 2, 100);
    let self_play = self_play_per_second(20_000);
    let simulate = simulate_actions_per_second(100_000);
    let m = |rate: f64| rate / 1e6;
    println!(
        "load average {load} at the start, {} at the end",
        load_average()
    );
    println!("vector env, {ENVS} games, M steps a second (median of {ROUNDS} rounds):");
    println!("                      wall     CPU time of the one thread");
    println!(
        "  compact, 1 thread  {:>6.2}   {:>6.2}",
        m(compact_one.wall),
        m(compact_one.cpu)
    );
    println!(
        "  compact, 2 threads {:>6.2}            ({:.2}x one thread, wall)",
        m(compact_two.wall),
        compact_two.wall / compact_one.wall
    );
    println!(
        "  tensor, 1 thread   {:>6.2}   {:>6.2}",
        m(tensor_one.wall),
        m(tensor_one.cpu)
    );
    println!(
        "  tensor, 2 threads  {:>6.2}            ({:.2}x one thread, wall)",
        m(tensor_two.wall),
        tensor_two.wall / tensor_one.wall
    );
    println!(
        "  self-play, random bots, compact, 1 thread: {:.2} wall, {:.2} CPU M decisions a second",
        m(self_play.wall),
        m(self_play.cpu)
    );
    println!(
        "  baseline, simulate, random bots, 1 thread: {:.2} wall, {:.2} CPU M actions a second",
        m(simulate.wall),
        m(simulate.cpu)
    );
}
