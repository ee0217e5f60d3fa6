//! Formats the sensor bench's kinds of values in a loop, for instruction profiles of the float
//! spellings: `valgrind --tool=callgrind target/release/examples/float_profile jdk17` (or `jdk19`;
//! `ryu` formats with the `ryu` crate instead, the baseline arrow-json uses). An optional second
//! argument repeats the formatting that many times, for timings (`perf stat -e task-clock`).
use kjson_runtime::float::{write_f32_json, write_f64_json, FLOAT_BOUND};
use kjson_runtime::spelling::sink::with_reserved;
use kjson_runtime::FloatSpelling;
use std::hint::black_box;

const ROWS: usize = 20_000;

/// SplitMix64: deterministic values without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: u64) -> f64 {
        (self.next() % n) as f64
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let repeats: usize = std::env::args().nth(2).and_then(|n| n.parse().ok()).unwrap_or(1);
    let spelling = if mode == "jdk19" { FloatSpelling::Jdk19 } else { FloatSpelling::Jdk17 };
    let mut rng = Rng(42);
    let mut doubles = Vec::with_capacity(ROWS * 8);
    let mut floats = Vec::with_capacity(ROWS * 2);
    for _ in 0..ROWS {
        let voltage = 200.0 + rng.unit() * 40.0;
        let current = rng.unit() * 16.0;
        doubles.extend([
            rng.below(6000) / 100.0 - 20.0,
            rng.below(1000) / 10.0,
            950.0 + rng.below(10_000) / 100.0,
            voltage,
            current,
            voltage * current,
            -90.0 + rng.unit() * 180.0,
            -180.0 + rng.unit() * 360.0,
        ]);
        floats.extend([rng.below(1001) as f32 / 10.0, -120.0 + rng.unit() as f32 * 90.0]);
    }
    let mut out = Vec::with_capacity(ROWS * 200);
    for _ in 0..repeats {
        out.clear();
        if mode == "ryu" {
            let mut buffer = ryu::Buffer::new();
            doubles.iter().for_each(|&v| out.extend_from_slice(buffer.format(v).as_bytes()));
            floats.iter().for_each(|&v| out.extend_from_slice(buffer.format(v).as_bytes()));
        } else {
            // As the encoders write a row: its values into capacity reserved for the whole row.
            for (row_doubles, row_floats) in doubles.chunks(8).zip(floats.chunks(2)) {
                with_reserved(&mut out, 10 * FLOAT_BOUND, |row| {
                    row_doubles.iter().for_each(|&v| write_f64_json(row, v, spelling));
                    row_floats.iter().for_each(|&v| write_f32_json(row, v, spelling));
                });
            }
        }
        black_box(&mut out);
    }
    println!("{} values, {} bytes ({mode})", doubles.len() + floats.len(), out.len());
}
