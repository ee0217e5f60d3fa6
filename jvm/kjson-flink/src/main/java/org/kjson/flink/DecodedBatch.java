package org.kjson.flink;

import java.util.List;
import java.util.Objects;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows one {@link NativeJsonDecoder#decode} call read from a batch of Kafka records, as
 * Flink's Kafka source would emit them: {@link #root()} holds the table's physical columns (one
 * Arrow vector per column, in schema order, every field nullable but map keys), and per row its
 * Flink {@code RowKind} byte ({@link #rowKind(int)}, {@code RowKind#fromByteValue}) and the index
 * of the record it came from ({@link #record(int)}; a record can give no row, one, or several).
 *
 * <p>The batch owns the vectors' memory (from the decoder's allocator): {@link #close()} it once
 * read, or hand the root on and close it there.
 */
public final class DecodedBatch implements AutoCloseable {

    /** A record that failed under {@link NativeJsonDecoder.OnError#COLLECT}: its index and Flink's message. */
    public record RecordError(int record, String message) {
        public RecordError {
            Objects.requireNonNull(message, "message");
        }
    }

    private final VectorSchemaRoot root;
    private final byte[] rowKinds;
    private final int[] records;
    private final List<RecordError> errors;

    DecodedBatch(VectorSchemaRoot root, byte[] rowKinds, int[] records, List<RecordError> errors) {
        this.root = root;
        this.rowKinds = rowKinds;
        this.records = records;
        this.errors = List.copyOf(errors);
    }

    /** The physical columns; owned by this batch (closed with it). */
    public VectorSchemaRoot root() {
        return root;
    }

    public int rowCount() {
        return rowKinds.length;
    }

    /** Row {@code row}'s {@code RowKind} byte: 0 +I, 1 -U, 2 +U, 3 -D. */
    public byte rowKind(int row) {
        return rowKinds[row];
    }

    /** Row {@code row}'s source record index in the decoded batch. */
    public int record(int row) {
        return records[row];
    }

    /** A copy of every row's {@code RowKind} byte. */
    public byte[] rowKinds() {
        return rowKinds.clone();
    }

    /** A copy of every row's source record index. */
    public int[] records() {
        return records.clone();
    }

    /** The failed records, in order (empty unless the decoder collects errors). */
    public List<RecordError> errors() {
        return errors;
    }

    @Override
    public void close() {
        root.close();
    }
}
