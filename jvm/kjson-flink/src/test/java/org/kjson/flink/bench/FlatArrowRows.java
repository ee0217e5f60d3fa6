package org.kjson.flink.bench;

import java.util.List;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.kjson.flink.DecodedBatch;

/**
 * The benchmark's Arrow-to-RowData step: every value of a decoded batch of flat columns (BIGINT,
 * INT, DOUBLE, FLOAT, STRING, TIMESTAMP(3)) copied into a new {@link GenericRowData} with its
 * RowKind, one column reader bound per batch. A stand-in for the SQL source's
 * {@code ArrowRowReader}, which kjson-flink cannot call (it is package-private in kjson-flink-sql,
 * which depends on this module); it builds the same Flink objects the same way.
 */
final class FlatArrowRows {
    private interface Cell {
        Object read(int row);
    }

    private final Cell[] columns;
    private final DecodedBatch batch;

    private FlatArrowRows(Cell[] columns, DecodedBatch batch) {
        this.columns = columns;
        this.batch = batch;
    }

    static FlatArrowRows bind(DecodedBatch batch) {
        List<FieldVector> vectors = batch.root().getFieldVectors();
        Cell[] columns = new Cell[vectors.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = cell(vectors.get(i));
        }
        return new FlatArrowRows(columns, batch);
    }

    GenericRowData row(int row) {
        GenericRowData out = new GenericRowData(RowKind.fromByteValue(batch.rowKind(row)), columns.length);
        for (int i = 0; i < columns.length; i++) {
            out.setField(i, columns[i].read(row));
        }
        return out;
    }

    private static Cell cell(FieldVector vector) {
        Cell value = value(vector);
        return row -> vector.isNull(row) ? null : value.read(row);
    }

    private static Cell value(FieldVector vector) {
        if (vector instanceof BigIntVector v) {
            return v::get;
        }
        if (vector instanceof IntVector v) {
            return v::get;
        }
        if (vector instanceof Float8Vector v) {
            return v::get;
        }
        if (vector instanceof Float4Vector v) {
            return v::get;
        }
        if (vector instanceof VarCharVector v) {
            return row -> StringData.fromBytes(v.get(row));
        }
        if (vector instanceof TimeStampMilliVector v) {
            return row -> TimestampData.fromEpochMillis(v.get(row));
        }
        throw new IllegalArgumentException("the benchmark's flat reader does not read " + vector.getField());
    }
}
