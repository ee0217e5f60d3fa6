package org.kjson.flink;

import java.util.Objects;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One batch of rows in Arrow form, the input of {@link ArrowBatchEncodeOperator}: either a
 * {@link VectorSchemaRoot} (still owned by the producer, which may reuse it once the operator's
 * {@code processElement} returns) or a batch already exported through the Arrow C Data
 * Interface (ownership moves to the encoder, which releases it exactly once).
 *
 * <p>Both hold native memory and are not serializable: chain the encode operator to the
 * operator that produces the batches (the default for forward connections of equal parallelism).
 */
public final class ArrowBatch {
    private final VectorSchemaRoot root;
    private final long arrayAddress;
    private final long schemaAddress;
    private final byte[] rowKinds;

    private ArrowBatch(VectorSchemaRoot root, long arrayAddress, long schemaAddress, byte[] rowKinds) {
        this.root = root;
        this.arrayAddress = arrayAddress;
        this.schemaAddress = schemaAddress;
        this.rowKinds = rowKinds;
    }

    /** Rows of {@code root} with their Flink row kinds ({@code RowKind#toByteValue}; null = all inserts). */
    public static ArrowBatch of(VectorSchemaRoot root, byte[] rowKinds) {
        return new ArrowBatch(Objects.requireNonNull(root, "root"), 0, 0, rowKinds);
    }

    /** A struct array exported with {@code Data.exportVectorSchemaRoot} (or any C Data producer). */
    public static ArrowBatch exported(long arrowArrayAddress, long arrowSchemaAddress, byte[] rowKinds) {
        return new ArrowBatch(null, arrowArrayAddress, arrowSchemaAddress, rowKinds);
    }

    EncodedBatch encodeWith(NativeJsonEncoder encoder) {
        return root != null
                ? encoder.encode(root, rowKinds)
                : encoder.encode(arrayAddress, schemaAddress, rowKinds);
    }
}
