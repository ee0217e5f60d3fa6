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
import org.apache.flink.table.types.logical.LogicalTypeRoot;
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
 * <p>The decode oracle writes Flink's decoded rows with the {@link Layout#DECODE_OUTPUT} variant
 * of the same mapping (see {@link #writeDecoded}).
 *
 * <p>This writer is the oracle's own on purpose, not kjson-flink's {@code RowDataArrowWriter}: the
 * parity inputs must not come from the product under test, so a mapping mistake in the product's
 * writer cannot hide behind the same mistake in the inputs it is judged on.
 */
public final class ArrowInputWriter {

    public static final String ROW_KIND_COLUMN = "__row_kind";
    /** Decode output: the index of the input record a row came from. */
    public static final String RECORD_COLUMN = "__record";

    /** Which side of the harness the file is for. */
    public enum Layout {
        /** kjson's encode input: ArrowUtils' nullability, FixedSizeBinary, Timestamp(NANOSECOND) for 7..9. */
        ENCODE_INPUT,
        /**
         * Flink's decoded rows: every field nullable but map keys (a decoder writes null wherever
         * the JSON has it), BINARY(n) as Binary (the length is not enforced on read), TIMESTAMP(7..9)
         * as TimestampData's (epoch_millis, nano_of_milli) struct, and a trailing {@code __record}.
         */
        DECODE_OUTPUT
    }

    private final Layout layout;
    /** Decoded values whose digits are finer than their Arrow unit (written truncated), described. */
    private final List<String> truncated = new ArrayList<>();

    private ArrowInputWriter(Layout layout) {
        this.layout = layout;
    }

    /**
     * How maps and multisets whose key type is nullable are written when the case puts null keys
     * into them. arrow-rs (60.1) refuses both a nullable Map key field ("Map key field must not be
     * nullable") and nulls in a non-nullable one, so the carrier is selectable.
     */
    public enum NullKeys {
        /** No null keys: every map key field is NOT NULL, as in ArrowUtils. */
        NONE,
        /** Arrow Map whose key field is declared nullable (arrow-input.md's contract). */
        MAP,
        /** Arrow List of a non-null Struct "items" of a nullable "key" and "value". */
        LIST
    }

    static Schema schema(RowType rowType, NullKeys nullKeys) {
        return new ArrowInputWriter(Layout.ENCODE_INPUT).schemaOf(rowType, nullKeys);
    }

    private Schema schemaOf(RowType rowType, NullKeys nullKeys) {
        List<Field> fields = new ArrayList<>();
        for (RowType.RowField f : rowType.getFields()) {
            fields.add(field(f.getName(), f.getType(), nullKeys));
        }
        fields.add(new Field(ROW_KIND_COLUMN, FieldType.notNullable(new ArrowType.Int(8, true)), null));
        if (layout == Layout.DECODE_OUTPUT) {
            fields.add(new Field(RECORD_COLUMN, FieldType.notNullable(new ArrowType.Int(32, true)), null));
        }
        return new Schema(fields);
    }

    private Field field(String name, LogicalType type, NullKeys nullKeys) {
        return field(name, type, nullKeys, false);
    }

    private Field field(String name, LogicalType type, NullKeys nullKeys, boolean mapKey) {
        boolean nullable = layout == Layout.DECODE_OUTPUT ? !mapKey : type.isNullable();
        if (layout == Layout.DECODE_OUTPUT && timestampPrecision(type) > 6) {
            return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), List.of(
                    new Field("epoch_millis", FieldType.notNullable(new ArrowType.Int(64, true)), null),
                    new Field("nano_of_milli", FieldType.notNullable(new ArrowType.Int(32, true)), null)));
        }
        ArrowType arrowType = arrowType(type);
        if (layout == Layout.DECODE_OUTPUT && type.getTypeRoot() == LogicalTypeRoot.BINARY) {
            arrowType = ArrowType.Binary.INSTANCE;
        }
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
        return new Field(name, new FieldType(nullable, arrowType, null), children);
    }

    /** ArrowUtils' map layout: a non-null struct "items" of "key" and "value". */
    private Field entries(LogicalType keyType, LogicalType valueType, NullKeys nullKeys) {
        return new Field("items", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(field("key", keyType, nullKeys, true), field("value", valueType, nullKeys)));
    }

    /** The precision of a TIMESTAMP / TIMESTAMP_LTZ, -1 for other types. */
    private static int timestampPrecision(LogicalType type) {
        if (type instanceof TimestampType t) {
            return t.getPrecision();
        }
        if (type instanceof LocalZonedTimestampType t) {
            return t.getPrecision();
        }
        return -1;
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
        new ArrowInputWriter(Layout.ENCODE_INPUT).writeFile(file, rowType, nullKeys, rows, null, batchSizes);
    }

    /**
     * Writes decoded rows in the {@link Layout#DECODE_OUTPUT} layout: the physical fields (the
     * first {@code rowType.getFieldCount()} of each row), {@code __row_kind} and {@code __record}
     * ({@code records.get(i)} for row i), in batches of at most {@code maxBatch} rows (one empty
     * batch when there are no rows).
     *
     * @return the values written truncated to their Arrow unit (finer digits than the declared
     *     precision), one description each
     */
    public static List<String> writeDecoded(Path file, RowType rowType, List<? extends RowData> rows,
            List<Integer> records, int maxBatch) throws IOException {
        List<Integer> batches = new ArrayList<>();
        for (int left = rows.size(); left > 0; left -= Math.min(left, maxBatch)) {
            batches.add(Math.min(left, maxBatch));
        }
        if (batches.isEmpty()) {
            batches.add(0);
        }
        ArrowInputWriter writer = new ArrowInputWriter(Layout.DECODE_OUTPUT);
        // Nullable getters throughout: a decoder leaves a NOT NULL field null when the JSON lacks it.
        writer.writeFile(file, (RowType) nullable(rowType), NullKeys.NONE, rows, records, batches);
        return writer.truncated;
    }

    private static LogicalType nullable(LogicalType type) {
        if (type instanceof RowType r) {
            List<RowType.RowField> fields = new ArrayList<>();
            for (RowType.RowField f : r.getFields()) {
                fields.add(new RowType.RowField(f.getName(), nullable(f.getType()), f.getDescription().orElse(null)));
            }
            return new RowType(true, fields);
        }
        if (type instanceof ArrayType a) {
            return new ArrayType(true, nullable(a.getElementType()));
        }
        if (type instanceof MapType m) {
            return new MapType(true, nullable(m.getKeyType()), nullable(m.getValueType()));
        }
        if (type instanceof MultisetType m) {
            return new MultisetType(true, nullable(m.getElementType()));
        }
        return type.copy(true);
    }

    private void writeFile(Path file, RowType rowType, NullKeys nullKeys, List<? extends RowData> rows,
            List<Integer> records, List<Integer> batchSizes) throws IOException {
        // arrow-java refuses to build a MapVector whose key field is nullable, so the vectors are
        // built from the schema with non-null map keys while the file declares the nullable-key
        // schema; the validity buffers of the key vectors carry the null keys either way.
        Schema declared = schemaOf(rowType, nullKeys);
        Schema buildable = withNonNullMapKeys(declared);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = new VectorSchemaRoot(
                        declared.getFields(), createVectors(buildable, allocator), 0);
                OutputStream out = Files.newOutputStream(file);
                ArrowFileWriter writer = new ArrowFileWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            int start = 0;
            for (int size : batchSizes) {
                fillBatch(root, rowType, rows.subList(start, start + size),
                        records == null ? null : records.subList(start, start + size));
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

    private void fillBatch(VectorSchemaRoot root, RowType rowType, List<? extends RowData> rows, List<Integer> records) {
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
            if (records != null) {
                ((IntVector) vectors.get(rowType.getFieldCount() + 1)).setSafe(i, records.get(i));
            }
        }
        root.setRowCount(rows.size());
    }

    private void writeValue(FieldVector vector, int index, LogicalType type, Object value) {
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
            case BINARY:
                if (vector instanceof FixedSizeBinaryVector v) {
                    v.setSafe(index, (byte[]) value);
                } else {
                    ((VarBinaryVector) vector).setSafe(index, (byte[]) value);
                }
                break;
            case VARBINARY: ((VarBinaryVector) vector).setSafe(index, (byte[]) value); break;
            case DATE: ((DateDayVector) vector).setSafe(index, (Integer) value); break;
            case TIME_WITHOUT_TIME_ZONE: writeTime(vector, index, (Integer) value); break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: writeTimestamp(vector, index, (TimestampData) value); break;
            case ARRAY: writeArray((ListVector) vector, index, ((ArrayType) type).getElementType(), (ArrayData) value); break;
            case MAP: {
                MapType m = (MapType) type;
                writeMap((ListVector) vector, index, m.getKeyType(), m.getValueType(), (MapData) value);
                break;
            }
            case MULTISET:
                writeMap((ListVector) vector, index, ((MultisetType) type).getElementType(),
                        new IntType(layout == Layout.DECODE_OUTPUT), (MapData) value);
                break;
            case ROW: writeRow((StructVector) vector, index, (RowType) type, (RowData) value); break;
            default: throw new UnsupportedOperationException("oracle: no Arrow writer for type " + type);
        }
    }

    private void writeTime(FieldVector vector, int index, int millisOfDay) {
        if (vector instanceof TimeSecVector v) {
            if (millisOfDay % 1000 != 0) {
                truncated.add(vector.getName() + ": TIME millis of day " + millisOfDay + " in Time32(SECOND)");
            }
            v.setSafe(index, millisOfDay / 1000);
        } else if (vector instanceof TimeMilliVector v) {
            v.setSafe(index, millisOfDay);
        } else if (vector instanceof TimeMicroVector v) {
            v.setSafe(index, millisOfDay * 1_000L);
        } else {
            ((TimeNanoVector) vector).setSafe(index, millisOfDay * 1_000_000L);
        }
    }

    private void writeTimestamp(FieldVector vector, int index, TimestampData t) {
        long millis = t.getMillisecond();
        long nanoOfMilli = t.getNanoOfMillisecond();
        if (vector instanceof StructVector v) {
            v.setIndexDefined(index);
            ((BigIntVector) v.getChildByOrdinal(0)).setSafe(index, millis);
            ((IntVector) v.getChildByOrdinal(1)).setSafe(index, (int) nanoOfMilli);
        } else if (vector instanceof TimeStampSecVector v) {
            noteTruncation(vector, t, Math.floorMod(millis, 1000) != 0 || nanoOfMilli != 0, "SECOND");
            v.setSafe(index, Math.floorDiv(millis, 1000));
        } else if (vector instanceof TimeStampMilliVector v) {
            noteTruncation(vector, t, nanoOfMilli != 0, "MILLISECOND");
            v.setSafe(index, millis);
        } else if (vector instanceof TimeStampMicroVector v) {
            noteTruncation(vector, t, nanoOfMilli % 1_000 != 0, "MICROSECOND");
            v.setSafe(index, millis * 1_000 + nanoOfMilli / 1_000);
        } else {
            ((TimeStampNanoVector) vector).setSafe(index, millis * 1_000_000 + nanoOfMilli);
        }
    }

    /** A decoder keeps the digits it parsed whatever the precision; the unit cannot hold them all. */
    private void noteTruncation(FieldVector vector, TimestampData t, boolean finer, String unit) {
        if (finer) {
            truncated.add(vector.getName() + ": " + t + " (millis " + t.getMillisecond() + ", nanos of milli "
                    + t.getNanoOfMillisecond() + ") in Timestamp(" + unit + ")");
        }
    }

    private void writeArray(ListVector vector, int index, LogicalType elementType, ArrayData array) {
        int offset = vector.startNewValue(index);
        FieldVector child = vector.getDataVector();
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        for (int i = 0; i < array.size(); i++) {
            writeValue(child, offset + i, elementType, getter.getElementOrNull(array, i));
        }
        vector.endValue(index, array.size());
    }

    /** Entries in the map data's key-array order, which is the order Flink's encoder walks. */
    private void writeMap(ListVector vector, int index, LogicalType keyType, LogicalType valueType, MapData map) {
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

    private void writeRow(StructVector vector, int index, RowType type, RowData row) {
        vector.setIndexDefined(index);
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType fieldType = type.getTypeAt(i);
            Object value = RowData.createFieldGetter(fieldType, i).getFieldOrNull(row);
            writeValue((FieldVector) vector.getChildByOrdinal(i), index, fieldType, value);
        }
    }
}
