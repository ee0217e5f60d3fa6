package org.kjson.flink.sql.source;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.NativeLibraryPolicy;
import org.kjson.flink.SinkDescription;

/**
 * What a reader needs to decode a table's records, shipped with the source: the table as the
 * catalog resolved it (physical columns, primary key, options as written: the native decoder
 * derives the key and value projections from them with Flink's rules), the value format's
 * metadata columns the decoder reads after the physical ones, the connector metadata columns
 * appended to each row after those, and what to do where the native library cannot load.
 */
public final class SourceDecoding implements Serializable {
    private static final long serialVersionUID = 1L;

    private final SinkDescription table;
    private final List<String> metadataKeys;
    private final NativeLibraryPolicy nativePolicy;
    /** The value format's metadata keys ({@code value.} removed) and their types, in row order. */
    private final List<String> valueMetadataKeys;
    private final List<LogicalType> valueMetadataTypes;

    public SourceDecoding(SinkDescription table, List<String> metadataKeys, NativeLibraryPolicy nativePolicy) {
        this(table, metadataKeys, nativePolicy, List.of(), List.of());
    }

    private SourceDecoding(SinkDescription table, List<String> metadataKeys, NativeLibraryPolicy nativePolicy,
            List<String> valueMetadataKeys, List<LogicalType> valueMetadataTypes) {
        this.table = table;
        this.metadataKeys = List.copyOf(metadataKeys);
        this.nativePolicy = nativePolicy;
        this.valueMetadataKeys = List.copyOf(valueMetadataKeys);
        this.valueMetadataTypes = List.copyOf(valueMetadataTypes);
        ReadableMetadata.of(metadataKeys); // every key is one this source fills
    }

    SinkDescription table() {
        return table;
    }

    RowType physicalRowType() {
        return table.physicalRowType();
    }

    List<String> metadataKeys() {
        return metadataKeys;
    }

    List<String> valueMetadataKeys() {
        return valueMetadataKeys;
    }

    /** The columns the native decoder produces: the physical ones, then the value metadata. */
    RowType decodedRowType() {
        if (valueMetadataKeys.isEmpty()) {
            return physicalRowType();
        }
        List<RowType.RowField> fields = new ArrayList<>(physicalRowType().getFields());
        for (int i = 0; i < valueMetadataKeys.size(); i++) {
            fields.add(new RowType.RowField("value." + valueMetadataKeys.get(i), valueMetadataTypes.get(i)));
        }
        return new RowType(fields);
    }

    NativeLibraryPolicy nativePolicy() {
        return nativePolicy;
    }

    SourceDecoding withMetadata(List<String> keys) {
        return new SourceDecoding(table, keys, nativePolicy, valueMetadataKeys, valueMetadataTypes);
    }

    SourceDecoding withValueMetadata(List<String> keys, List<LogicalType> types) {
        return new SourceDecoding(table, metadataKeys, nativePolicy, keys, types);
    }
}
