package org.kjson.flink.arrow;

import java.util.Arrays;

import org.apache.arrow.vector.FieldVector;

/**
 * A leaf whose values are staged in heap arrays and copied into the Arrow vector once per batch
 * ({@link #finish}). Arrow's {@code setSafe} costs a capacity test, bounds-checked buffer
 * accesses and a validity read-modify-write per value; staging costs array stores. The vector
 * grows in step with the stage, so the Arrow memory bound still fails the row that exceeds it.
 *
 * <p>Slots are written in increasing order (a parent writes its children's slots in order);
 * skipped slots are nulls.
 */
abstract class StagedLeaf<V extends FieldVector> extends ValueWriter {
    final V vector;
    private byte[] validity = new byte[0];
    /** Slots the stage and the vector can hold. */
    private int capacity;
    /** Slots 0..count-1 are staged. */
    int count;

    StagedLeaf(V vector) {
        this.vector = vector;
    }

    /** Claims slot {@code index} for a value or a null, growing the stage and the vector if needed. */
    final void claim(int index) {
        if (index < count) {
            throw new IllegalStateException("slot " + index + " of " + vector.getName() + " was already written");
        }
        if (index >= capacity) {
            capacity = growVector(index + 1);
            validity = Arrays.copyOf(validity, (capacity + 7) >>> 3);
            resizeStage(capacity);
        }
        if (index > count) {
            skipped(count, index);
        }
        count = index + 1;
    }

    /** Claims a slot and marks it valid. */
    final void claimValid(int index) {
        claim(index);
        validity[index >>> 3] |= (byte) (1 << (index & 7));
    }

    @Override
    final void setNull(int index) {
        claim(index);
        skipped(index, index + 1);
    }

    @Override
    final void finish() {
        if (count > 0) {
            vector.getValidityBuffer().setBytes(0, validity, 0, (count + 7) >>> 3);
            copyValues();
        }
    }

    @Override
    final boolean rewritesVector() {
        return true;
    }

    @Override
    final void reset() {
        Arrays.fill(validity, 0, (count + 7) >>> 3, (byte) 0);
        count = 0;
        resetValues();
    }

    /** Grows the vector to at least {@code slots} slots; returns its slot capacity. */
    abstract int growVector(int slots);

    /** Resizes the value stage to {@code slots} slots. */
    abstract void resizeStage(int slots);

    /** Slots from..to-1 hold nulls (their validity bits are already clear). */
    abstract void skipped(int from, int to);

    /** Copies the staged values of slots 0..count-1 into the vector's buffers. */
    abstract void copyValues();

    abstract void resetValues();
}
