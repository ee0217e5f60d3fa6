package org.kjson.flink.arrow;

import java.util.List;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimeType;

/**
 * TIME (millis of day inside Flink) into Arrow's unit for the declared precision, and TIMESTAMP /
 * TIMESTAMP_LTZ ({@link TimestampData}) as the (millis, nanos) struct of {@link ArrowSchemas},
 * which holds every Flink value.
 */
final class TemporalWriters {
    private TemporalWriters() {}

    static ValueWriter of(LogicalType type, FieldVector vector) {
        if (type.getTypeRoot() == LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE) {
            return new TimeWriter((BaseFixedWidthVector) vector, ArrowSchemas.timeUnit(((TimeType) type).getPrecision()));
        }
        return new TimestampWriter((StructVector) vector, ArrowSchemas.timestampPrecision(type));
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
     * TIMESTAMP / TIMESTAMP_LTZ of every precision: Flink's two fields as they are, in two staged
     * non-null children, so every value Flink holds (any year, any digits) arrives whole.
     */
    static final class TimestampWriter extends ValueWriter {
        private final StructVector vector;
        private final int precision;
        private final StagedFixedWidth.Longs millis;
        private final StagedFixedWidth.Ints nanos;

        TimestampWriter(StructVector vector, int precision) {
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

        /** Every slot's struct validity bit is set or cleared each batch; the children are staged. */
        @Override
        boolean rewritesVector() {
            return true;
        }
    }
}
