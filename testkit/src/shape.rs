//! How a batch is drawn: its size, its nulls, and which kinds of values it may hold.

/// How a batch is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub rows: usize,
    /// Chance of a null per nullable value, in 1/1000 (besides, an array may be all null unless
    /// this is 0, or carry a validity buffer without a null).
    pub null_per_mille: u32,
    /// Whether NOT NULL columns and nested values may hold nulls anyway (a batch with such a
    /// column falls back to the dynamic column programs).
    pub nulls_in_not_null: bool,
    /// Whether values some sinks refuse may appear: a null map key (refused under FAIL), a TIME
    /// outside the day, seconds whose milliseconds overflow (refused at bind).
    pub refused_values: bool,
    /// Chance of a long string value (up to 70 KB), in 1/1000.
    pub long_text_per_mille: u32,
}

impl Shape {
    /// `rows` rows, a tenth of the values null, nothing an encoder refuses, short strings.
    pub fn new(rows: usize) -> Shape {
        Shape { rows, null_per_mille: 100, nulls_in_not_null: false, refused_values: false, long_text_per_mille: 0 }
    }
}
