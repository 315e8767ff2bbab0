//! `cargo bench`: random full hands (deal, auction, 36 plays, auto declarations, score) per
//! second inside Rust, on one thread and on all threads; greedy and heuristic bots' hands on one
//! thread; in the same run, random hands played
//! through table mode's `TableHand` (auto rules, then every table option on); plus the cost of
//! the primitives.
//! A plain harness (no extra dependencies); each figure is the median of several rounds, and
//! every round checks its result.

use std::hint::black_box;
use std::time::Instant;

use tarabish::{
    deal_with, derive, legal_plays, parse_cards, random_action, simulate_on, Batch, BotSpec,
    CardSet, Declarations, Hand, InfoSet, Rules, SplitMix64, Suit, Summary, TableHand, TrickSoFar,
    WorldSampler, MISPLAY, THROW,
};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.total_cmp(b));
    samples[samples.len() / 2]
}

/// Hands a second of four `bots` (the random ones take `sim`'s fast path; the others get
/// their information sets from an `InfoTracker`).
fn hands_per_second(bots: BotSpec, threads: usize, hands: u64) -> (f64, Summary) {
    let batch = Batch {
        seed: 7,
        rules: Rules::default(),
        bots: [bots; 4],
    };
    let mut rates = Vec::new();
    let mut last = Summary::default();
    for _ in 0..5 {
        let start = Instant::now();
        let summary = simulate_on(&batch, 0..hands, false, threads);
        rates.push(hands as f64 / start.elapsed().as_secs_f64());
        assert_eq!(summary.hands, hands);
        assert_eq!(summary.outcomes.iter().sum::<u64>(), hands);
        // Every played-out hand counts 162 in cards and last (R1.4).
        let tricks: u64 = summary.trick_points_by_seat.iter().sum();
        assert_eq!(tricks, 162 * (hands - summary.outcomes[3]));
        if last.hands > 0 {
            assert_eq!(summary, last, "a batch gives the same summary every time");
        }
        last = summary;
    }
    (median(rates), last)
}

/// Random hands through [`TableHand`] on one thread: each hand dealt as `sim` deals it, every
/// action drawn from the legal ids of the seat to move less the two calls, so that every hand
/// is played out (with declarations in manual mode) and its score is R6's.
/// The misplay and throw calls (docs/TABLE.md ids 44, 45).
const CALLS: u64 = 1 << MISPLAY | 1 << THROW;

fn table_hands_per_second(rules: Rules, hands: u64) -> f64 {
    let mut rates = Vec::new();
    let mut last = None;
    for _ in 0..5 {
        let start = Instant::now();
        let mut total = [0u64; 2];
        for index in 0..hands {
            let mut rng = SplitMix64::new(derive(7, index));
            let dealer = (index % 4) as u8;
            let mut hand = TableHand::from_deal(deal_with(&mut rng, dealer), dealer, rules, [0, 0]);
            while let Some(seat) = hand.hand().to_move() {
                // After a bella whose K and Q R5.1 forbids now, only a misplay is left (R8.6e).
                let legal = hand.legal_mask(seat) & !CALLS;
                let mask = if legal != 0 {
                    legal
                } else {
                    hand.allowed_mask(seat) & !CALLS
                };
                let id = random_action(mask, &mut rng);
                hand.apply_unchecked(seat, id);
            }
            let score = hand.hand().score();
            total[0] += score[0] as u64;
            total[1] += score[1] as u64;
        }
        rates.push(hands as f64 / start.elapsed().as_secs_f64());
        // R6: every hand not void scores at least half of its count of 162 or more.
        assert!(total[0] + total[1] >= 81 * hands, "hands were scored");
        if let Some(previous) = last {
            assert_eq!(total, previous, "the same hands every round");
        }
        last = Some(total);
    }
    median(rates)
}

/// Builds of a world sampler for `info` timed one by one: the first (cold: the process's
/// one-time tables and fresh pages) and the median of the next ones (what a decision pays), in
/// microseconds.
fn sampler_build_micros(info: &InfoSet) -> (f64, f64) {
    const BUILDS: usize = 21;
    let mut micros = (0..BUILDS).map(|_| {
        let start = Instant::now();
        let sampler = WorldSampler::new(info);
        let elapsed = start.elapsed().as_secs_f64() * 1e6;
        assert!(sampler.count() > 1);
        elapsed
    });
    let cold = micros.next().unwrap_or(f64::NAN);
    (cold, median(micros.collect()))
}

fn nanos_per_call(mut f: impl FnMut() -> u64) -> f64 {
    let mut samples = Vec::new();
    for _ in 0..7 {
        let n = 2_000_000;
        let start = Instant::now();
        let mut sink = 0u64;
        for _ in 0..n {
            sink = sink.wrapping_add(f());
        }
        black_box(sink);
        samples.push(start.elapsed().as_nanos() as f64 / n as f64);
    }
    median(samples)
}

fn main() {
    let hands = 1_000_000;
    let (one, summary_one) = hands_per_second(BotSpec::Random, 1, hands);
    let (all, summary_all) = hands_per_second(BotSpec::Random, 0, hands);
    assert_eq!(summary_one, summary_all, "threads do not change the result");
    println!(
        "random hands, 1 thread:   {one:>12.0} hands/s ({:.0} ns/hand)",
        1e9 / one
    );
    println!(
        "random hands, all threads: {all:>11.0} hands/s ({:.2}x one thread)",
        all / one
    );
    for bots in [BotSpec::Greedy, BotSpec::Heuristic] {
        let (rate, _) = hands_per_second(bots, 1, hands / 10);
        println!("{bots} hands, 1 thread: {rate:>12.0} hands/s");
    }
    let table_hands = hands / 4;
    let auto = table_hands_per_second(Rules::default(), table_hands);
    println!(
        "TableHand, auto rules, 1 thread:  {auto:>10.0} hands/s ({:.2}x Hand)",
        auto / one
    );
    let table_rules = Rules {
        declarations: Declarations::Manual,
        enforce_legal_play: false,
        late_twenty: true,
        first_bell_ok: true,
        ..Rules::default()
    };
    let table = table_hands_per_second(table_rules, table_hands);
    println!(
        "TableHand, table mode, 1 thread:  {table:>10.0} hands/s ({:.2}x Hand)",
        table / one
    );

    let hand: CardSet = parse_cards("6S 7S 8S 9S AH KD QC JC")
        .unwrap()
        .into_iter()
        .collect();
    let trick = TrickSoFar::of(&parse_cards("TS JH").unwrap(), Suit::Spades);
    let rules = Rules::default();
    let expected = parse_cards("9S").unwrap()[0].bit();
    assert_eq!(legal_plays(hand, &trick, Suit::Spades, &rules), expected);
    let legal = nanos_per_call(|| {
        legal_plays(black_box(hand), black_box(&trick), Suit::Spades, &rules).bits()
    });
    println!("legal_plays:  {legal:.2} ns/call");
    let full = parse_cards("8S 9S TS JH").unwrap();
    let winner = nanos_per_call(|| TrickSoFar::of(black_box(&full), Suit::Hearts).winner() as u64);
    assert_eq!(TrickSoFar::of(&full, Suit::Hearts).winner(), 3);
    println!("trick winner: {winner:.2} ns/call");
    let dealt = Hand::from_seed(1, 0, rules, [0, 0]);
    let copy = nanos_per_call(|| {
        let copy = black_box(dealt);
        copy.legal_mask()
    });
    println!("copy a Hand + legal mask: {copy:.2} ns");

    sampled_worlds();
    ismcts();
}

/// The CPU time of this process so far (user + system, from `/proc/self/stat`; `None` where
/// there is no such file): with the wall clock it tells a machine busy with other work (CPU
/// time per iteration unchanged, wall clock longer) from a serial section in the search.
fn process_cpu_seconds() -> Option<f64> {
    /// Clock ticks a second of `/proc` times (`getconf CLK_TCK` on Linux).
    const TICKS: f64 = 100.0;
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / TICKS)
}

/// ISMCTS (docs/SEARCH.md) at trick one: iterations a second on one thread with random and
/// greedy playouts, a decision at the default budget, and root parallelism on two threads
/// (wall clock and CPU time: a speed-up below 2x with the same CPU time an iteration means the
/// second core was busy, not that the search has a serial section).
fn ismcts() {
    let mut hand = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
    hand.apply(36).unwrap();
    let seat = hand.to_move().unwrap();
    let info = InfoSet::new(&hand, seat);
    let legal = hand.legal_mask();
    let (_, setup_micros) = sampler_build_micros(&info);
    // The median wall-clock seconds of a decision and the mean CPU seconds (over all rounds:
    // `/proc` counts in hundredths of a second).
    let time = |spec: &str| {
        const ROUNDS: u64 = 15;
        let mut bot = BotSpec::parse(spec).unwrap().build();
        let mut walls = Vec::new();
        let cpu = process_cpu_seconds();
        for round in 0..ROUNDS {
            let start = Instant::now();
            let action = bot.act(&info, legal, &mut SplitMix64::new(round));
            walls.push(start.elapsed().as_secs_f64());
            assert!(legal & (1 << action) != 0);
        }
        let cpu = match (cpu, process_cpu_seconds()) {
            (Some(before), Some(after)) => (after - before) / ROUNDS as f64,
            _ => f64::NAN,
        };
        (median(walls), cpu)
    };
    let iterations = 20_000.0;
    let (random, random_cpu) = time("ismcts:iterations=20000,playout=0");
    let (greedy, _) = time("ismcts:iterations=20000,playout=1");
    let (two, two_cpu) = time("ismcts:iterations=20000,playout=0,threads=2");
    let (default, _) = time("ismcts");
    println!(
        "ismcts, 1 thread: {:.0} iterations/s (random playouts), {:.0} (greedy playouts); sampler built in {:.2} ms a decision (median of warm builds)",
        iterations / random,
        iterations / greedy,
        setup_micros / 1e3
    );
    println!(
        "ismcts, 2 threads: {:.2}x one thread wall-clock (CPU time a decision {:.1} ms on 2 threads, {:.1} ms on 1); a decision at the default budget: {:.1} ms",
        random / two,
        two_cpu * 1e3,
        random_cpu * 1e3,
        default * 1e3
    );
}

/// Sampled worlds at trick one (docs/SEARCH.md): the seat to move after two cards, so two
/// seats have announced; the sampler is built once, then each world is a deal (and a state).
fn sampled_worlds() {
    let mut hand = Hand::from_seed(3, 0, Rules::default(), [0, 0]);
    hand.apply(36).unwrap(); // eldest calls clubs
    for _ in 0..2 {
        let first = hand.legal_mask().trailing_zeros() as u8;
        hand.apply(first).unwrap();
    }
    let seat = hand.to_move().unwrap();
    let info = InfoSet::new(&hand, seat);
    let (cold, warm) = sampler_build_micros(&info);
    let sampler = WorldSampler::new(&info);
    let mut rng = SplitMix64::new(9);
    let deal = nanos_per_call(|| sampler.sample_deal(&mut rng)[0][8].index() as u64);
    let state = nanos_per_call(|| sampler.sample(&mut rng).legal_mask());
    println!(
        "sampled worlds, trick one: {deal:.0} ns/deal ({:.2} M/s), {state:.0} ns/state; sampler built in {warm:.0} us (the process's first build {cold:.0} us) ({} worlds)",
        1e3 / deal,
        sampler.count()
    );
}
