//! Generated == dynamic: every schema compiled into this build (schemas/*.sql) gets random
//! batches (every Arrow layout the plan accepts for its types, random nulls, slices, long and
//! invalid-UTF-8 strings, random row kinds), encoded by its generated encoder and by the dynamic
//! one. Both must give the same bytes, or the same error.
#![no_main]
use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use kjson_arrow::Encoder;
use kjson_runtime::{Compatibility, FlinkVersion, FloatSpelling, SinkSpec};
use kjson_testkit::{random_batch, FuzzBytes, Shape};
use libfuzzer_sys::fuzz_target;

/// The specs of the DDLs under schemas/, each of which has a generated encoder.
fn specs() -> &'static [(String, SinkSpec)] {
    static SPECS: OnceLock<Vec<(String, SinkSpec)>> = OnceLock::new();
    SPECS.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../schemas");
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("schemas/ is readable")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "sql"))
            .collect();
        paths.sort();
        let specs: Vec<_> = paths
            .iter()
            .map(|p| {
                let ddl = std::fs::read_to_string(p).expect("schema readable");
                (p.display().to_string(), SinkSpec::from_ddl(&ddl).expect("schema parses"))
            })
            .collect();
        assert!(!specs.is_empty(), "no schemas under {dir}");
        specs
    })
}

fn run(data: &[u8]) -> Result<()> {
    let mut u = Unstructured::new(data);
    let (origin, spec) = u.choose(specs())?;
    let shape = Shape {
        null_per_mille: *u.choose(&[0, 50, 333, 900])?,
        nulls_in_not_null: u.ratio(1, 8)?,
        refused_values: true,
        long_text_per_mille: 100,
        ..Shape::new(u.int_in_range(0..=16usize)?)
    };
    let drawn = random_batch(spec, shape, &mut FuzzBytes(&mut u));
    let (batch, kinds) = (drawn.batch, drawn.row_kinds);
    let compatibility = Compatibility {
        flink_version: *u.choose(&[FlinkVersion::V1_20, FlinkVersion::V2_2, FlinkVersion::V2_3])?,
        float_spelling: *u.choose(&[FloatSpelling::Jdk17, FloatSpelling::Jdk19])?,
    };
    let mut generated = Encoder::open(spec.clone(), compatibility).expect("open generated");
    assert!(generated.kind().is_generated(), "{origin} has no generated encoder: {}", generated.kind());
    let mut dynamic = Encoder::open_dynamic(spec.clone(), compatibility).expect("open dynamic");
    // Twice: the second batch reuses the plan built by the first.
    for _ in 0..2 {
        let g = generated.encode(&batch, kinds.as_ref()).cloned();
        let d = dynamic.encode(&batch, kinds.as_ref()).cloned();
        match (&g, &d) {
            (Ok(g), Ok(d)) => {
                assert_eq!(g.values().bytes(), d.values().bytes(), "{origin}: values differ");
                assert_eq!(g.keys().bytes(), d.keys().bytes(), "{origin}: keys differ");
                assert_eq!((g.values().offsets(), g.values().lengths()), (d.values().offsets(), d.values().lengths()));
                assert_eq!((g.keys().offsets(), g.keys().lengths()), (d.keys().offsets(), d.keys().lengths()));
            }
            (Err(g), Err(d)) => assert_eq!(g, d, "{origin}: errors differ"),
            _ => panic!("{origin}: generated {g:?}, dynamic {d:?}"),
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});
