package org.kjson.flink.arrow;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
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
 * The Arrow schema of a Flink row type: flink-python's {@code ArrowUtils.toArrowSchema} mapping,
 * except for two types whose Flink values ArrowUtils' carriage cannot hold, plus the carriages
 * the native encoder accepts for what ArrowUtils does not support (MULTISET as
 * {@code Map<T, Int32>}, INTERVAL as Int32 months / Int64 millis):
 *
 * <ul>
 *   <li>CHAR / VARCHAR (at any depth, map keys and MULTISET elements included) are Arrow
 *       <b>Binary</b> whose field metadata maps {@value #ENCODING_KEY} to {@value #WTF_8}: a Java
 *       string may hold unpaired surrogates (Jackson escapes each as &#92;uDxxx) and a
 *       string held as bytes may be invalid UTF-8 (Flink's decoder replaces it), and Arrow's Utf8
 *       admits neither. The bytes are WTF-8: UTF-8 where a 3-byte sequence of a surrogate is that
 *       one code unit; any other invalid sequence reads as Java's decoder reads it.</li>
 *   <li>TIMESTAMP / TIMESTAMP_LTZ (every precision) are a Struct of {@value #EPOCH_MILLIS}
 *       (Int64) and {@value #NANO_OF_MILLI} (Int32, 0..999,999), both non-null, the struct's
 *       validity the value's: Flink's {@code TimestampData} as it is. Arrow's nanosecond unit in
 *       an Int64 reaches only the years 1677..2262, and a unit of the declared precision would cut
 *       the finer digits a DataStream row may hold, which Flink writes.</li>
 * </ul>
 *
 * <p>Every field but a map key and the timestamp struct's children is nullable, whatever the
 * logical type says: a DataStream row may hold null in a NOT NULL field, and Flink writes null.
 *
 * <p>Null map keys: Flink allows them ({@code map-null-key.mode}), Arrow's Map type does not
 * (arrow-java and arrow-rs both insist on a non-nullable key field). The vectors are therefore
 * built as standard maps whose key vectors may hold null slots, and exported under
 * {@link #withNullableMapKeys(Schema)}: each map re-labelled as a List of key/value structs
 * with a nullable key field. The memory layout of the two is identical; the encoder accepts both.
 */
public final class ArrowSchemas {
    /** ArrowUtils' names for the list element and the map entries. */
    static final String ELEMENT = "element";
    static final String ENTRIES = "items";
    static final String KEY = "key";
    static final String VALUE = "value";

    /** The field metadata key naming the encoding of a CHAR / VARCHAR column's Binary bytes. */
    public static final String ENCODING_KEY = "kjson.encoding";
    public static final String WTF_8 = "wtf-8";
    /** The children of a TIMESTAMP / TIMESTAMP_LTZ struct: Flink's {@code TimestampData} fields. */
    public static final String EPOCH_MILLIS = "epoch_millis";
    public static final String NANO_OF_MILLI = "nano_of_milli";
    private static final Map<String, String> WTF_8_METADATA = Map.of(ENCODING_KEY, WTF_8);

    private ArrowSchemas() {}

    /**
     * The schema {@code RowDataArrowWriter} fills and the native encoder reads: ArrowUtils' types
     * except for strings (WTF-8 Binary) and timestamps (the millis/nanos struct), whose Flink
     * values Utf8 and Arrow's Timestamp cannot all hold (see the class comment).
     */
    public static Schema toArrowSchema(RowType rowType) {
        List<Field> fields = new ArrayList<>();
        for (RowType.RowField field : rowType.getFields()) {
            fields.add(toArrowField(field.getName(), field.getType()));
        }
        return new Schema(fields);
    }

    /** Nullable whatever the type says: a DataStream row may hold null in a NOT NULL field, and Flink writes null. */
    public static Field toArrowField(String name, LogicalType type) {
        return field(name, true, type);
    }

    private static Field field(String name, boolean nullable, LogicalType type) {
        FieldType fieldType = new FieldType(nullable, arrowType(type), null, metadata(type));
        return new Field(name, fieldType, children(type));
    }

    private static Map<String, String> metadata(LogicalType type) {
        return isString(type) ? WTF_8_METADATA : null;
    }

    private static boolean isString(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.CHAR || type.getTypeRoot() == LogicalTypeRoot.VARCHAR;
    }

    /** The precision of a TIMESTAMP / TIMESTAMP_LTZ, -1 for any other type. */
    static int timestampPrecision(LogicalType type) {
        if (type instanceof TimestampType t) {
            return t.getPrecision();
        }
        return type instanceof LocalZonedTimestampType t ? t.getPrecision() : -1;
    }

    private static List<Field> children(LogicalType type) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return List.of(toArrowField(ELEMENT, ((ArrayType) type).getElementType()));
            case MAP:
                return List.of(entries(((MapType) type).getKeyType(), ((MapType) type).getValueType()));
            case MULTISET:
                return List.of(entries(((MultisetType) type).getElementType(),
                        new IntType(false)));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return List.of(field(EPOCH_MILLIS, false, new BigIntType(false)),
                        field(NANO_OF_MILLI, false, new IntType(false)));
            case ROW: {
                List<Field> children = new ArrayList<>();
                for (RowType.RowField field : ((RowType) type).getFields()) {
                    children.add(toArrowField(field.getName(), field.getType()));
                }
                return children;
            }
            default:
                return List.of();
        }
    }

    private static Field entries(LogicalType keyType, LogicalType valueType) {
        Field key = field(KEY, false, keyType);
        Field value = toArrowField(VALUE, valueType);
        return new Field(ENTRIES, new FieldType(false, ArrowType.Struct.INSTANCE, null), List.of(key, value));
    }

    /** The same schema with every map, at any depth, as a List of entries with a nullable key. */
    public static Schema withNullableMapKeys(Schema schema) {
        List<Field> fields = new ArrayList<>();
        for (Field field : schema.getFields()) {
            fields.add(withNullableMapKeys(field, false));
        }
        return new Schema(fields, schema.getCustomMetadata());
    }

    private static Field withNullableMapKeys(Field field, boolean isMapKey) {
        List<Field> children = new ArrayList<>();
        boolean isMap = field.getType() instanceof ArrowType.Map;
        for (Field child : field.getChildren()) {
            if (isMap) { // the entries struct: its first child is the key
                List<Field> entries = new ArrayList<>();
                for (int i = 0; i < child.getChildren().size(); i++) {
                    entries.add(withNullableMapKeys(child.getChildren().get(i), i == 0));
                }
                children.add(new Field(child.getName(), child.getFieldType(), entries));
            } else {
                children.add(withNullableMapKeys(child, false));
            }
        }
        FieldType type = field.getFieldType();
        if (isMap) {
            type = new FieldType(type.isNullable(), ArrowType.List.INSTANCE, type.getDictionary(), type.getMetadata());
        } else if (isMapKey && !type.isNullable()) {
            type = new FieldType(true, type.getType(), type.getDictionary(), type.getMetadata());
        }
        return new Field(field.getName(), type, children);
    }

    static ArrowType arrowType(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case TINYINT:
                return new ArrowType.Int(8, true);
            case SMALLINT:
                return new ArrowType.Int(16, true);
            case INTEGER:
            case INTERVAL_YEAR_MONTH:
                return new ArrowType.Int(32, true);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return new ArrowType.Int(64, true);
            case FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL:
                return new ArrowType.Decimal(((DecimalType) type).getPrecision(), ((DecimalType) type).getScale(), 128);
            case CHAR:
            case VARCHAR:
                return ArrowType.Binary.INSTANCE;
            case BINARY:
                return new ArrowType.FixedSizeBinary(((BinaryType) type).getLength());
            case VARBINARY:
                return ArrowType.Binary.INSTANCE;
            case DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case TIME_WITHOUT_TIME_ZONE:
                return timeType(((TimeType) type).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ArrowType.Struct.INSTANCE;
            case ARRAY:
                return ArrowType.List.INSTANCE;
            case MAP:
            case MULTISET:
                return new ArrowType.Map(false);
            case ROW:
                return ArrowType.Struct.INSTANCE;
            default:
                throw new UnsupportedOperationException("kjson cannot carry Flink type " + type.asSummaryString() + " in Arrow");
        }
    }

    /** TIME(0) whole seconds, TIME(1..3) millis, TIME(4..6) micros, else nanos (ArrowUtils). */
    static ArrowType timeType(int precision) {
        TimeUnit unit = timeUnit(precision);
        int bits = unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64;
        return new ArrowType.Time(unit, bits);
    }

    static TimeUnit timeUnit(int precision) {
        if (precision == 0) {
            return TimeUnit.SECOND;
        } else if (precision <= 3) {
            return TimeUnit.MILLISECOND;
        } else if (precision <= 6) {
            return TimeUnit.MICROSECOND;
        }
        return TimeUnit.NANOSECOND;
    }
}
