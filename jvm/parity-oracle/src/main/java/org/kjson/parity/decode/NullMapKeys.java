package org.kjson.parity.decode;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;

/** Whether a row holds, at any depth, a MAP or MULTISET entry whose key is null. */
final class NullMapKeys {

    private NullMapKeys() {}

    static boolean in(RowData row, RowType type) {
        for (int i = 0; i < type.getFieldCount(); i++) {
            // Checked first: Flink 1.20's getter of a NOT NULL field reads it without looking.
            if (row.isNullAt(i)) {
                continue;
            }
            Object value = RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row);
            if (value != null && in(value, type.getTypeAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean in(Object value, LogicalType type) {
        if (type instanceof RowType rowType) {
            return in((RowData) value, rowType);
        }
        if (type instanceof ArrayType arrayType) {
            return inElements((ArrayData) value, arrayType.getElementType());
        }
        LogicalType keyType = type instanceof MapType m ? m.getKeyType()
                : type instanceof MultisetType ms ? ms.getElementType() : null;
        if (keyType == null) {
            return false;
        }
        MapData map = (MapData) value;
        ArrayData keys = map.keyArray();
        for (int i = 0; i < map.size(); i++) {
            if (keys.isNullAt(i)) {
                return true;
            }
        }
        LogicalType valueType = type instanceof MapType m ? m.getValueType() : null;
        return inElements(keys, keyType) || (valueType != null && inElements(map.valueArray(), valueType));
    }

    private static boolean inElements(ArrayData array, LogicalType elementType) {
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        for (int i = 0; i < array.size(); i++) {
            Object element = array.isNullAt(i) ? null : getter.getElementOrNull(array, i);
            if (element != null && in(element, elementType)) {
                return true;
            }
        }
        return false;
    }
}
