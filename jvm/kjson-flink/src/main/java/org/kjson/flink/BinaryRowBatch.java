package org.kjson.flink;

import java.util.List;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;

/**
 * The rows one {@link NativeJsonDecoder#decodeBinaryRows} call read, as Flink's own
 * {@link BinaryRowData}: the native decoder wrote every row's bytes (RowKind in the header
 * byte) into one array, and {@link #row(int)} points a {@code BinaryRowData} at row {@code i}.
 * Each batch has an array of its own that nothing writes again, so rows may be handed on and kept.
 */
public final class BinaryRowBatch {
    private final MemorySegment slab;
    private final int arity;
    private final int[] offsets;
    private final int[] sizes;
    private final int[] records;
    private final List<DecodedBatch.RecordError> errors;

    BinaryRowBatch(byte[] slab, int arity, int[] offsets, int[] sizes, int[] records,
            List<DecodedBatch.RecordError> errors) {
        this.slab = MemorySegmentFactory.wrap(slab);
        this.arity = arity;
        this.offsets = offsets;
        this.sizes = sizes;
        this.records = records;
        this.errors = List.copyOf(errors);
    }

    public int rowCount() {
        return offsets.length;
    }

    /** Row {@code row}, a new {@code BinaryRowData} over the batch's bytes. */
    public BinaryRowData row(int row) {
        BinaryRowData out = new BinaryRowData(arity);
        out.pointTo(slab, offsets[row], sizes[row]);
        return out;
    }

    /** Row {@code row}'s source record index in the decoded batch. */
    public int record(int row) {
        return records[row];
    }

    /** The failed records, in order (empty unless the decoder collects errors). */
    public List<DecodedBatch.RecordError> errors() {
        return errors;
    }
}
