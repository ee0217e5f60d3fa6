//! The plan, built from the first batch: the Arrow schema checked against the logical types.
