package org.kjson.flink.arrow;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * TIME (millis of day inside Flink) and TIMESTAMP / TIMESTAMP_LTZ ({@link TimestampData}) into
 * Arrow's unit for the declared precision; finer digits than the unit are dropped, as ArrowUtils does.
 */
final class TemporalWriters {
    private TemporalWriters() {}

    static ValueWriter of(LogicalType type, FieldVector vector) {
        if (type.getTypeRoot() == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE) {
            return new TimeWriter((BaseFixedWidthVector) vector, ArrowSchemas.timeUnit(((TimeType) type).getPrecision()));
        }
        int precision = type instanceof TimestampType t ? t.getPrecision() : ((LocalZonedTimestampType) type).getPrecision();
        return new TimestampWriter((TimeStampVector) vector, precision, ArrowSchemas.timeUnit(precision));
    }

    static final class TimeWriter extends ValueWriter.Leaf<BaseFixedWidthVector> {
        private final TimeUnit unit;

        TimeWriter(BaseFixedWidthVector vector, TimeUnit unit) {
            super(vector);
            this.unit = unit;
        }

        private void set(int index, int millisOfDay) {
            switch (unit) {
                case SECOND:
                    ((TimeSecVector) vector).setSafe(index, millisOfDay / 1000);
                    break;
                case MILLISECOND:
                    ((TimeMilliVector) vector).setSafe(index, millisOfDay);
                    break;
                case MICROSECOND:
                    ((TimeMicroVector) vector).setSafe(index, millisOfDay * 1_000L);
                    break;
                default:
                    ((TimeNanoVector) vector).setSafe(index, millisOfDay * 1_000_000L);
            }
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getInt(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getInt(p)); }
    }

    /** Staged: the timestamp columns of most sinks write one long per row. */
    static final class TimestampWriter extends StagedFixedWidth {
        private final int precision;
        private final TimeUnit unit;

        TimestampWriter(TimeStampVector vector, int precision, TimeUnit unit) {
            super(vector, 8);
            this.precision = precision;
            this.unit = unit;
        }

        private void set(int index, TimestampData ts) {
            long millis = ts.getMillisecond();
            long value;
            switch (unit) {
                case SECOND:
                    value = Math.floorDiv(millis, 1000L);
                    break;
                case MILLISECOND:
                    value = millis;
                    break;
                case MICROSECOND:
                    value = millis * 1_000L + ts.getNanoOfMillisecond() / 1_000;
                    break;
                default:
                    value = millis * 1_000_000L + ts.getNanoOfMillisecond();
            }
            claimValid(index);
            LONGS.set(values, index << 3, value);
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getTimestamp(p, precision)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getTimestamp(p, precision)); }
    }
}
