//! The dynamic (runtime) encoder.
use arrow::array::{Int8Array, RecordBatch};

use crate::error::Result;
use crate::options::Compatibility;
use crate::slab::KeyValueSlabs;
use crate::spec::SinkSpec;

/// Flink's RowKind, as carried in an optional `Int8` array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Insert = 0,
    UpdateBefore = 1,
    UpdateAfter = 2,
    Delete = 3,
}

/// A task-local encoder handle: the spec is parsed once at open, the plan is built on the first
/// batch and reused afterwards.
pub struct DynamicEncoder {
    spec: SinkSpec,
    compatibility: Compatibility,
    slabs: KeyValueSlabs,
}

impl DynamicEncoder {
    pub fn open(spec: SinkSpec, compatibility: Compatibility) -> Result<Self> {
        Ok(DynamicEncoder { spec, compatibility, slabs: KeyValueSlabs::default() })
    }

    /// Encodes one batch whose columns are the spec's physical columns, in order.
    /// `row_kinds` holds Flink RowKind values (0 +I, 1 -U, 2 +U, 3 -D); absent means all +I.
    pub fn encode(&mut self, batch: &RecordBatch, row_kinds: Option<&Int8Array>) -> Result<&KeyValueSlabs> {
        let _ = (batch, row_kinds, &self.spec, self.compatibility);
        todo!("dynamic encoder")
    }

    pub fn spec(&self) -> &SinkSpec {
        &self.spec
    }

    pub fn compatibility(&self) -> Compatibility {
        self.compatibility
    }
}
