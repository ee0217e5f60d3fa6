package org.kjson.parity;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Reads an input.arrow back into Flink rows, the inverse of {@link ArrowInputWriter}. The oracle
 * serializes the read-back rows too and requires the same bytes, so a writer bug cannot hide.
 */
final class ArrowInputReader {

    private ArrowInputReader() {}

    static List<GenericRowData> read(Path file, RowType rowType, int extraNullFields) throws IOException {
        List<GenericRowData> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new NullableKeyTolerantReader(channel, allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                List<FieldVector> vectors = root.getFieldVectors();
                TinyIntVector kinds = (TinyIntVector) vectors.get(rowType.getFieldCount());
                for (int i = 0; i < root.getRowCount(); i++) {
                    GenericRowData row = new GenericRowData(
                            RowKind.fromByteValue(kinds.get(i)), rowType.getFieldCount() + extraNullFields);
                    for (int c = 0; c < rowType.getFieldCount(); c++) {
                        row.setField(c, value(vectors.get(c), i, rowType.getTypeAt(c)));
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** Reads files whose map key fields are declared nullable, which arrow-java cannot build. */
    private static final class NullableKeyTolerantReader extends ArrowFileReader {
        NullableKeyTolerantReader(FileChannel channel, BufferAllocator allocator) {
            super(channel, allocator);
        }

        @Override
        protected Schema readSchema() throws IOException {
            return ArrowInputWriter.withNonNullMapKeys(super.readSchema());
        }
    }

    private static Object value(FieldVector vector, int index, LogicalType type) {
        if (vector.isNull(index)) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN: return ((BitVector) vector).get(index) != 0;
            case TINYINT: return (byte) ((BaseIntVector) vector).getValueAsLong(index);
            case SMALLINT: return (short) ((BaseIntVector) vector).getValueAsLong(index);
            case INTEGER:
            case INTERVAL_YEAR_MONTH: return (int) ((BaseIntVector) vector).getValueAsLong(index);
            case DATE: return ((DateDayVector) vector).get(index);
            case BIGINT:
            case INTERVAL_DAY_TIME: return ((BaseIntVector) vector).getValueAsLong(index);
            case FLOAT: return ((Float4Vector) vector).get(index);
            case DOUBLE: return ((Float8Vector) vector).get(index);
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                return DecimalData.fromBigDecimal(((DecimalVector) vector).getObject(index), d.getPrecision(), d.getScale());
            }
            case CHAR:
            case VARCHAR: return StringData.fromBytes(((VarCharVector) vector).get(index));
            case BINARY: return ((FixedSizeBinaryVector) vector).get(index);
            case VARBINARY: return ((VarBinaryVector) vector).get(index);
            case TIME_WITHOUT_TIME_ZONE: return millisOfDay(vector, index);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: return timestamp((TimeStampVector) vector, index);
            case ARRAY: return array((ListVector) vector, index, ((ArrayType) type).getElementType());
            case MAP: {
                MapType m = (MapType) type;
                return map((ListVector) vector, index, m.getKeyType(), m.getValueType());
            }
            case MULTISET: return map((ListVector) vector, index, ((MultisetType) type).getElementType(), new IntType(false));
            case ROW: return row((StructVector) vector, index, (RowType) type);
            default: throw new UnsupportedOperationException("oracle: no Arrow reader for type " + type);
        }
    }

    private static int millisOfDay(FieldVector vector, int index) {
        if (vector instanceof TimeSecVector v) {
            return v.get(index) * 1000;
        } else if (vector instanceof TimeMilliVector v) {
            return v.get(index);
        } else if (vector instanceof TimeMicroVector v) {
            return (int) (v.get(index) / 1_000);
        }
        return (int) (((TimeNanoVector) vector).get(index) / 1_000_000);
    }

    private static TimestampData timestamp(TimeStampVector vector, int index) {
        long raw = vector.get(index);
        if (vector instanceof TimeStampSecVector) {
            return TimestampData.fromEpochMillis(raw * 1000);
        } else if (vector instanceof TimeStampMilliVector) {
            return TimestampData.fromEpochMillis(raw);
        } else if (vector instanceof TimeStampMicroVector) {
            return TimestampData.fromEpochMillis(Math.floorDiv(raw, 1_000), Math.floorMod(raw, 1_000) * 1_000);
        }
        return TimestampData.fromEpochMillis(Math.floorDiv(raw, 1_000_000), Math.floorMod(raw, 1_000_000));
    }

    private static GenericArrayData array(ListVector vector, int index, LogicalType elementType) {
        int start = vector.getElementStartIndex(index);
        int end = vector.getElementEndIndex(index);
        Object[] elements = new Object[end - start];
        for (int i = start; i < end; i++) {
            elements[i - start] = value(vector.getDataVector(), i, elementType);
        }
        return new GenericArrayData(elements);
    }

    private static GenericMapData map(ListVector vector, int index, LogicalType keyType, LogicalType valueType) {
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector keys = (FieldVector) entries.getChildByOrdinal(0);
        FieldVector values = (FieldVector) entries.getChildByOrdinal(1);
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = vector.getElementStartIndex(index); i < vector.getElementEndIndex(index); i++) {
            map.put(value(keys, i, keyType), value(values, i, valueType));
        }
        return new GenericMapData(map);
    }

    private static GenericRowData row(StructVector vector, int index, RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, value((FieldVector) vector.getChildByOrdinal(i), index, type.getTypeAt(i)));
        }
        return row;
    }
}
