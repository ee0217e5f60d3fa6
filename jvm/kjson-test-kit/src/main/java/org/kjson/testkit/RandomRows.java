package org.kjson.testkit;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
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
 * Random rows in Flink's internal format for any row type, biased towards the values where
 * JSON spellings are tricky (escapes, surrogate pairs, float/decimal exponents, far years).
 * Values hold no more fractional digits than their type's precision, as Flink's planner ensures.
 * On request, {@link HostileValues} are mixed in: values inside their types that planner rows
 * rarely hold (strings from invalid UTF-8, lone surrogates, years 0000..9999, all-digit decimals).
 */
public final class RandomRows {
    private static final String[] KEYS = {"a", "b", "k", "null", "NUL", "key", "é", "\"q\"", "x\ty", "\uD83D\uDE00", ""};
    private static final int[] CODE_POINTS = {
        'a', 'Z', '0', ' ', '"', '\\', '/', '\b', '\t', '\n', '\f', '\r', 0x00, 0x0B, 0x1F, 0x7F, 0xE9, 0x2028, 0x2029,
        0xFEFF, 0xFFFD, 0xFFFF, 0x4E2D, 0x10000, 0x1F600, 0x10FFFF, '<', '&', '\''
    };

    private final Random random;
    private final double nullChance;
    private boolean nullMapKeys;
    /** NONE: only the values the planner's rows hold (and the random sequence stays as it was). */
    private final HostileValues.Options hostileKinds;
    private final HostileValues hostile;

    /** {@code nullMapKeys}: maps with string keys may hold a null key (only for DROP/LITERAL). */
    public RandomRows(long seed, double nullChance, boolean nullMapKeys) {
        this(seed, nullChance, nullMapKeys, null);
    }

    /** As above, mixing in the {@link HostileValues} that {@code hostile} names (null: none). */
    public RandomRows(long seed, double nullChance, boolean nullMapKeys, HostileValues.Options hostile) {
        this.random = new Random(seed);
        this.nullChance = nullChance;
        this.nullMapKeys = nullMapKeys;
        this.hostileKinds = hostile == null ? HostileValues.Options.NONE : hostile;
        this.hostile = new HostileValues(random);
    }

    /** From now on, nullable map keys may (or may not) be null. */
    public void nullMapKeys(boolean allowed) {
        this.nullMapKeys = allowed;
    }

    public Random random() {
        return random;
    }

    public GenericRowData row(RowType type, RowKind kind) {
        GenericRowData row = new GenericRowData(kind, type.getFieldCount());
        for (int f = 0; f < type.getFieldCount(); f++) {
            row.setField(f, value(type.getTypeAt(f)));
        }
        return row;
    }

    /** A random row kind: mostly inserts, with every other kind present. */
    public RowKind kind() {
        int r = random.nextInt(10);
        return r < 4 ? RowKind.INSERT : RowKind.values()[r % 4];
    }

    public Object value(LogicalType type) {
        if (type.isNullable() && random.nextDouble() < nullChance) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) random.nextInt();
            case SMALLINT:
                return (short) random.nextInt();
            case INTEGER:
            case INTERVAL_YEAR_MONTH:
                return pick(new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, random.nextInt(), random.nextInt(1000)});
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return random.nextBoolean() ? random.nextLong() : (long) random.nextInt(100_000) - 50_000;
            case FLOAT:
                return Floats.randomFloat(random);
            case DOUBLE:
                return Floats.randomDouble(random);
            case DECIMAL:
                return nextIsHostile(hostileKinds.decimals())
                        ? hostile.decimal((DecimalType) type) : decimal((DecimalType) type);
            case CHAR:
                return stringData(((CharType) type).getLength());
            case VARCHAR:
                return stringData(Math.min(((VarCharType) type).getLength(), 40));
            case BINARY:
                return bytes(((BinaryType) type).getLength(), true);
            case VARBINARY:
                return bytes(Math.min(((VarBinaryType) type).getLength(), 40), false);
            case DATE:
                if (nextIsHostile(hostileKinds.timestamps())) {
                    return hostile.date();
                }
                return random.nextInt(8) == 0 ? random.nextInt(4_500_000) - 1_000_000 : random.nextInt(40_000) - 10_000;
            case TIME_WITHOUT_TIME_ZONE:
                return time(((TimeType) type).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestamp(((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(((LocalZonedTimestampType) type).getPrecision());
            case ARRAY:
                return array(((ArrayType) type).getElementType());
            case MAP:
                return map(((MapType) type).getKeyType(), ((MapType) type).getValueType());
            case MULTISET:
                return multiset(((MultisetType) type).getElementType());
            case ROW:
                return row((RowType) type, RowKind.INSERT);
            default:
                throw new UnsupportedOperationException(type.asSummaryString());
        }
    }

    /** Whether the next value is a hostile one: half of them when that kind is on (no draw when off). */
    private boolean nextIsHostile(boolean kindEnabled) {
        return kindEnabled && random.nextBoolean();
    }

    private StringData stringData(int maxLength) {
        String plain = string(maxLength);
        return nextIsHostile(hostileKinds.strings())
                ? hostile.string(plain) : StringData.fromString(plain);
    }

    private int pick(int[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private DecimalData decimal(DecimalType type) {
        int precision = type.getPrecision();
        int digits = 1 + random.nextInt(precision);
        BigInteger unscaled;
        switch (random.nextInt(5)) {
            case 0:
                unscaled = BigInteger.ZERO;
                break;
            case 1: // trailing zeros: exponent spellings after stripping (DECIMAL(1, s) holds one digit)
                unscaled = BigInteger.valueOf(1 + random.nextInt(precision == 1 ? 9 : 99))
                        .multiply(BigInteger.TEN.pow(Math.max(0, digits - 2)));
                break;
            default:
                unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
        }
        if (random.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return DecimalData.fromBigDecimal(new BigDecimal(unscaled, type.getScale()), precision, type.getScale());
    }

    private String string(int maxLength) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder out = new StringBuilder();
        while (out.codePointCount(0, out.length()) < length) {
            int cp = random.nextInt(3) == 0 ? CODE_POINTS[random.nextInt(CODE_POINTS.length)] : 'a' + random.nextInt(26);
            out.appendCodePoint(cp);
        }
        return out.toString();
    }

    private byte[] bytes(int maxLength, boolean exact) {
        byte[] out = new byte[exact ? maxLength : random.nextInt(maxLength + 1)];
        random.nextBytes(out);
        return out;
    }

    /** Millis of day; TIME(0) holds whole seconds. */
    private int time(int precision) {
        int millis = random.nextInt(86_400_000);
        return precision == 0 ? millis / 1000 * 1000 : millis;
    }

    private TimestampData timestamp(int precision) {
        if (nextIsHostile(hostileKinds.timestamps())) {
            return hostile.timestamp(precision);
        }
        long seconds;
        if (precision > 6) { // nanosecond Arrow units reach 1677..2262 only
            seconds = -8_000_000_000L + (long) (random.nextDouble() * 16_000_000_000L);
        } else if (random.nextInt(6) == 0) { // years -1000 .. 12000
            seconds = -93_000_000_000L + (long) (random.nextDouble() * 410_000_000_000L);
        } else {
            seconds = (long) (random.nextDouble() * 4_000_000_000L);
        }
        long nanos = random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000_000);
        long unit = (long) Math.pow(10, 9 - precision);
        nanos = nanos / unit * unit;
        long millis = Math.addExact(Math.multiplyExact(seconds, 1000L), nanos / 1_000_000);
        return TimestampData.fromEpochMillis(millis, (int) (nanos % 1_000_000));
    }

    private GenericArrayData array(LogicalType element) {
        Object[] values = new Object[random.nextInt(4)];
        for (int i = 0; i < values.length; i++) {
            values[i] = value(element);
        }
        return new GenericArrayData(values);
    }

    private GenericMapData map(LogicalType keyType, LogicalType valueType) {
        Map<Object, Object> map = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            map.put(mapKey(keyType), value(valueType));
        }
        addDecodedTwin(map, () -> value(valueType));
        return new GenericMapData(map);
    }

    /**
     * With hostile strings, sometimes one more key: the decoded text of a key made from bytes,
     * as a string of its own. The two differ as bytes but are one key to Flink's JSON object.
     */
    private void addDecodedTwin(Map<Object, Object> map, Supplier<Object> value) {
        if (map.isEmpty() || !nextIsHostile(hostileKinds.strings())) {
            return;
        }
        Object[] keys = map.keySet().toArray();
        Object key = keys[random.nextInt(keys.length)];
        if (key != null) {
            map.put(hostile.decodedTwin((StringData) key), value.get());
        }
    }

    private Object mapKey(LogicalType keyType) {
        if (nullMapKeys && keyType.isNullable() && random.nextInt(4) == 0) {
            return null;
        }
        String key = KEYS[random.nextInt(KEYS.length)];
        return nextIsHostile(hostileKinds.strings())
                ? hostile.string(key) : StringData.fromString(key);
    }

    private GenericMapData multiset(LogicalType element) {
        Map<Object, Object> map = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
            map.put(mapKey(element), 1 + random.nextInt(5));
        }
        addDecodedTwin(map, () -> 1 + random.nextInt(5));
        return new GenericMapData(map);
    }
}
