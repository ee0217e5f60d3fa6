package org.kjson.flink.sql;

import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.kjson.flink.BatchSettings;
import org.kjson.flink.FlinkRecordSerializer;
import org.kjson.flink.NativeLibraryPolicy;
import org.kjson.flink.RecordExtras;
import org.kjson.flink.RowDataEncodeOperator;
import org.kjson.flink.SinkDescription;

/**
 * What the encode operator of a table is built from: the sink as the native encoder takes it,
 * the batching, the stock formats, and whether the native library is required. Flink's own
 * serializers are built only where they write something: a key in a format kjson does not encode,
 * or the fallback without the native library.
 */
final class EncodeStep {
    /** The table's name in its database, which the operators are named after. */
    private final String objectName;
    private final SinkDescription description;
    private final BatchSettings batching;
    private final StockFormats formats;
    private final NativeLibraryPolicy nativePolicy;

    EncodeStep(String objectName, SinkDescription description, BatchSettings batching, StockFormats formats,
            NativeLibraryPolicy nativePolicy) {
        this.objectName = objectName;
        this.description = description;
        this.batching = batching;
        this.formats = formats;
        this.nativePolicy = nativePolicy;
    }

    String objectName() {
        return objectName;
    }

    SinkDescription description() {
        return description;
    }

    BatchSettings batching() {
        return batching;
    }

    NativeLibraryPolicy nativePolicy() {
        return nativePolicy;
    }

    StockFormats formats() {
        return formats;
    }

    /**
     * {@code context}: the planner's, which the formats' runtime encoders are created with;
     * {@code extras}: what each record carries besides key and value (metadata, the row).
     */
    RowDataEncodeOperator operator(DynamicTableSink.Context context, RecordExtras extras) {
        boolean flinkWritesSomething = nativePolicy == NativeLibraryPolicy.FALLBACK || !formats.keyEncodedNatively();
        FlinkRecordSerializer serializer = flinkWritesSomething ? formats.serializer(context) : null;
        return new RowDataEncodeOperator(description, batching, null, extras, serializer, nativePolicy);
    }
}
