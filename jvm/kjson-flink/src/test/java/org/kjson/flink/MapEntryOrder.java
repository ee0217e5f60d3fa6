package org.kjson.flink;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's rows with the entries of every map (at any depth) put in the order of another row's
 * maps. Flink's JSON deserializer collects a map's entries in a {@code HashMap}, so the order
 * its {@code BinaryMapData} takes is the hash order of that map, which no contract fixes; kjson
 * keeps the order of the document. Everything else stays Flink's own object: the keys and values
 * are Flink's, so writing the result with Flink's serializers still gives Flink's bytes, only in
 * the order of the entries that kjson wrote. Where the two maps do not have the same keys, the
 * map is left as Flink read it (and the bytes then differ).
 */
final class MapEntryOrder {
    private MapEntryOrder() {}

    /** Whether a value of this type holds a map at any depth. */
    static boolean hasMaps(LogicalType type) {
        return switch (type.getTypeRoot()) {
            case MAP, MULTISET -> true;
            default -> type.getChildren().stream().anyMatch(MapEntryOrder::hasMaps);
        };
    }

    /** {@code flink} with its maps in the order of the maps of {@code order} (a row of the same type). */
    static RowData row(RowData flink, RowData order, RowType type) {
        GenericRowData out = new GenericRowData(flink.getRowKind(), type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            RowData.FieldGetter field = RowData.createFieldGetter(type.getTypeAt(i), i);
            out.setField(i, value(field.getFieldOrNull(flink), field.getFieldOrNull(order), type.getTypeAt(i)));
        }
        return out;
    }

    private static Object value(Object flink, Object order, LogicalType type) {
        if (flink == null || order == null) {
            return flink;
        }
        return switch (type.getTypeRoot()) {
            case ROW -> row((RowData) flink, (RowData) order, (RowType) type);
            case ARRAY -> array((ArrayData) flink, (ArrayData) order, ((ArrayType) type).getElementType());
            case MAP -> map((MapData) flink, (MapData) order, ((MapType) type).getKeyType(),
                    ((MapType) type).getValueType());
            case MULTISET -> map((MapData) flink, (MapData) order, ((MultisetType) type).getElementType(),
                    new org.apache.flink.table.types.logical.IntType());
            default -> flink;
        };
    }

    private static Object array(ArrayData flink, ArrayData order, LogicalType element) {
        if (flink.size() != order.size()) {
            return flink;
        }
        ArrayData.ElementGetter get = ArrayData.createElementGetter(element);
        Object[] out = new Object[flink.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(get.getElementOrNull(flink, i), get.getElementOrNull(order, i), element);
        }
        return new GenericArrayData(out);
    }

    private static Object map(MapData flink, MapData order, LogicalType keyType, LogicalType valueType) {
        ArrayData.ElementGetter key = ArrayData.createElementGetter(keyType);
        ArrayData.ElementGetter value = ArrayData.createElementGetter(valueType);
        Map<Object, Integer> flinkIndex = new HashMap<>();
        for (int i = 0; i < flink.size(); i++) {
            flinkIndex.put(key.getElementOrNull(flink.keyArray(), i), i);
        }
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int j = 0; j < order.size(); j++) {
            Integer i = flinkIndex.get(key.getElementOrNull(order.keyArray(), j));
            if (i == null) {
                return flink;
            }
            out.put(key.getElementOrNull(flink.keyArray(), i), value(value.getElementOrNull(flink.valueArray(), i),
                    value.getElementOrNull(order.valueArray(), j), valueType));
        }
        return out.size() == flink.size() ? new GenericMapData(out) : flink;
    }
}
