package org.kjson.flink.sql.source;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The decoded Arrow rows of one batch as Flink's internal data ({@link GenericRowData} with
 * {@link StringData}, {@link DecimalData}, {@link TimestampData}, {@link GenericArrayData},
 * {@link GenericMapData}): copies, so the batch can be closed at once. The Arrow layout is the
 * native decoder's (the encoder's mapping): TIME as seconds, millis, micros or nanos of the day
 * by precision, TIMESTAMP and TIMESTAMP_LTZ as seconds, millis or micros, or as a struct of epoch
 * millis and nanos of the milli (precisions 7 to 9, and 4 to 6 in the layout the source asks for,
 * which keeps Flink's digits); a MULTISET as a map to INT counts.
 */
final class ArrowRowReader {
    /** One column of one batch: the internal value of row {@code row}, or null. */
    interface Cell {
        Object read(int row);
    }

    private final Cell[] columns;

    private ArrowRowReader(Cell[] columns) {
        this.columns = columns;
    }

    /** Binds the physical row type to a decoded batch's vectors (one per column, in order). */
    static ArrowRowReader bind(RowType rowType, VectorSchemaRoot root) {
        List<FieldVector> vectors = root.getFieldVectors();
        Cell[] columns = new Cell[rowType.getFieldCount()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = cell(rowType.getTypeAt(i), vectors.get(i));
        }
        return new ArrowRowReader(columns);
    }

    /** Writes row {@code row}'s physical fields into {@code target} from position 0. */
    void read(int row, GenericRowData target) {
        for (int i = 0; i < columns.length; i++) {
            target.setField(i, columns[i].read(row));
        }
    }

    private static Cell cell(LogicalType type, ValueVector vector) {
        Cell value = value(type, vector);
        return row -> vector.isNull(row) ? null : value.read(row);
    }

    /** The reader of a non-null value (the null check is {@link #cell}'s). */
    private static Cell value(LogicalType type, ValueVector vector) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return row -> ((BitVector) vector).get(row) != 0;
            case TINYINT:
                return row -> ((TinyIntVector) vector).get(row);
            case SMALLINT:
                return row -> ((SmallIntVector) vector).get(row);
            case INTEGER:
            case INTERVAL_YEAR_MONTH:
                return row -> ((IntVector) vector).get(row);
            case DATE:
                return row -> ((DateDayVector) vector).get(row);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return row -> ((BigIntVector) vector).get(row);
            case FLOAT:
                return row -> ((Float4Vector) vector).get(row);
            case DOUBLE:
                return row -> ((Float8Vector) vector).get(row);
            case DECIMAL:
                return decimal((DecimalType) type, (DecimalVector) vector);
            case CHAR:
            case VARCHAR:
                return row -> StringData.fromBytes(((VarCharVector) vector).get(row));
            case BINARY:
            case VARBINARY:
                return row -> ((VarBinaryVector) vector).get(row);
            case TIME_WITHOUT_TIME_ZONE:
                return timeOfDay(vector);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(vector);
            case ARRAY:
                return array(((ArrayType) type).getElementType(), (ListVector) vector);
            case MAP:
                return map(((MapType) type).getKeyType(), ((MapType) type).getValueType(), (MapVector) vector);
            case MULTISET:
                return map(((MultisetType) type).getElementType(), new org.apache.flink.table.types.logical.IntType(),
                        (MapVector) vector);
            case ROW:
                return row((RowType) type, (StructVector) vector);
            default:
                throw new IllegalStateException("kjson's source cannot read type " + type.asSummaryString()
                        + " from the native decoder (" + vector.getField() + ")");
        }
    }

    private static Cell decimal(DecimalType type, DecimalVector vector) {
        int precision = type.getPrecision();
        int scale = type.getScale();
        return row -> DecimalData.fromBigDecimal(vector.getObject(row), precision, scale);
    }

    /** TIME as Flink holds it: milliseconds of the day. */
    private static Cell timeOfDay(ValueVector vector) {
        if (vector instanceof TimeSecVector seconds) {
            return row -> seconds.get(row) * 1000;
        }
        if (vector instanceof TimeMilliVector millis) {
            return millis::get;
        }
        if (vector instanceof TimeMicroVector micros) {
            return row -> (int) (micros.get(row) / 1000);
        }
        TimeNanoVector nanos = (TimeNanoVector) vector;
        return row -> (int) (nanos.get(row) / 1_000_000);
    }

    private static Cell timestamp(ValueVector vector) {
        if (vector instanceof TimeStampSecVector seconds) {
            return row -> TimestampData.fromEpochMillis(seconds.get(row) * 1000);
        }
        if (vector instanceof TimeStampMilliVector millis) {
            return row -> TimestampData.fromEpochMillis(millis.get(row));
        }
        if (vector instanceof TimeStampMicroVector micros) {
            return row -> {
                long value = micros.get(row);
                return TimestampData.fromEpochMillis(Math.floorDiv(value, 1000), (int) Math.floorMod(value, 1000) * 1000);
            };
        }
        // Epoch millis and nanos of the milli.
        StructVector parts = (StructVector) vector;
        BigIntVector millis = (BigIntVector) parts.getChildByOrdinal(0);
        IntVector nanos = (IntVector) parts.getChildByOrdinal(1);
        return row -> TimestampData.fromEpochMillis(millis.get(row), nanos.get(row));
    }

    private static Cell array(LogicalType elementType, ListVector vector) {
        Cell element = cell(elementType, vector.getDataVector());
        return row -> {
            int start = vector.getElementStartIndex(row);
            Object[] elements = new Object[vector.getElementEndIndex(row) - start];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = element.read(start + i);
            }
            return new GenericArrayData(elements);
        };
    }

    private static Cell map(LogicalType keyType, LogicalType valueType, MapVector vector) {
        StructVector entries = (StructVector) vector.getDataVector();
        Cell key = cell(keyType, entries.getChildByOrdinal(0));
        Cell value = cell(valueType, entries.getChildByOrdinal(1));
        return row -> {
            int start = vector.getElementStartIndex(row);
            int end = vector.getElementEndIndex(row);
            Map<Object, Object> map = new HashMap<>();
            for (int i = start; i < end; i++) {
                map.put(key.read(i), value.read(i));
            }
            return new GenericMapData(map);
        };
    }

    private static Cell row(RowType type, StructVector vector) {
        Cell[] fields = new Cell[type.getFieldCount()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = cell(type.getTypeAt(i), vector.getChildByOrdinal(i));
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
