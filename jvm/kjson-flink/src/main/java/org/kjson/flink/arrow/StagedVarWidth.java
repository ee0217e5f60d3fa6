package org.kjson.flink.arrow;

import java.util.Arrays;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Variable-width leaves (CHAR / VARCHAR / STRING as WTF-8 Binary, VARBINARY) staged as Arrow's offsets and data bytes. The data
 * stage and the vector's data buffer grow together, so the Arrow memory bound fails the row
 * whose bytes exceed it.
 */
abstract class StagedVarWidth extends StagedLeaf<BaseVariableWidthVector> {
    /** End offset of slot i at byte 4 * (i + 1), native order; offset 0 stays 0. */
    private byte[] offsets = new byte[0];
    private byte[] data = new byte[0];
    private int used;

    StagedVarWidth(BaseVariableWidthVector vector) {
        super(vector);
    }

    /** Appends the bytes of slot {@code index}. */
    final void set(int index, byte[] bytes, int offset, int length) {
        claimValid(index);
        int end = used + length;
        if (end > data.length || end < 0) {
            growData(end);
        }
        System.arraycopy(bytes, offset, data, used, length);
        used = end;
        StagedFixedWidth.INTS.set(offsets, (index + 1) << 2, end);
    }

    private void growData(int needed) {
        if (needed < 0) {
            throw new IllegalStateException("the bytes of column " + vector.getName() + " exceed 2 GiB in one batch");
        }
        vector.reallocDataBuffer(Math.max(needed, 2L * data.length));
        data = Arrays.copyOf(data, (int) Math.min(vector.getDataBuffer().capacity(), Integer.MAX_VALUE - 8));
    }

    @Override
    final int growVector(int slots) {
        while (vector.getValueCapacity() < slots) {
            vector.reallocValidityAndOffsetBuffers();
        }
        return vector.getValueCapacity();
    }

    @Override
    final void resizeStage(int slots) {
        offsets = Arrays.copyOf(offsets, (slots + 1) << 2);
    }

    @Override
    final void skipped(int from, int to) {
        for (int i = from; i < to; i++) {
            StagedFixedWidth.INTS.set(offsets, (i + 1) << 2, used);
        }
    }

    @Override
    final void copyValues() {
        vector.getOffsetBuffer().setBytes(0, offsets, 0, (count + 1L) << 2);
        vector.getDataBuffer().setBytes(0, data, 0, used);
        vector.setLastSet(count - 1);
    }

    @Override
    final void resetValues() {
        used = 0;
    }

    /**
     * CHAR / VARCHAR as WTF-8 ({@link Wtf8}). A string that still holds its Java {@code String}
     * (rows built with {@code StringData.fromString}) is encoded from it: the JDK's encoder copies
     * a Latin-1 string in bulk, where the binary form sits three objects further away (a cache
     * miss each on rows that are not in cache) or has first to be built. Otherwise the bytes are
     * copied straight from the string's memory segment when it has one on the heap: Flink's
     * binary form already wrote an unpaired surrogate as {@code ?}, as Flink's serializer writes it.
     */
    static final class Strings extends StagedVarWidth {
        Strings(BaseVariableWidthVector v) { super(v); }

        private void set(int i, StringData s) {
            if (s instanceof BinaryStringData b) {
                String java = b.getJavaObject();
                if (java != null) {
                    byte[] bytes = Wtf8.of(java);
                    set(i, bytes, 0, bytes.length);
                    return;
                }
                b.ensureMaterialized();
                MemorySegment[] segments = b.getSegments();
                if (segments.length == 1 && !segments[0].isOffHeap()) {
                    setBytes(i, segments[0].getArray(), b.getOffset(), b.getSizeInBytes());
                    return;
                }
            }
            byte[] bytes = s.toBytes();
            setBytes(i, bytes, 0, bytes.length);
        }

        /** Bytes pass as they are, unless an encoded surrogate would read as a surrogate (not Java's U+FFFD). */
        private void setBytes(int i, byte[] bytes, int offset, int length) {
            if (Wtf8.holdsEncodedSurrogate(bytes, offset, length)) {
                byte[] normalized = Wtf8.normalized(bytes, offset, length);
                set(i, normalized, 0, normalized.length);
            } else {
                set(i, bytes, offset, length);
            }
        }

        void fromRow(RowData r, int p, int i) { set(i, r.getString(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getString(p)); }
    }

    static final class Binaries extends StagedVarWidth {
        Binaries(BaseVariableWidthVector v) { super(v); }

        private void set(int i, byte[] bytes) { set(i, bytes, 0, bytes.length); }

        void fromRow(RowData r, int p, int i) { set(i, r.getBinary(p)); }
        void fromArray(ArrayData a, int p, int i) { set(i, a.getBinary(p)); }
    }
}
