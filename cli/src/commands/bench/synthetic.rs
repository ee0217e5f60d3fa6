//! Rows of the two non-Nexmark bench sinks, as Flink's Arrow mapping lays them out: `sensor`
//! (schemas/sensor.sql, id + 8 DOUBLE + 2 FLOAT) and `ledger` (schemas/ledger.sql, id + 5 DECIMAL).
//! Deterministic from the seed, built before anything is timed.
use std::sync::Arc;

use arrow_array::{ArrayRef, Decimal128Array, Float32Array, Float64Array, Int64Array, RecordBatch};
use arrow_schema::{DataType, Field, Schema};

use crate::nexmark::rng::SplitMix64;
use crate::nexmark::NexmarkBatch;

/// Sensor rows: readings with few digits (23.47, 61.5), as devices report them, beside computed
/// values that carry all 17 significant digits (power, coordinates): both kinds are common and
/// they take different paths in every float printer.
pub fn sensor_batch(rng: &mut SplitMix64, first_id: i64, rows: usize) -> Result<NexmarkBatch, String> {
    let mut doubles: [Vec<Option<f64>>; 8] = Default::default();
    let mut floats: [Vec<Option<f32>>; 2] = Default::default();
    for _ in 0..rows {
        let voltage = 200.0 + rng.next_f64() * 40.0;
        let current = rng.next_f64() * 16.0;
        let humidity = (rng.next_below(100) != 0).then(|| f64::from(rng.next_below(1000)) / 10.0);
        let row = [
            Some(f64::from(rng.next_below(6000)) / 100.0 - 20.0),
            humidity,
            Some(950.0 + f64::from(rng.next_below(10_000)) / 100.0),
            Some(voltage),
            Some(current),
            Some(voltage * current),
            Some(-90.0 + rng.next_f64() * 180.0),
            Some(-180.0 + rng.next_f64() * 360.0),
        ];
        for (column, value) in doubles.iter_mut().zip(row) {
            column.push(value);
        }
        floats[0].push(Some(rng.next_below(1001) as f32 / 10.0));
        floats[1].push(Some(-120.0 + rng.next_f64() as f32 * 90.0));
    }
    let mut fields = vec![Field::new("id", DataType::Int64, true)];
    let mut columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from_iter_values(first_id..first_id + rows as i64))];
    let double_names =
        ["temperature", "humidity", "pressure", "voltage", "current_a", "power_w", "latitude", "longitude"];
    for (name, values) in double_names.into_iter().zip(doubles) {
        fields.push(Field::new(name, DataType::Float64, true));
        columns.push(Arc::new(Float64Array::from(values)));
    }
    for (name, values) in ["battery", "signal_dbm"].into_iter().zip(floats) {
        fields.push(Field::new(name, DataType::Float32, true));
        columns.push(Arc::new(Float32Array::from(values)));
    }
    record_batch(fields, columns)
}

/// `(name, precision, scale)` of the ledger's DECIMAL columns, as in schemas/ledger.sql.
const LEDGER_DECIMALS: [(&str, u8, i8); 5] =
    [("amount", 12, 2), ("unit_price", 18, 6), ("rate", 7, 5), ("balance", 38, 18), ("quantity", 10, 0)];

/// Ledger rows: unscaled values of every length up to each column's precision, either sign.
pub fn ledger_batch(rng: &mut SplitMix64, first_id: i64, rows: usize) -> Result<NexmarkBatch, String> {
    let mut fields = vec![Field::new("id", DataType::Int64, true)];
    let mut columns: Vec<ArrayRef> = vec![Arc::new(Int64Array::from_iter_values(first_id..first_id + rows as i64))];
    for (name, precision, scale) in LEDGER_DECIMALS {
        let values = (0..rows).map(|_| decimal_value(rng, precision));
        let array = Decimal128Array::from_iter_values(values)
            .with_precision_and_scale(precision, scale)
            .map_err(|e| format!("ledger column {name}: {e}"))?;
        fields.push(Field::new(name, DataType::Decimal128(precision, scale), true));
        columns.push(Arc::new(array));
    }
    record_batch(fields, columns)
}

/// An unscaled value with a uniformly drawn digit count in `1..=precision` (at most 38).
fn decimal_value(rng: &mut SplitMix64, precision: u8) -> i128 {
    let digits = 1 + rng.next_below(u32::from(precision));
    let bound = 10i128.pow(digits);
    let magnitude = (((u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64())) % bound as u128) as i128;
    if rng.next_below(4) == 0 {
        -magnitude
    } else {
        magnitude
    }
}

fn record_batch(fields: Vec<Field>, columns: Vec<ArrayRef>) -> Result<NexmarkBatch, String> {
    let batch = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(|e| e.to_string())?;
    Ok(NexmarkBatch { batch, row_kinds: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensor_rows_have_the_sinks_columns_and_some_nulls() {
        let batch = sensor_batch(&mut SplitMix64::new(1), 10, 2000).unwrap().batch;
        assert_eq!(batch.num_columns(), 11);
        assert_eq!(batch.num_rows(), 2000);
        let humidity = batch.column(2);
        assert!(humidity.null_count() > 0 && humidity.null_count() < 100, "{}", humidity.null_count());
    }

    #[test]
    fn ledger_values_fit_their_precision() {
        let batch = ledger_batch(&mut SplitMix64::new(2), 0, 1000).unwrap().batch;
        for (index, (name, precision, _)) in LEDGER_DECIMALS.into_iter().enumerate() {
            let column = batch.column(index + 1).as_any().downcast_ref::<Decimal128Array>().unwrap();
            column.validate_decimal_precision(precision).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(column.values().iter().any(|v| *v < 0), "{name}: no negative value");
        }
    }
}
