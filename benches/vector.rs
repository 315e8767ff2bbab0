//! `cargo bench --bench vector`: the vectorized environment's steps a second inside Rust (no
//! Python), 1,000 games, each step taking every game's lowest legal action from the mask it
//! wrote; compact rows and float tensors, on one thread and on two; and, in the same run, the
//! self-play decisions a second (random bots, compact rows, one thread) and `simulate`'s random
//! actions a second on one thread (the engine's own pace, as the baseline). Two threads are
//! also set against what the machine gives two threads at that moment: two independent
//! environments of half the games, one a thread, and `simulate` on two threads against one.
//! Each figure is the median of several rounds, and every round checks its result.

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

/// The arrays of a vector's games.
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
    fn new(games: usize, encoding: Encoding) -> Arrays {
        let row = match encoding {
            Encoding::Tensor => TENSOR_SIZE * 4,
            Encoding::Compact => COMPACT_SIZE,
        };
        Arrays {
            // f32-aligned bytes: the tensor rows are float32.
            observation: vec![0; games * row + 4],
            mask: vec![0; games * NUM_ACTIONS as usize],
            seat: vec![0; games],
            reward: vec![0.0; games],
            terminated: vec![false; games],
            hand_over: vec![false; games],
            score: vec![0; 2 * games],
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

/// Games with all seats controlled, stepped with their lowest legal action, with arrays.
struct Stepper {
    env: VectorEnv,
    arrays: Arrays,
    actions: Vec<i64>,
}

impl Stepper {
    fn new(encoding: Encoding, threads: usize) -> Stepper {
        Stepper::with_games(ENVS, encoding, threads)
    }

    /// `games` games.
    fn with_games(games: usize, encoding: Encoding, threads: usize) -> Stepper {
        let config = VectorConfig {
            rules: Rules::default(),
            controlled: [true; 4],
            opponents: None,
            episode: Episode::Hand,
            encoding,
        };
        Stepper {
            env: VectorEnv::new(games, config, 1, threads),
            arrays: Arrays::new(games, encoding),
            actions: vec![0i64; games],
        }
    }

    /// Round `round`: `steps` steps from a reset; the seconds spent in `step` alone and in
    /// the whole loop (reading the masks for the actions included), by wall time.
    fn round(&mut self, round: usize, steps: usize) -> (f64, f64) {
        let start = Instant::now();
        // SAFETY: the arrays hold a row of every output for each game.
        unsafe { self.env.reset(Some(round as u64), self.arrays.outputs()) };
        let (mut hands, mut stepping) = (0, 0.0);
        for _ in 0..steps {
            for (i, action) in self.actions.iter_mut().enumerate() {
                let mask = &self.arrays.mask[i * NUM_ACTIONS as usize..][..NUM_ACTIONS as usize];
                *action = mask.iter().position(|&m| m == 1).unwrap_or(0) as i64;
            }
            self.env
                .check(&self.actions)
                .expect("the lowest legal action is legal");
            let step = Instant::now();
            // SAFETY: as above.
            unsafe { self.env.step(&self.actions, self.arrays.outputs()) };
            stepping += step.elapsed().as_secs_f64();
            hands += self.arrays.hand_over.iter().filter(|&&h| h).count();
        }
        let whole = start.elapsed().as_secs_f64();
        // A hand is 37 steps here (a call, 36 cards; R3, R5), plus one to start the next.
        let games = self.actions.len();
        assert!(
            hands * 30 < steps * games && hands * 60 > steps * games,
            "{hands} hands in {steps} steps"
        );
        (stepping, whole)
    }
}

/// Steps a second on one thread and on two, `step` alone and the whole loop, by wall time:
/// the medians of rounds that alternate between the two, so that other work on the machine
/// weighs on both alike; the median of the rounds' two-thread ratios (step alone); and, as the
/// ceiling two threads could reach on the machine now with the same memory, the median ratio
/// of the two-thread environment to two independent one-thread environments of half the games
/// each, stepped at once on two threads (no barrier, no rows shared with the caller), in the
/// same alternation.
struct Scaling {
    one: [f64; 2],
    two: [f64; 2],
    ratio: f64,
    of_halves: f64,
}

fn scaling(encoding: Encoding, steps: usize) -> Scaling {
    let (mut one, mut two) = (Stepper::new(encoding, 1), Stepper::new(encoding, 2));
    let mut halves = [0, 1].map(|_| Stepper::with_games(ENVS / 2, encoding, 1));
    let count = (steps * ENVS) as f64;
    let (mut rates_one, mut rates_two, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut of_halves = Vec::new();
    for round in 0..ROUNDS {
        let a = one.round(round, steps);
        let b = two.round(round, steps);
        let [first, second] = &mut halves;
        let halves_step = std::thread::scope(|scope| {
            let other = scope.spawn(|| second.round(round, steps).0);
            let mine = first.round(round, steps).0;
            mine.max(other.join().expect("the other half's thread ends"))
        });
        rates_one.push([count / a.0, count / a.1]);
        rates_two.push([count / b.0, count / b.1]);
        ratios.push(a.0 / b.0);
        of_halves.push(halves_step / b.0);
    }
    let medians =
        |rates: &[[f64; 2]]| [0, 1].map(|k| median(rates.iter().map(|rate| rate[k]).collect()));
    Scaling {
        one: medians(&rates_one),
        two: medians(&rates_two),
        ratio: median(ratios),
        of_halves: median(of_halves),
    }
}

/// `simulate`'s random hands a second on two threads against one, alternating: what a second
/// thread can give at all on this machine now (no step barriers).
fn simulate_scaling(hands: u64) -> f64 {
    let batch = Batch {
        seed: 3,
        rules: Rules::default(),
        bots: [BotSpec::Random; 4],
    };
    let mut ratios = Vec::new();
    for _ in 0..ROUNDS {
        let seconds = [1, 2].map(|threads| {
            let start = Instant::now();
            let summary = simulate_on(&batch, 0..hands, false, threads);
            assert_eq!(summary.hands, hands);
            start.elapsed().as_secs_f64()
        });
        ratios.push(seconds[0] / seconds[1]);
    }
    median(ratios)
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
    let compact = scaling(Encoding::Compact, 200);
    let tensor = scaling(Encoding::Tensor, 100);
    let control = simulate_scaling(100_000);
    let self_play = self_play_per_second(20_000);
    let simulate = simulate_actions_per_second(100_000);
    let m = |rate: f64| rate / 1e6;
    println!(
        "load average {load} at the start, {} at the end",
        load_average()
    );
    println!(
        "vector env, {ENVS} games, M steps a second by wall time (median of {ROUNDS} rounds):"
    );
    println!("                      step alone   whole loop");
    for (name, scaling) in [("compact", &compact), ("tensor", &tensor)] {
        println!(
            "  {name:<8}1 thread   {:>7.2}      {:>7.2}",
            m(scaling.one[0]),
            m(scaling.one[1])
        );
        println!(
            "  {name:<8}2 threads  {:>7.2}      {:>7.2}   ({:.2}x one thread, step alone; \
             {:.2} of two independent halves)",
            m(scaling.two[0]),
            m(scaling.two[1]),
            scaling.ratio,
            scaling.of_halves
        );
    }
    println!("  control: simulate, 2 threads against 1: {control:.2}x");
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
