//! Checks `java_float_to_string` over every float bit pattern of a range against block hashes from
//! `tests/float_oracle/FloatExhaustive.java` (`b <hex first bits> <hex FNV-1a 64>` per block of
//! 65536 patterns). Prints the mismatching blocks' first bits, then `N blocks passed, M failed`;
//! exits 1 on a mismatch, 2 on bad input. Driven by `scripts/float-exhaustive.sh`.
use kjson_runtime::float::java_float_to_string;
use kjson_runtime::FloatSpelling;
use std::io::{self, BufRead};
use std::process::ExitCode;

const BLOCK: u64 = 1 << 16;
const LAST_BITS: u64 = u32::MAX as u64;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spelling = match args.as_slice() {
        [flag, value] if flag == "--spelling" => FloatSpelling::parse(value),
        _ => None,
    };
    let Some(spelling) = spelling else {
        eprintln!("usage: float_exhaustive --spelling jdk17|jdk19  < block hash lines");
        return ExitCode::from(2);
    };
    let (mut passed, mut failed) = (0u64, 0u64);
    for (index, line) in io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else {
            eprintln!("float_exhaustive: cannot read stdin");
            return ExitCode::from(2);
        };
        let Some((first, expected)) = parse_block_line(&line) else {
            eprintln!("float_exhaustive: line {}: cannot parse {line:?}", index + 1);
            return ExitCode::from(2);
        };
        if index % 1024 == 1023 {
            eprintln!("float_exhaustive: checked through {:08x}", first + BLOCK - 1);
        }
        if block_hash(first, spelling) == expected {
            passed += 1;
        } else {
            failed += 1;
            println!("MISMATCH block {first:08x}");
        }
    }
    println!("{passed} blocks passed, {failed} failed");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn parse_block_line(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split(' ');
    let (Some("b"), Some(first), Some(hash), None) = (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return None;
    };
    Some((u64::from_str_radix(first, 16).ok()?, u64::from_str_radix(hash, 16).ok()?))
}

/// FNV-1a 64 over each pattern's text followed by `\n`, as the Java side computes it.
fn block_hash(first: u64, spelling: FloatSpelling) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for bits in first..=(first + BLOCK - 1).min(LAST_BITS) {
        let text = java_float_to_string(f32::from_bits(bits as u32), spelling);
        for &byte in text.as_bytes().iter().chain(b"\n") {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}
