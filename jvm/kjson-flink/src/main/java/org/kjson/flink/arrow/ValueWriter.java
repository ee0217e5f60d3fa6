package org.kjson.flink.arrow;

import java.math.BigDecimal;
import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.KjsonValueException;

/**
 * Writes one Flink value into slot {@code index} of an Arrow vector, read either from a
 * {@link RowData} field or an {@link ArrayData} element (Flink has no common getter interface,
 * hence two entry points). Vectors grow as needed. Numbers, dates, timestamps, strings and binary
 * strings are staged on the heap and reach their vectors at {@link #finish()} ({@link StagedLeaf});
 * the rarer leaves go through Arrow's {@code setSafe}.
 */
abstract class ValueWriter {

    final void write(RowData row, int pos, int index) {
        if (row.isNullAt(pos)) {
            setNull(index);
        } else {
            fromRow(row, pos, index);
        }
    }

    final void write(ArrayData array, int pos, int index) {
        if (array.isNullAt(pos)) {
            setNull(index);
        } else {
            fromArray(array, pos, index);
        }
    }

    abstract void fromRow(RowData row, int pos, int index);

    abstract void fromArray(ArrayData array, int pos, int index);

    abstract void setNull(int index);

    /** Moves what this writer staged on the heap into its vector (before the vector's value count is set). */
    void finish() {}

    /** Empties the stage for the next batch (the vectors themselves are reset by the caller). */
    void reset() {}

    /**
     * True if {@link #finish()} rewrites every byte of the vector that a reader looks at (validity
     * bits, offsets and values of the first value-count slots), so the vector needs no zeroing
     * between batches: {@code FieldVector.reset()} zeroes whole buffers, a cost per batch that
     * grows with the vector's capacity rather than with the rows written.
     */
    boolean rewritesVector() {
        return false;
    }

    /**
     * The writer for a vector built from {@link ArrowSchemas#toArrowField} of {@code type};
     * {@code path} names the column in errors, as the native side does ({@code a.b}, {@code a[]},
     * {@code m{key}}, {@code m{value}}).
     */
    static ValueWriter of(LogicalType type, FieldVector vector, String path) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanWriter((BitVector) vector);
            case TINYINT:
                return new StagedFixedWidth.TinyInts((TinyIntVector) vector);
            case SMALLINT:
                return new StagedFixedWidth.SmallInts((SmallIntVector) vector);
            case INTEGER:
            case INTERVAL_YEAR_MONTH:
                return new StagedFixedWidth.Ints((IntVector) vector);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return new StagedFixedWidth.Longs((BigIntVector) vector);
            case FLOAT:
                return new StagedFixedWidth.Floats((Float4Vector) vector);
            case DOUBLE:
                return new StagedFixedWidth.Doubles((Float8Vector) vector);
            case DECIMAL:
                return new DecimalWriter((DecimalVector) vector, (DecimalType) type, path);
            case CHAR:
            case VARCHAR:
                return new StagedVarWidth.Strings((VarBinaryVector) vector);
            case BINARY:
                return new FixedBinaryWriter((FixedSizeBinaryVector) vector, path);
            case VARBINARY:
                return new StagedVarWidth.Binaries((VarBinaryVector) vector);
            case DATE:
                return new StagedFixedWidth.Ints((DateDayVector) vector);
            case TIME_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TemporalWriters.of(type, vector);
            case ARRAY:
                return new ArrayWriter((ListVector) vector, ((ArrayType) type).getElementType(), path);
            case MAP:
                return new MapWriter((MapVector) vector, ((MapType) type).getKeyType(), ((MapType) type).getValueType(), path);
            case MULTISET:
                return new MapWriter((MapVector) vector, ((MultisetType) type).getElementType(),
                        new org.apache.flink.table.types.logical.IntType(false), path);
            case ROW:
                return new RowWriter((StructVector) vector, (RowType) type, path);
            default:
                throw new UnsupportedOperationException("kjson cannot carry Flink type " + type.asSummaryString() + " in Arrow");
        }
    }

    /** Writers of fixed-width and variable-width vectors share the null handling. */
    abstract static class Leaf<V extends FieldVector> extends ValueWriter {
        final V vector;

        Leaf(V vector) {
            this.vector = vector;
        }

        @Override
        void setNull(int index) {
            if (vector instanceof org.apache.arrow.vector.BaseFixedWidthVector fixed) {
                fixed.setNull(index);
            } else {
                ((org.apache.arrow.vector.BaseVariableWidthVector) vector).setNull(index);
            }
        }
    }

    static final class BooleanWriter extends Leaf<BitVector> {
        BooleanWriter(BitVector v) { super(v); }
        void fromRow(RowData r, int p, int i) { vector.setSafe(i, r.getBoolean(p) ? 1 : 0); }
        void fromArray(ArrayData a, int p, int i) { vector.setSafe(i, a.getBoolean(p) ? 1 : 0); }
    }

    /**
     * Compact decimals go in as longs; larger ones as big-endian unscaled bytes. Arrow holds the
     * declared scale and precision, so a value of another scale or with more digits (Flink
     * writes it as it is) fails: rescaled, it would be written as another number.
     */
    static final class DecimalWriter extends Leaf<DecimalVector> {
        private final DecimalType type;
        private final String path;
        private final long compactLimit;

        DecimalWriter(DecimalVector v, DecimalType type, String path) {
            super(v);
            this.type = type;
            this.path = path;
            this.compactLimit = DecimalData.isCompact(type.getPrecision()) ? tenToThe(type.getPrecision()) : 0;
        }

        private void set(int i, DecimalData d) {
            if (d.scale() != type.getScale()) {
                throw valueError(path, type, d + " has scale " + d.scale());
            }
            if (compactLimit != 0 && DecimalData.isCompact(d.precision())) {
                long unscaled = d.toUnscaledLong();
                if (unscaled >= compactLimit || unscaled <= -compactLimit) {
                    throw tooManyDigits(d);
                }
                vector.setSafe(i, unscaled);
                return;
            }
            BigDecimal value = d.toBigDecimal();
            if (value.precision() > type.getPrecision()) {
                throw tooManyDigits(d);
            }
            vector.setBigEndianSafe(i, value.unscaledValue().toByteArray());
        }

        private static long tenToThe(int exponent) {
            long power = 1;
            for (int e = 0; e < exponent; e++) {
                power *= 10;
            }
            return power;
        }

        private KjsonValueException tooManyDigits(DecimalData d) {
            return valueError(path, type, d + " has more than " + type.getPrecision() + " digits");
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getDecimal(p, type.getPrecision(), type.getScale())); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getDecimal(p, type.getPrecision(), type.getScale())); }
    }

    /** BINARY(n) is Arrow FixedSizeBinary(n): a value of another length (Flink writes it whole) fails. */
    static final class FixedBinaryWriter extends Leaf<FixedSizeBinaryVector> {
        private final String path;

        FixedBinaryWriter(FixedSizeBinaryVector v, String path) {
            super(v);
            this.path = path;
        }

        private void set(int i, byte[] bytes) {
            if (bytes.length != vector.getByteWidth()) {
                throw valueError(path, new BinaryType(vector.getByteWidth()), "holds " + bytes.length + " bytes");
            }
            vector.setSafe(i, bytes);
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getBinary(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getBinary(p)); }
    }

    /** A value kjson cannot carry so that Flink's bytes come out (see {@link KjsonValueException}). */
    static KjsonValueException valueError(String path, LogicalType type, String problem) {
        return new KjsonValueException("column `" + path + "`: the " + type.copy(true).asSummaryString() + " value "
                + problem + ", so kjson cannot write it as Flink does (Flink's planner never produces such a value)");
    }

    static final class ArrayWriter extends ValueWriter {
        private final ListVector vector;
        private final ValueWriter element;

        ArrayWriter(ListVector vector, LogicalType elementType, String path) {
            this.vector = vector;
            this.element = ValueWriter.of(elementType, vector.getDataVector(), path + "[]");
        }

        private void set(int index, ArrayData array) {
            int start = vector.startNewValue(index);
            int size = array.size();
            for (int j = 0; j < size; j++) {
                element.write(array, j, start + j);
            }
            vector.endValue(index, size);
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getArray(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getArray(p)); }
        void setNull(int index) { vector.setNull(index); }
        void finish() { element.finish(); }
        void reset() { element.reset(); }
    }

    /** MAP and MULTISET: entries in the map data's own key-array order. */
    static final class MapWriter extends ValueWriter {
        private final MapVector vector;
        private final StructVector entries;
        private final ValueWriter key;
        private final ValueWriter value;

        MapWriter(MapVector vector, LogicalType keyType, LogicalType valueType, String path) {
            this.vector = vector;
            this.entries = (StructVector) vector.getDataVector();
            List<FieldVector> children = entries.getChildrenFromFields();
            this.key = ValueWriter.of(keyType, children.get(0), path + "{key}");
            this.value = ValueWriter.of(valueType, children.get(1), path + "{value}");
        }

        private void set(int index, MapData map) {
            int start = vector.startNewValue(index);
            int size = map.size();
            ArrayData keys = map.keyArray();
            ArrayData values = map.valueArray();
            for (int j = 0; j < size; j++) {
                entries.setIndexDefined(start + j);
                key.write(keys, j, start + j);
                value.write(values, j, start + j);
            }
            vector.endValue(index, size);
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getMap(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getMap(p)); }
        void setNull(int index) { vector.setNull(index); }

        void finish() {
            key.finish();
            value.finish();
        }

        void reset() {
            key.reset();
            value.reset();
        }
    }

    static final class RowWriter extends ValueWriter {
        private final StructVector vector;
        private final ValueWriter[] fields;

        RowWriter(StructVector vector, RowType type, String path) {
            this.vector = vector;
            List<FieldVector> children = vector.getChildrenFromFields();
            this.fields = new ValueWriter[type.getFieldCount()];
            for (int f = 0; f < fields.length; f++) {
                fields[f] = ValueWriter.of(type.getTypeAt(f), children.get(f), path + "." + type.getFieldNames().get(f));
            }
        }

        private void set(int index, RowData row) {
            vector.setIndexDefined(index);
            for (int f = 0; f < fields.length; f++) {
                fields[f].write(row, f, index);
            }
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getRow(p, fields.length)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getRow(p, fields.length)); }
        void setNull(int index) {
            vector.setNull(index);
            // Children get a null at the same slot, so every child vector's slots stay defined.
            for (ValueWriter field : fields) {
                field.setNull(index);
            }
        }

        void finish() {
            for (ValueWriter field : fields) {
                field.finish();
            }
        }

        void reset() {
            for (ValueWriter field : fields) {
                field.reset();
            }
        }
    }
}
