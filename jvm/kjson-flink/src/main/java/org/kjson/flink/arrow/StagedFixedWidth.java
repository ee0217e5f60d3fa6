package org.kjson.flink.arrow;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

/**
 * Fixed-width leaves staged as the bytes Arrow would hold (native byte order, as
 * {@code ArrowBuf.setLong} writes them), so the batch copy is one bulk copy per column.
 */
abstract class StagedFixedWidth extends StagedLeaf<BaseFixedWidthVector> {
    static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
    static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final int width;
    byte[] values = new byte[0];

    StagedFixedWidth(BaseFixedWidthVector vector, int width) {
        super(vector);
        this.width = width;
    }

    @Override
    final int growVector(int slots) {
        while (vector.getValueCapacity() < slots) {
            vector.reAlloc();
        }
        return vector.getValueCapacity();
    }

    @Override
    final void resizeStage(int slots) {
        values = Arrays.copyOf(values, slots * width);
    }

    @Override
    final void skipped(int from, int to) {
        // A null slot's value bytes are never read; the staged bytes are left as they are.
    }

    @Override
    final void copyValues() {
        vector.getDataBuffer().setBytes(0, values, 0, (long) count * width);
    }

    @Override
    final void resetValues() {
        // Every slot below the next batch's count is written again before it is copied.
    }

    static final class TinyInts extends StagedFixedWidth {
        TinyInts(BaseFixedWidthVector v) { super(v, 1); }
        private void set(int i, byte value) { claimValid(i); values[i] = value; }
        void fromRow(RowData r, int p, int i) { set(i, r.getByte(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getByte(p)); }
    }

    static final class SmallInts extends StagedFixedWidth {
        SmallInts(BaseFixedWidthVector v) { super(v, 2); }
        private void set(int i, short value) { claimValid(i); SHORTS.set(values, i << 1, value); }
        void fromRow(RowData r, int p, int i) { set(i, r.getShort(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getShort(p)); }
    }

    /** INT, INTERVAL_YEAR_MONTH and DATE (days): Flink's int as it is. */
    static final class Ints extends StagedFixedWidth {
        Ints(BaseFixedWidthVector v) { super(v, 4); }
        void set(int i, int value) { claimValid(i); INTS.set(values, i << 2, value); }
        void fromRow(RowData r, int p, int i) { set(i, r.getInt(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getInt(p)); }
    }

    /** BIGINT and INTERVAL_DAY_TIME: Flink's long as it is. */
    static final class Longs extends StagedFixedWidth {
        Longs(BaseFixedWidthVector v) { super(v, 8); }
        void set(int i, long value) { claimValid(i); LONGS.set(values, i << 3, value); }
        void fromRow(RowData r, int p, int i) { set(i, r.getLong(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getLong(p)); }
    }

    /** The raw bits, NaN payloads included, as {@code Float4Vector.set} stores them. */
    static final class Floats extends StagedFixedWidth {
        Floats(BaseFixedWidthVector v) { super(v, 4); }
        private void set(int i, float value) { claimValid(i); INTS.set(values, i << 2, Float.floatToRawIntBits(value)); }
        void fromRow(RowData r, int p, int i) { set(i, r.getFloat(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getFloat(p)); }
    }

    /** The raw bits, NaN payloads included, as {@code Float8Vector.set} stores them. */
    static final class Doubles extends StagedFixedWidth {
        Doubles(BaseFixedWidthVector v) { super(v, 8); }
        private void set(int i, double value) { claimValid(i); LONGS.set(values, i << 3, Double.doubleToRawLongBits(value)); }
        void fromRow(RowData r, int p, int i) { set(i, r.getDouble(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getDouble(p)); }
    }
}
