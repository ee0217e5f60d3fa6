package org.kjson.flink.arrow;

import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.KjsonValueException;

/**
 * Buffers {@link RowData} rows into Arrow vectors (the Flink-to-Arrow mapping of
 * {@link ArrowSchemas}) together with their row kinds, so that a whole batch crosses to the
 * native encoder at once. Call {@link #finish()} before handing {@link #root()} on, and
 * {@link #reset()} afterwards to reuse the vectors' memory for the next batch. After an append
 * that failed (a {@link KjsonValueException}, Arrow's memory limit), {@link #finish()} still
 * seals the rows before it, and the next append needs a {@link #reset()} first.
 */
public final class RowDataArrowWriter implements AutoCloseable {
    private final VectorSchemaRoot root;
    private final ValueWriter[] fields;
    private byte[] rowKinds = new byte[1024];
    private int rows;
    /** An append failed part way: its row's slots are taken, so no row can follow until a reset. */
    private boolean halfWritten;

    public RowDataArrowWriter(RowType rowType, BufferAllocator allocator) {
        this.root = VectorSchemaRoot.create(ArrowSchemas.toArrowSchema(rowType), allocator);
        List<FieldVector> vectors = root.getFieldVectors();
        this.fields = new ValueWriter[vectors.size()];
        for (int f = 0; f < fields.length; f++) {
            fields[f] = ValueWriter.of(rowType.getTypeAt(f), vectors.get(f), rowType.getFieldNames().get(f));
        }
    }

    /**
     * Buffers one row.
     *
     * @throws KjsonValueException if the row holds a value its declared type does not admit; the
     *     rows before it stay whole, but its own slots are taken: {@link #reset()} before the next append
     */
    public void append(RowData row) {
        requireWholeRows();
        halfWritten = true;
        for (int f = 0; f < fields.length; f++) {
            fields[f].write(row, f, rows);
        }
        halfWritten = false;
        if (rows == rowKinds.length) {
            rowKinds = Arrays.copyOf(rowKinds, rows * 2);
        }
        rowKinds[rows] = row.getRowKind().toByteValue();
        rows++;
    }

    private void requireWholeRows() {
        if (halfWritten) {
            throw new IllegalStateException("an earlier append failed part way: reset() the batch before appending again");
        }
    }

    /** Number of rows appended since the last reset. */
    public int rowCount() {
        return rows;
    }

    /** Seals the vectors at the current row count; {@link #root()} is then a complete batch. */
    public VectorSchemaRoot finish() {
        for (ValueWriter field : fields) {
            field.finish();
        }
        root.setRowCount(rows);
        return root;
    }

    /** The batch so far: the same as {@link #finish()} (the staged values must reach the vectors first). */
    public VectorSchemaRoot root() {
        return finish();
    }

    /** The row kinds of the buffered rows (a fresh array of {@link #rowCount()} bytes). */
    public byte[] rowKinds() {
        return Arrays.copyOf(rowKinds, rows);
    }

    /** True if any buffered row is not an insert (only then do row kinds need to travel). */
    public boolean hasRetractions() {
        for (int i = 0; i < rows; i++) {
            if (rowKinds[i] != 0) {
                return true;
            }
        }
        return false;
    }

    /** Empties the batch, keeping the vectors' buffers for the next one. */
    public void reset() {
        List<FieldVector> vectors = root.getFieldVectors();
        for (int f = 0; f < fields.length; f++) {
            fields[f].reset();
            if (!fields[f].rewritesVector()) {
                vectors.get(f).reset();
            }
        }
        // Sets every vector's value count to 0, also of those not zeroed above.
        root.setRowCount(0);
        rows = 0;
        halfWritten = false;
    }

    @Override
    public void close() {
        root.close();
    }
}
