//! kjson's one generator of random Arrow batches, for the property tests (`tests/generated.rs`),
//! the soak test (`tests/soak.rs`) and the fuzz targets (`fuzz/`): every logical type in the
//! Arrow layouts the encoder's plan accepts, at every depth, with nulls, empty and long strings,
//! every escape class, broken UTF-8, extremes, sliced arrays and row kinds.
//!
//! Choices come from a [`Choices`]: [`Rng`], seeded and replayable, or (feature `arbitrary`)
//! `FuzzBytes`, libFuzzer's input. Not published.
//!
//! ```
//! use kjson_testkit::{random_batch, Rng, Shape};
//! let ddl = "CREATE TABLE t (id BIGINT, tags ARRAY<STRING>) WITH ('connector' = 'kafka', \
//!     'topic' = 't', 'properties.bootstrap.servers' = 'b:9092', 'format' = 'json')";
//! let spec = kjson_runtime::SinkSpec::from_ddl(ddl).unwrap();
//! let drawn = random_batch(&spec, Shape::new(8), &mut Rng::new(7));
//! assert_eq!(drawn.batch.num_rows(), 8);
//! ```
mod arrays;
mod batch;
mod choices;
mod layout;
mod shape;
pub mod values;

pub use arrays::array;
pub use batch::{batch_in, layouts, random_batch, row_kinds, Drawn};
#[cfg(feature = "arbitrary")]
pub use choices::FuzzBytes;
pub use choices::{Choices, Rng};
pub use layout::{BytesLayout, DayTimeLayout, Layout, ListLayout, RowField, StrLayout};
pub use shape::Shape;
