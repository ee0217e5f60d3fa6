//! Micro-benchmark of the Java float spellings against the `ryu` crate, on the same values.
//!
//! Run: `cargo test --release -p kjson-runtime --test float_bench -- --ignored --nocapture`
//! Prints ns/value for ryu and both spellings, and each spelling's ratio to ryu (each chunk of
//! values timed several times, the fastest timing counted).
use kjson_runtime::float::{write_f32_json, write_f64_json};
use kjson_runtime::FloatSpelling;
use std::hint::black_box;
use std::time::Instant;

const VALUES: usize = 1 << 16;
/// Values timed together: short enough that most timings see no preemption on a busy machine.
const CHUNK: usize = 256;
/// Timings of each chunk per formatter; the fastest counts.
const ROUNDS: usize = 15;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Readings as sensors produce them: a magnitude from 1e-3 to 1e5, some rounded to a few decimals.
fn sensor_doubles(rng: &mut Rng) -> Vec<f64> {
    (0..VALUES)
        .map(|i| {
            let magnitude = 10f64.powf(rng.unit() * 8.0 - 3.0);
            let value = if rng.unit() < 0.5 { -magnitude } else { magnitude };
            match i % 3 {
                0 => value,
                1 => (value * 100.0).round() / 100.0,
                _ => (value * 1e4).round() / 1e4,
            }
        })
        .collect()
}

fn random_bit_doubles(rng: &mut Rng) -> Vec<f64> {
    (0..VALUES).map(|_| f64::from_bits(rng.next())).filter(|v| v.is_finite()).collect()
}

fn random_bit_floats(rng: &mut Rng) -> Vec<f32> {
    (0..VALUES).map(|_| f32::from_bits(rng.next() as u32)).filter(|v| v.is_finite()).collect()
}

/// Time of one pass of `format` over `values`, in ns.
fn pass_ns<T: Copy>(values: &[T], out: &mut Vec<u8>, format: &dyn Fn(&mut Vec<u8>, T)) -> f64 {
    out.clear();
    let start = Instant::now();
    for &value in values {
        format(out, value);
    }
    black_box(&*out);
    start.elapsed().as_nanos() as f64
}

/// A float formatter under test: appends the text of one value.
type Formatter<T> = dyn Fn(&mut Vec<u8>, T);

/// Ns/value of each formatter: per chunk of values the fastest of several timings, summed. The
/// formatters take turns on each chunk, and a short timing is rarely preempted, so the sum
/// approaches the unloaded cost even on a shared machine.
fn best_of_runs<T: Copy>(values: &[T], formatters: &[&Formatter<T>]) -> Vec<f64> {
    let mut out = Vec::with_capacity(CHUNK * 32);
    let mut total = vec![0.0; formatters.len()];
    for chunk in values.chunks(CHUNK) {
        let mut best = vec![f64::INFINITY; formatters.len()];
        for _ in 0..ROUNDS {
            for (slot, format) in best.iter_mut().zip(formatters) {
                *slot = slot.min(pass_ns(chunk, &mut out, *format));
            }
        }
        total.iter_mut().zip(&best).for_each(|(sum, ns)| *sum += ns);
    }
    total.iter().map(|ns| ns / values.len() as f64).collect()
}

fn ryu_f64(out: &mut Vec<u8>, value: f64) {
    out.extend_from_slice(ryu::Buffer::new().format_finite(value).as_bytes());
}

fn ryu_f32(out: &mut Vec<u8>, value: f32) {
    out.extend_from_slice(ryu::Buffer::new().format_finite(value).as_bytes());
}

fn report(name: &str, best: &[f64]) {
    let (ryu_ns, jdk17_ns, jdk19_ns) = (best[0], best[1], best[2]);
    println!(
        "{name:<20} ryu {ryu_ns:6.1} ns | jdk17 {jdk17_ns:6.1} ns ({:4.2}x) | jdk19 {jdk19_ns:6.1} ns ({:4.2}x)",
        jdk17_ns / ryu_ns,
        jdk19_ns / ryu_ns
    );
}

#[test]
#[ignore = "benchmark: run in release mode with --ignored --nocapture"]
fn float_formatting_against_ryu() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let double_sets =
        [("sensor doubles", sensor_doubles(&mut rng)), ("random-bit doubles", random_bit_doubles(&mut rng))];
    let jdk17_f64 = |out: &mut Vec<u8>, v: f64| write_f64_json(out, v, FloatSpelling::Jdk17);
    let jdk19_f64 = |out: &mut Vec<u8>, v: f64| write_f64_json(out, v, FloatSpelling::Jdk19);
    for (name, values) in &double_sets {
        report(name, &best_of_runs(values, &[&ryu_f64, &jdk17_f64, &jdk19_f64]));
    }
    let jdk17_f32 = |out: &mut Vec<u8>, v: f32| write_f32_json(out, v, FloatSpelling::Jdk17);
    let jdk19_f32 = |out: &mut Vec<u8>, v: f32| write_f32_json(out, v, FloatSpelling::Jdk19);
    let sensor_floats: Vec<f32> = double_sets[0].1.iter().map(|&v| v as f32).collect();
    for (name, values) in [("sensor floats", sensor_floats), ("random-bit floats", random_bit_floats(&mut rng))] {
        report(name, &best_of_runs(&values, &[&ryu_f32, &jdk17_f32, &jdk19_f32]));
    }
}
