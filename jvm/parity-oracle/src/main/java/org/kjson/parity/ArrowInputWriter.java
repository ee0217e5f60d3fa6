package org.kjson.parity;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
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
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Writes rows as an Arrow IPC file the way flink-python's ArrowUtils maps Flink types (the
 * README's input table), extended for what ArrowUtils refuses: MULTISET as
 * Map&lt;T, Int32 not null&gt;, intervals as Int32 months / Int64 millis, and a nullable map key
 * field for maps that carry null keys. A trailing non-null Int8 column {@code __row_kind} holds
 * {@code RowKind.toByteValue()}.
 *
 * <p>This writer is the oracle's own on purpose, not kjson-flink's {@code RowDataArrowWriter}: the
 * parity inputs must not come from the product under test, so a mapping mistake in the product's
 * writer cannot hide behind the same mistake in the inputs it is judged on.
 */
final class ArrowInputWriter {

    static final String ROW_KIND_COLUMN = "__row_kind";

    private ArrowInputWriter() {}

    /**
     * How maps and multisets whose key type is nullable are written when the case puts null keys
     * into them. arrow-rs (60.1) refuses both a nullable Map key field ("Map key field must not be
     * nullable") and nulls in a non-nullable one, so the carrier is selectable.
     */
    enum NullKeys {
        /** No null keys: every map key field is NOT NULL, as in ArrowUtils. */
        NONE,
        /** Arrow Map whose key field is declared nullable (arrow-input.md's contract). */
        MAP,
        /** Arrow List of a non-null Struct "items" of a nullable "key" and "value". */
        LIST
    }

    static Schema schema(RowType rowType, NullKeys nullKeys) {
        List<Field> fields = new ArrayList<>();
        for (RowType.RowField f : rowType.getFields()) {
            fields.add(field(f.getName(), f.getType(), nullKeys));
        }
        fields.add(new Field(ROW_KIND_COLUMN, FieldType.notNullable(new ArrowType.Int(8, true)), null));
        return new Schema(fields);
    }

    private static Field field(String name, LogicalType type, NullKeys nullKeys) {
        ArrowType arrowType = arrowType(type);
        List<Field> children = null;
        switch (type.getTypeRoot()) {
            case ARRAY:
                children = List.of(field("element", ((ArrayType) type).getElementType(), nullKeys));
                break;
            case ROW:
                children = new ArrayList<>();
                for (RowType.RowField f : ((RowType) type).getFields()) {
                    children.add(field(f.getName(), f.getType(), nullKeys));
                }
                break;
            case MAP:
            case MULTISET: {
                LogicalType keyType = type instanceof MapType m ? m.getKeyType() : ((MultisetType) type).getElementType();
                LogicalType valueType = type instanceof MapType m ? m.getValueType() : new IntType(false);
                boolean nullableKey = nullKeys != NullKeys.NONE && keyType.isNullable();
                if (nullableKey && nullKeys == NullKeys.LIST) {
                    arrowType = ArrowType.List.INSTANCE;
                }
                children = List.of(entries(keyType.copy(nullableKey), valueType, nullKeys));
                break;
            }
            default:
                break;
        }
        return new Field(name, new FieldType(type.isNullable(), arrowType, null), children);
    }

    /** ArrowUtils' map layout: a non-null struct "items" of "key" and "value". */
    private static Field entries(LogicalType keyType, LogicalType valueType, NullKeys nullKeys) {
        return new Field("items", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(field("key", keyType, nullKeys), field("value", valueType, nullKeys)));
    }

    private static ArrowType arrowType(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN: return ArrowType.Bool.INSTANCE;
            case TINYINT: return new ArrowType.Int(8, true);
            case SMALLINT: return new ArrowType.Int(16, true);
            case INTEGER:
            case INTERVAL_YEAR_MONTH: return new ArrowType.Int(32, true);
            case BIGINT:
            case INTERVAL_DAY_TIME: return new ArrowType.Int(64, true);
            case FLOAT: return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE: return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                return new ArrowType.Decimal(d.getPrecision(), d.getScale(), 128);
            }
            case CHAR:
            case VARCHAR: return ArrowType.Utf8.INSTANCE;
            case BINARY: return new ArrowType.FixedSizeBinary(((BinaryType) type).getLength());
            case VARBINARY: return ArrowType.Binary.INSTANCE;
            case DATE: return new ArrowType.Date(DateUnit.DAY);
            case TIME_WITHOUT_TIME_ZONE: return timeType(((TimeType) type).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE: return new ArrowType.Timestamp(unit(((TimestampType) type).getPrecision()), null);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new ArrowType.Timestamp(unit(((LocalZonedTimestampType) type).getPrecision()), null);
            case ARRAY: return ArrowType.List.INSTANCE;
            case MAP:
            case MULTISET: return new ArrowType.Map(false);
            case ROW: return ArrowType.Struct.INSTANCE;
            default: throw new UnsupportedOperationException("oracle: no Arrow mapping for type " + type);
        }
    }

    private static TimeUnit unit(int precision) {
        return precision == 0 ? TimeUnit.SECOND : precision <= 3 ? TimeUnit.MILLISECOND
                : precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
    }

    private static ArrowType timeType(int precision) {
        TimeUnit unit = unit(precision);
        return new ArrowType.Time(unit, unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64);
    }

    /**
     * Writes the rows (physical fields only, in order) as consecutive record batches of the given
     * sizes (which sum to the row count; a 0 is an empty batch).
     */
    static void write(Path file, RowType rowType, NullKeys nullKeys, List<? extends RowData> rows,
            List<Integer> batchSizes) throws IOException {
        // arrow-java refuses to build a MapVector whose key field is nullable, so the vectors are
        // built from the schema with non-null map keys while the file declares the nullable-key
        // schema; the validity buffers of the key vectors carry the null keys either way.
        Schema declared = schema(rowType, nullKeys);
        Schema buildable = withNonNullMapKeys(declared);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = new VectorSchemaRoot(
                        declared.getFields(), createVectors(buildable, allocator), 0);
                OutputStream out = Files.newOutputStream(file);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            int start = 0;
            for (int size : batchSizes) {
                fillBatch(root, rowType, rows.subList(start, start + size));
                writer.writeBatch();
                start += size;
            }
            if (start != rows.size()) {
                throw new IllegalArgumentException("oracle: batch sizes cover " + start + " of " + rows.size() + " rows");
            }
            writer.end();
        }
    }

    /**
     * Seeded batch sizes: a small first batch, then up to {@code maxBatch} rows each, with an
     * occasional empty batch, so that encoder state reused across batches is exercised.
     */
    static List<Integer> batchPlan(long seed, int rows, int maxBatch) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Integer> sizes = new ArrayList<>();
        int left = rows;
        while (left > 0) {
            int size = Math.min(left, random.nextInt(1, (sizes.isEmpty() ? 8 : maxBatch) + 1));
            sizes.add(size);
            left -= size;
            if (random.nextInt(6) == 0) {
                sizes.add(0);
            }
        }
        if (sizes.isEmpty()) {
            sizes.add(0);
        }
        return sizes;
    }

    private static List<FieldVector> createVectors(Schema schema, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>();
        for (Field field : schema.getFields()) {
            vectors.add(field.createVector(allocator));
        }
        return vectors;
    }

    /** The schema with every map key field made non-nullable (what arrow-java can build). */
    static Schema withNonNullMapKeys(Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (Field field : schema.getFields()) {
            fields.add(withNonNullMapKeys(field, false));
        }
        return new Schema(fields, schema.getCustomMetadata());
    }

    private static Field withNonNullMapKeys(Field field, boolean isMapKey) {
        List<Field> children = new ArrayList<>();
        boolean isMap = field.getType() instanceof ArrowType.Map;
        for (Field child : field.getChildren()) {
            if (isMap) {
                List<Field> kv = new ArrayList<>();
                for (int i = 0; i < child.getChildren().size(); i++) {
                    kv.add(withNonNullMapKeys(child.getChildren().get(i), i == 0));
                }
                children.add(new Field(child.getName(), child.getFieldType(), kv));
            } else {
                children.add(withNonNullMapKeys(child, false));
            }
        }
        FieldType type = field.getFieldType();
        if (isMapKey) {
            type = new FieldType(false, type.getType(), type.getDictionary(), type.getMetadata());
        }
        return new Field(field.getName(), type, children);
    }

    private static void fillBatch(VectorSchemaRoot root, RowType rowType, List<? extends RowData> rows) {
        root.clear();
        root.allocateNew();
        List<FieldVector> vectors = root.getFieldVectors();
        for (int i = 0; i < rows.size(); i++) {
            RowData row = rows.get(i);
            for (int c = 0; c < rowType.getFieldCount(); c++) {
                LogicalType type = rowType.getTypeAt(c);
                Object value = RowData.createFieldGetter(type, c).getFieldOrNull(row);
                writeValue(vectors.get(c), i, type, value);
            }
            ((TinyIntVector) vectors.get(rowType.getFieldCount())).setSafe(i, row.getRowKind().toByteValue());
        }
        root.setRowCount(rows.size());
    }

    private static void writeValue(FieldVector vector, int index, LogicalType type, Object value) {
        if (value == null) {
            vector.setNull(index);
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN: ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0); break;
            case TINYINT: ((TinyIntVector) vector).setSafe(index, (Byte) value); break;
            case SMALLINT: ((SmallIntVector) vector).setSafe(index, (Short) value); break;
            case INTEGER:
            case INTERVAL_YEAR_MONTH: ((IntVector) vector).setSafe(index, (Integer) value); break;
            case BIGINT:
            case INTERVAL_DAY_TIME: ((BigIntVector) vector).setSafe(index, (Long) value); break;
            case FLOAT: ((Float4Vector) vector).setSafe(index, (Float) value); break;
            case DOUBLE: ((Float8Vector) vector).setSafe(index, (Double) value); break;
            case DECIMAL: ((DecimalVector) vector).setSafe(index, ((DecimalData) value).toBigDecimal()); break;
            case CHAR:
            case VARCHAR:
                ((VarCharVector) vector).setSafe(index, value.toString().getBytes(StandardCharsets.UTF_8));
                break;
            case BINARY: ((FixedSizeBinaryVector) vector).setSafe(index, (byte[]) value); break;
            case VARBINARY: ((VarBinaryVector) vector).setSafe(index, (byte[]) value); break;
            case DATE: ((DateDayVector) vector).setSafe(index, (Integer) value); break;
            case TIME_WITHOUT_TIME_ZONE: writeTime(vector, index, (Integer) value); break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: writeTimestamp((BaseFixedWidthVector) vector, index, (TimestampData) value); break;
            case ARRAY: writeArray((ListVector) vector, index, ((ArrayType) type).getElementType(), (ArrayData) value); break;
            case MAP: {
                MapType m = (MapType) type;
                writeMap((ListVector) vector, index, m.getKeyType(), m.getValueType(), (MapData) value);
                break;
            }
            case MULTISET:
                writeMap((ListVector) vector, index, ((MultisetType) type).getElementType(), new IntType(false), (MapData) value);
                break;
            case ROW: writeRow((StructVector) vector, index, (RowType) type, (RowData) value); break;
            default: throw new UnsupportedOperationException("oracle: no Arrow writer for type " + type);
        }
    }

    private static void writeTime(FieldVector vector, int index, int millisOfDay) {
        if (vector instanceof TimeSecVector v) {
            v.setSafe(index, millisOfDay / 1000);
        } else if (vector instanceof TimeMilliVector v) {
            v.setSafe(index, millisOfDay);
        } else if (vector instanceof TimeMicroVector v) {
            v.setSafe(index, millisOfDay * 1_000L);
        } else {
            ((TimeNanoVector) vector).setSafe(index, millisOfDay * 1_000_000L);
        }
    }

    private static void writeTimestamp(BaseFixedWidthVector vector, int index, TimestampData t) {
        long millis = t.getMillisecond();
        long nanoOfMilli = t.getNanoOfMillisecond();
        if (vector instanceof TimeStampSecVector v) {
            v.setSafe(index, Math.floorDiv(millis, 1000));
        } else if (vector instanceof TimeStampMilliVector v) {
            v.setSafe(index, millis);
        } else if (vector instanceof TimeStampMicroVector v) {
            v.setSafe(index, millis * 1_000 + nanoOfMilli / 1_000);
        } else {
            ((TimeStampNanoVector) vector).setSafe(index, millis * 1_000_000 + nanoOfMilli);
        }
    }

    private static void writeArray(ListVector vector, int index, LogicalType elementType, ArrayData array) {
        int offset = vector.startNewValue(index);
        FieldVector child = vector.getDataVector();
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        for (int i = 0; i < array.size(); i++) {
            writeValue(child, offset + i, elementType, getter.getElementOrNull(array, i));
        }
        vector.endValue(index, array.size());
    }

    /** Entries in the map data's key-array order, which is the order Flink's encoder walks. */
    private static void writeMap(ListVector vector, int index, LogicalType keyType, LogicalType valueType, MapData map) {
        int offset = vector.startNewValue(index);
        StructVector entries = (StructVector) vector.getDataVector();
        FieldVector keys = (FieldVector) entries.getChildByOrdinal(0);
        FieldVector values = (FieldVector) entries.getChildByOrdinal(1);
        ArrayData keyArray = map.keyArray();
        ArrayData valueArray = map.valueArray();
        ArrayData.ElementGetter keyGetter = ArrayData.createElementGetter(keyType);
        ArrayData.ElementGetter valueGetter = ArrayData.createElementGetter(valueType);
        for (int i = 0; i < map.size(); i++) {
            entries.setIndexDefined(offset + i);
            writeValue(keys, offset + i, keyType, keyGetter.getElementOrNull(keyArray, i));
            writeValue(values, offset + i, valueType, valueGetter.getElementOrNull(valueArray, i));
        }
        vector.endValue(index, map.size());
    }

    private static void writeRow(StructVector vector, int index, RowType type, RowData row) {
        vector.setIndexDefined(index);
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType fieldType = type.getTypeAt(i);
            Object value = RowData.createFieldGetter(fieldType, i).getFieldOrNull(row);
            writeValue((FieldVector) vector.getChildByOrdinal(i), index, fieldType, value);
        }
    }
}
