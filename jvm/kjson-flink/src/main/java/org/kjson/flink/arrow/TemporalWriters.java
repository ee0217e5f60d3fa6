package org.kjson.flink.arrow;

import java.util.List;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimeType;
import org.kjson.flink.KjsonValueException;

/**
 * TIME (millis of day inside Flink) into Arrow's unit for the declared precision, and TIMESTAMP /
 * TIMESTAMP_LTZ ({@link TimestampData}): precisions 0..6 in Arrow's second, milli or micro unit,
 * 7..9 as the (millis, nanos) struct of {@link ArrowSchemas}, which holds every Flink value.
 */
final class TemporalWriters {
    private TemporalWriters() {}

    static ValueWriter of(LogicalType type, FieldVector vector, String path) {
        if (type.getTypeRoot() == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE) {
            return new TimeWriter((BaseFixedWidthVector) vector, ArrowSchemas.timeUnit(((TimeType) type).getPrecision()));
        }
        if (ArrowSchemas.isPreciseTimestamp(type)) {
            return new PreciseTimestampWriter((StructVector) vector, ArrowSchemas.timestampPrecision(type));
        }
        return new TimestampWriter((TimeStampVector) vector, type, path);
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

    /**
     * Staged: the timestamp columns of most sinks write one long per row. A value with digits
     * finer than the unit (Flink writes them all) or outside the unit's long fails, rather than
     * be written cut or wrapped.
     */
    static final class TimestampWriter extends StagedFixedWidth {
        private final LogicalType type;
        private final int precision;
        private final TimeUnit unit;
        private final String path;

        TimestampWriter(TimeStampVector vector, LogicalType type, String path) {
            super(vector, 8);
            this.type = type;
            this.precision = ArrowSchemas.timestampPrecision(type);
            this.unit = ArrowSchemas.timeUnit(precision);
            this.path = path;
        }

        private void set(int index, TimestampData ts) {
            long millis = ts.getMillisecond();
            int nanos = ts.getNanoOfMillisecond();
            long value;
            switch (unit) {
                case SECOND:
                    if (millis % 1000 != 0 || nanos != 0) {
                        throw finerDigits(ts, "seconds");
                    }
                    value = millis / 1000;
                    break;
                case MILLISECOND:
                    if (nanos != 0) {
                        throw finerDigits(ts, "milliseconds");
                    }
                    value = millis;
                    break;
                default:
                    if (nanos % 1000 != 0) {
                        throw finerDigits(ts, "microseconds");
                    }
                    value = micros(ts);
            }
            claimValid(index);
            LONGS.set(values, index << 3, value);
        }

        private long micros(TimestampData ts) {
            try {
                return Math.addExact(Math.multiplyExact(ts.getMillisecond(), 1_000L), ts.getNanoOfMillisecond() / 1_000);
            } catch (ArithmeticException overflow) {
                throw ValueWriter.valueError(path, type, describe(ts) + " is outside the microseconds a long holds");
            }
        }

        private KjsonValueException finerDigits(TimestampData ts, String unitName) {
            return ValueWriter.valueError(path, type, describe(ts) + " has digits finer than " + unitName
                    + ", the Arrow unit kjson carries precision " + precision + " in");
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getTimestamp(p, precision)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getTimestamp(p, precision)); }
    }

    static String describe(TimestampData ts) {
        return ts + " (epoch millis " + ts.getMillisecond() + ", nano of milli " + ts.getNanoOfMillisecond() + ")";
    }

    /** TIMESTAMP(7..9): Flink's two fields as they are, in two staged non-null children. */
    static final class PreciseTimestampWriter extends ValueWriter {
        private final StructVector vector;
        private final int precision;
        private final StagedFixedWidth.Longs millis;
        private final StagedFixedWidth.Ints nanos;

        PreciseTimestampWriter(StructVector vector, int precision) {
            this.vector = vector;
            this.precision = precision;
            List<FieldVector> children = vector.getChildrenFromFields();
            this.millis = new StagedFixedWidth.Longs((BaseFixedWidthVector) children.get(0));
            this.nanos = new StagedFixedWidth.Ints((BaseFixedWidthVector) children.get(1));
        }

        private void set(int index, TimestampData ts) {
            vector.setIndexDefined(index);
            millis.set(index, ts.getMillisecond());
            nanos.set(index, ts.getNanoOfMillisecond());
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getTimestamp(p, precision)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getTimestamp(p, precision)); }

        /** The children are non-null fields: a null timestamp's slot holds zeros under the struct's null. */
        void setNull(int index) {
            vector.setNull(index);
            millis.set(index, 0L);
            nanos.set(index, 0);
        }

        void finish() {
            millis.finish();
            nanos.finish();
        }

        void reset() {
            millis.reset();
            nanos.reset();
        }
    }
}
