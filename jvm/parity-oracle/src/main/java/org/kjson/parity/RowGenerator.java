package org.kjson.parity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

/**
 * Seeded random rows of Flink's internal data structures for a physical row type, with nulls at
 * about 15% wherever the type is nullable, empty and nested collections, and (when the case
 * allows) null map keys and keys equal to the map-null-key literal.
 */
public final class RowGenerator {

    private static final RowKind[] KINDS = {RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE};

    private final SplittableRandom random;
    private final boolean nullMapKeys;
    private final List<String> literalKeys;

    /**
     * @param nullMapKeys whether maps with a nullable key type get null keys
     * @param literalKeys map-null-key literals of the case, sometimes used as real keys too
     */
    public RowGenerator(long seed, boolean nullMapKeys, List<String> literalKeys) {
        this.random = new SplittableRandom(seed);
        this.nullMapKeys = nullMapKeys;
        this.literalKeys = literalKeys;
    }

    /** A top-level row: physical fields, then {@code extraNullFields} null metadata fields. */
    public GenericRowData row(RowType type, int extraNullFields) {
        GenericRowData row = new GenericRowData(KINDS[random.nextInt(KINDS.length)], type.getFieldCount() + extraNullFields);
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, value(type.getTypeAt(i), 0));
        }
        return row;
    }

    private Object value(LogicalType type, int depth) {
        if (type.isNullable() && random.nextInt(100) < 15) {
            return null;
        }
        return nonNullValue(type, depth);
    }

    private Object nonNullValue(LogicalType type, int depth) {
        SplittableRandom r = random;
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return r.nextBoolean();
            case TINYINT:
                return (byte) HardValues.integer(r, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) HardValues.integer(r, Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER:
                return (int) HardValues.integer(r, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
                return HardValues.integer(r, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT:
                return HardValues.floatValue(r);
            case DOUBLE:
                return HardValues.doubleValue(r);
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                return DecimalData.fromBigDecimal(
                        HardValues.decimal(r, d.getPrecision(), d.getScale()), d.getPrecision(), d.getScale());
            }
            case CHAR:
                return StringData.fromString(HardValues.string(r, maxUnits(((CharType) type).getLength())));
            case VARCHAR:
                return StringData.fromString(HardValues.string(r, maxUnits(((VarCharType) type).getLength())));
            case BINARY:
                return bytes(((BinaryType) type).getLength());
            case VARBINARY:
                return bytes(r.nextInt(Math.min(40, ((VarBinaryType) type).getLength()) + 1));
            case DATE:
                return HardValues.epochDay(r);
            case TIME_WITHOUT_TIME_ZONE:
                return HardValues.millisOfDay(r, ((TimeType) type).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(((LocalZonedTimestampType) type).getPrecision());
            case INTERVAL_YEAR_MONTH:
                return r.nextInt(3) == 0 ? (int) HardValues.integer(r, Integer.MIN_VALUE, Integer.MAX_VALUE)
                        : r.nextInt(-1200, 1201);
            case INTERVAL_DAY_TIME:
                return r.nextInt(3) == 0 ? HardValues.integer(r, Long.MIN_VALUE, Long.MAX_VALUE)
                        : r.nextLong(-864_000_000_000L, 864_000_000_001L);
            case ARRAY:
                return array(((ArrayType) type).getElementType(), depth);
            case MAP: {
                MapType m = (MapType) type;
                return map(m.getKeyType(), m.getValueType(), depth);
            }
            case MULTISET:
                return map(((MultisetType) type).getElementType(), null, depth);
            case ROW: {
                RowType rowType = (RowType) type;
                GenericRowData row = new GenericRowData(rowType.getFieldCount());
                for (int i = 0; i < rowType.getFieldCount(); i++) {
                    row.setField(i, value(rowType.getTypeAt(i), depth + 1));
                }
                return row;
            }
            default:
                throw new UnsupportedOperationException("oracle: no generator for type " + type);
        }
    }

    private static int maxUnits(int declaredLength) {
        return Math.min(declaredLength, 300);
    }

    private byte[] bytes(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) random.nextInt(256);
        }
        return b;
    }

    private TimestampData timestamp(int precision) {
        long[] t = HardValues.timestamp(random, precision);
        return TimestampData.fromEpochMillis(t[0], (int) t[1]);
    }

    private int collectionSize(int depth) {
        int k = random.nextInt(100);
        if (k < 15) {
            return 0;
        }
        return random.nextInt(1, depth < 2 ? 6 : 4);
    }

    private GenericArrayData array(LogicalType elementType, int depth) {
        Object[] elements = new Object[collectionSize(depth)];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = value(elementType, depth + 1);
        }
        return new GenericArrayData(elements);
    }

    /** A MAP (valueType != null) or a MULTISET (valueType == null: element -> count). */
    private GenericMapData map(LogicalType keyType, LogicalType valueType, int depth) {
        int size = collectionSize(depth);
        List<Object> keys = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            keys.add(nonNullValue(keyType, depth + 1));
        }
        if (size > 0 && !literalKeys.isEmpty() && keyType.is(org.apache.flink.table.types.logical.LogicalTypeFamily.CHARACTER_STRING)
                && random.nextInt(5) == 0) {
            keys.set(random.nextInt(size), StringData.fromString(literalKeys.get(random.nextInt(literalKeys.size()))));
        }
        if (size > 0 && nullMapKeys && keyType.isNullable() && random.nextInt(4) == 0) {
            keys.add(random.nextInt(keys.size() + 1), null);
        }
        Map<Object, Object> entries = new LinkedHashMap<>();
        for (Object key : keys) {
            entries.put(key, valueType == null ? multisetCount() : value(valueType, depth + 1));
        }
        return new GenericMapData(entries);
    }

    private int multisetCount() {
        return random.nextInt(10) == 0 ? (int) HardValues.integer(random, Integer.MIN_VALUE, Integer.MAX_VALUE)
                : random.nextInt(1, 6);
    }
}
