package org.kjson.flink.sql.source;

import java.io.Serializable;
import java.util.List;

import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.NativeLibraryPolicy;
import org.kjson.flink.SinkDescription;

/**
 * What a reader needs to decode a table's records, shipped with the source: the table as the
 * catalog resolved it (physical columns, primary key, options as written: the native decoder
 * derives the key and value projections from them with Flink's rules), the connector metadata
 * columns appended to each row, and what to do where the native library cannot load.
 */
public final class SourceDecoding implements Serializable {
    private static final long serialVersionUID = 1L;

    private final SinkDescription table;
    private final List<String> metadataKeys;
    private final NativeLibraryPolicy nativePolicy;

    public SourceDecoding(SinkDescription table, List<String> metadataKeys, NativeLibraryPolicy nativePolicy) {
        this.table = table;
        this.metadataKeys = List.copyOf(metadataKeys);
        this.nativePolicy = nativePolicy;
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

    /**
     * Whether the value format skips what it cannot parse ({@code <format>.ignore-parse-errors}
     * or {@code value.<format>.ignore-parse-errors} set to true).
     */
    boolean ignoresParseErrors() {
        return table.options().entrySet().stream()
                .anyMatch(e -> !e.getKey().startsWith("key.") && e.getKey().endsWith(".ignore-parse-errors")
                        && Boolean.parseBoolean(e.getValue().trim()));
    }

    NativeLibraryPolicy nativePolicy() {
        return nativePolicy;
    }

    SourceDecoding withMetadata(List<String> keys) {
        return new SourceDecoding(table, keys, nativePolicy);
    }
}
