package org.kjson.flink.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.kjson.flink.DecodedBatch;

/**
 * The benchmark's Arrow-to-RowData step: every value of a decoded batch (BIGINT, INT, DOUBLE,
 * FLOAT, STRING, TIMESTAMP(3), and ARRAY, MAP and ROW of them) copied into a new
 * {@link GenericRowData} with its RowKind, one column reader bound per batch. A stand-in for the SQL source's
 * {@code ArrowRowReader}, which kjson-flink cannot call (it is package-private in kjson-flink-sql,
 * which depends on this module); it builds the same Flink objects the same way.
 */
final class ArrowRows {
    private interface Cell {
        Object read(int row);
    }

    private final Cell[] columns;
    private final DecodedBatch batch;

    private ArrowRows(Cell[] columns, DecodedBatch batch) {
        this.columns = columns;
        this.batch = batch;
    }

    static ArrowRows bind(DecodedBatch batch) {
        List<FieldVector> vectors = batch.root().getFieldVectors();
        Cell[] columns = new Cell[vectors.size()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = cell(vectors.get(i));
        }
        return new ArrowRows(columns, batch);
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
        if (vector instanceof MapVector v) { // before ListVector, which it extends
            return map(v);
        }
        if (vector instanceof ListVector v) {
            return array(v);
        }
        if (vector instanceof StructVector v) {
            return row(v);
        }
        throw new IllegalArgumentException("the benchmark's reader does not read " + vector.getField());
    }

    private static Cell array(ListVector vector) {
        Cell element = cell((FieldVector) vector.getDataVector());
        return row -> {
            int start = vector.getElementStartIndex(row);
            Object[] elements = new Object[vector.getElementEndIndex(row) - start];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = element.read(start + i);
            }
            return new GenericArrayData(elements);
        };
    }

    /** A map as Flink's deserializer and the SQL source's reader build it: over a {@code HashMap}. */
    private static Cell map(MapVector vector) {
        StructVector entries = (StructVector) vector.getDataVector();
        Cell key = cell((FieldVector) entries.getChildByOrdinal(0));
        Cell value = cell((FieldVector) entries.getChildByOrdinal(1));
        return row -> {
            Map<Object, Object> map = new HashMap<>();
            for (int i = vector.getElementStartIndex(row); i < vector.getElementEndIndex(row); i++) {
                map.put(key.read(i), value.read(i));
            }
            return new GenericMapData(map);
        };
    }

    private static Cell row(StructVector vector) {
        Cell[] fields = new Cell[vector.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = cell((FieldVector) vector.getChildByOrdinal(i));
        }
        return row -> {
            GenericRowData out = new GenericRowData(fields.length);
            for (int i = 0; i < fields.length; i++) {
                out.setField(i, fields[i].read(row));
            }
            return out;
        };
    }
}
