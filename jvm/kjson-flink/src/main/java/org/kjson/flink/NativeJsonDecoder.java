package org.kjson.flink;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One native decoder handle, the read side of {@link NativeJsonEncoder}: Kafka records of a
 * table (the same {@code CREATE TABLE}, or the same {@link SinkDescription}, as for encoding)
 * read into Arrow rows as Flink's Kafka source and its JSON deserializers read them (key fields
 * and value fields merged into the physical row, upsert tombstones as DELETEs, Flink's errors).
 *
 * <p>Each {@link #decode} call crosses JNI once per batch: the records come in as one slab per
 * side (record {@code i} is {@code data[offsets[i] .. offsets[i] + lengths[i]]}, a negative
 * length a null key or value: the shape {@link EncodedBatch} hands out), the rows come back
 * through the Arrow C Data Interface as one struct array of the physical columns followed by
 * {@code __row_kind} (Int8) and {@code __record} (Int32), which {@link DecodedBatch} splits into
 * a {@link VectorSchemaRoot} of the physical columns and per-row arrays.
 *
 * <p>Not thread-safe: one instance per task. {@link #close()} is idempotent; any other call on a
 * closed decoder throws {@link IllegalStateException}.
 */
public final class NativeJsonDecoder implements AutoCloseable {

    /** What a record that Flink's deserializer would throw on does to the batch. */
    public enum OnError {
        /** The batch fails with {@link KjsonRecordException} naming the record (as the Flink job would). */
        FAIL,
        /** The record gives no row and is listed in {@link DecodedBatch#errors()} (dead letters, tests). */
        COLLECT
    }

    /** How the decoded vectors hold timestamps. */
    public enum TimestampLayout {
        /**
         * The unit the column's precision gives (Flink's Arrow mapping): seconds at precision 0,
         * milliseconds to 3, microseconds to 6, a struct of {@code epoch_millis} and
         * {@code nano_of_milli} above; digits past the unit are cut.
         */
        BY_PRECISION,
        /**
         * What Flink's own rows keep of a timestamp its JSON formats read: milliseconds up to
         * precision 3 (precision 0 included), and from precision 4 on the struct with every digit
         * the record had. For sources that hand rows on to Flink.
         */
        AS_FLINK_ROWS
    }

    private static final String BINARY_ROWS_NEED_FLINK_TIMESTAMPS = "binary rows need timestampLayout(AS_FLINK_ROWS)";

    private final BufferAllocator allocator;
    /** The exported struct's type: the physical columns, then __row_kind and __record. */
    private Schema exportedSchema;
    private Schema schema;
    private final Object[] errorsOut = new Object[2];
    private OnError onError = OnError.FAIL;
    private TimestampLayout timestampLayout = TimestampLayout.BY_PRECISION;
    private long handle;

    private NativeJsonDecoder(long handle, BufferAllocator allocator) {
        this.handle = handle;
        this.allocator = allocator;
        try {
            importSchema();
        } catch (RuntimeException | Error e) {
            close(handle);
            this.handle = 0;
            throw e;
        }
    }

    private void importSchema() {
        try (ArrowSchema exported = ArrowSchema.allocateNew(allocator)) {
            exportSchema(handle, exported.memoryAddress());
            exportedSchema = Data.importSchema(allocator, exported, null);
        }
        List<org.apache.arrow.vector.types.pojo.Field> fields = exportedSchema.getFields();
        schema = new Schema(fields.subList(0, fields.size() - 2));
    }

    /**
     * Opens a decoder for the table a {@code CREATE TABLE ... WITH (...)} statement declares
     * ({@code kafka} or {@code upsert-kafka}, {@code json} formats). The allocator holds the
     * decoded vectors and a C Data struct; it must outlive this decoder and the batches it returns.
     *
     * @throws KjsonSpecException if the DDL, an option or a type is refused (with its position)
     */
    public static NativeJsonDecoder open(String ddl, Compatibility compatibility, BufferAllocator allocator) {
        Objects.requireNonNull(ddl, "ddl");
        Objects.requireNonNull(compatibility, "compatibility");
        Objects.requireNonNull(allocator, "allocator");
        NativeLibrary.load();
        long handle = openDdl(ddl, compatibility.flinkVersion(), compatibility.floatSpelling());
        return new NativeJsonDecoder(handle, allocator);
    }

    /** Opens a decoder for a table as Flink's catalog resolved it; otherwise as {@link #open(String, Compatibility, BufferAllocator)}. */
    public static NativeJsonDecoder open(SinkDescription table, Compatibility compatibility, BufferAllocator allocator) {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(compatibility, "compatibility");
        Objects.requireNonNull(allocator, "allocator");
        NativeLibrary.load();
        long handle = open(table.tableName(), table.fieldNames(), table.typeStrings(),
                table.primaryKey().toArray(new String[0]), SinkDescription.flatten(table.options()),
                compatibility.flinkVersion(), compatibility.floatSpelling());
        return new NativeJsonDecoder(handle, allocator);
    }

    /** Sets what a failing record does to the batch ({@link OnError#FAIL} by default); returns this decoder. */
    public NativeJsonDecoder onError(OnError mode) {
        checkOpen();
        setOnError(handle, Objects.requireNonNull(mode, "mode") == OnError.COLLECT);
        onError = mode;
        return this;
    }

    public OnError onError() {
        return onError;
    }

    /**
     * Sets how later batches hold timestamps ({@link TimestampLayout#BY_PRECISION} by default)
     * and so {@link #schema()}; returns this decoder.
     */
    public NativeJsonDecoder timestampLayout(TimestampLayout layout) {
        checkOpen();
        setTimestampLayout(handle, Objects.requireNonNull(layout, "layout") == TimestampLayout.AS_FLINK_ROWS);
        importSchema();
        timestampLayout = layout;
        return this;
    }

    /**
     * Reads the value format's metadata {@code keys} (without {@code value.}, such as
     * debezium-json's {@code source.timestamp}) into columns after the physical ones, in this
     * order, and so changes {@link #schema()}; returns this decoder.
     *
     * @throws KjsonSpecException naming the key, where the format has no such key or kjson does not read it
     */
    public NativeJsonDecoder valueMetadata(List<String> keys) {
        checkOpen();
        setValueMetadata(handle, keys.toArray(new String[0]));
        importSchema();
        return this;
    }

    /** The Arrow schema of {@link DecodedBatch#root()}: the table's physical columns, then the value metadata columns. */
    public Schema schema() {
        return schema;
    }

    /**
     * Decodes one batch of Kafka records. {@code values*} describe one value per record;
     * {@code key*} are all null (a table without key fields, or keys not at hand) or describe one
     * key per record. The arrays are copied once and may be reused when this returns.
     *
     * @throws KjsonRecordException for a record Flink's deserializer fails on, under {@link OnError#FAIL}
     * @throws IllegalArgumentException for offsets, lengths or slabs that do not fit together
     */
    public DecodedBatch decode(byte[] keyData, int[] keyOffsets, int[] keyLengths, byte[] valueData,
            int[] valueOffsets, int[] valueLengths) {
        checkOpen();
        Objects.requireNonNull(valueData, "valueData");
        Objects.requireNonNull(valueOffsets, "valueOffsets");
        Objects.requireNonNull(valueLengths, "valueLengths");
        errorsOut[0] = errorsOut[1] = null;
        // A fresh struct per batch: arrow-java's import frees the struct it imports from.
        try (ArrowArray exported = ArrowArray.allocateNew(allocator)) {
            int rows = decode(handle, keyData, keyOffsets, keyLengths, valueData, valueOffsets, valueLengths,
                    exported.memoryAddress(), errorsOut);
            return imported(exported, rows, collectedErrors());
        } finally {
            errorsOut[0] = errorsOut[1] = null;
        }
    }

    /**
     * Why {@link #decodeBinaryRows} cannot be used with this decoder, or empty when it can: it
     * writes columns of every type, ROW, ARRAY, MAP and MULTISET as Flink's nested binary rows,
     * arrays and maps, on a little-endian platform, and needs {@link TimestampLayout#AS_FLINK_ROWS}.
     * The answer depends only on the schema and the layout; ask once after configuring the decoder.
     */
    public Optional<String> binaryRowsRefusal() {
        checkOpen();
        if (timestampLayout != TimestampLayout.AS_FLINK_ROWS) {
            return Optional.of(BINARY_ROWS_NEED_FLINK_TIMESTAMPS);
        }
        return Optional.ofNullable(binaryRowsRefusal(handle));
    }

    /**
     * Decodes one batch of Kafka records (arguments as for
     * {@link #decode(byte[], int[], int[], byte[], int[], int[])}) straight into Flink
     * {@code BinaryRowData} bytes: the physical columns, then the value metadata columns, each
     * row's RowKind in its header. Use only when {@link #binaryRowsRefusal()} is empty.
     *
     * @throws IllegalStateException without {@link TimestampLayout#AS_FLINK_ROWS}
     * @throws KjsonSchemaException naming the column, for a column this path does not write
     * @throws KjsonRecordException for a record Flink's deserializer fails on, under {@link OnError#FAIL}
     */
    public BinaryRowBatch decodeBinaryRows(byte[] keyData, int[] keyOffsets, int[] keyLengths, byte[] valueData,
            int[] valueOffsets, int[] valueLengths) {
        checkOpen();
        if (timestampLayout != TimestampLayout.AS_FLINK_ROWS) {
            throw new IllegalStateException(BINARY_ROWS_NEED_FLINK_TIMESTAMPS);
        }
        Objects.requireNonNull(valueData, "valueData");
        Objects.requireNonNull(valueOffsets, "valueOffsets");
        Objects.requireNonNull(valueLengths, "valueLengths");
        Object[] rowsOut = new Object[4];
        errorsOut[0] = errorsOut[1] = null;
        try {
            decodeBinaryRows(handle, keyData, keyOffsets, keyLengths, valueData, valueOffsets, valueLengths,
                    rowsOut, errorsOut);
            return new BinaryRowBatch((byte[]) rowsOut[0], schema.getFields().size(), (int[]) rowsOut[1],
                    (int[]) rowsOut[2], (int[]) rowsOut[3], collectedErrors());
        } finally {
            errorsOut[0] = errorsOut[1] = null;
        }
    }

    /** {@link #decodeBinaryRows(byte[], int[], int[], byte[], int[], int[])} of records given one by one, as {@link #decode(List, List)}. */
    public BinaryRowBatch decodeBinaryRows(List<byte[]> keys, List<byte[]> values) {
        return fromLists(keys, values, this::decodeBinaryRows);
    }

    private List<DecodedBatch.RecordError> collectedErrors() {
        List<DecodedBatch.RecordError> errors = new ArrayList<>();
        if (errorsOut[0] != null) {
            int[] records = (int[]) errorsOut[0];
            String[] messages = (String[]) errorsOut[1];
            for (int i = 0; i < records.length; i++) {
                errors.add(new DecodedBatch.RecordError(records[i], messages[i]));
            }
        }
        return errors;
    }

    /**
     * Decodes records given one by one ({@code keys} may be null, or hold null keys; {@code values}
     * may hold null values): packs them into slabs and calls {@link #decode(byte[], int[], int[], byte[], int[], int[])}.
     */
    public DecodedBatch decode(List<byte[]> keys, List<byte[]> values) {
        return fromLists(keys, values, this::decode);
    }

    /** A decode call on slabs: keys (all null when there are none), then values. */
    @FunctionalInterface
    private interface SlabDecode<T> {
        T apply(byte[] keyData, int[] keyOffsets, int[] keyLengths, byte[] valueData, int[] valueOffsets,
                int[] valueLengths);
    }

    /** Packs records given one by one into slabs and hands them to {@code decode}. */
    private static <T> T fromLists(List<byte[]> keys, List<byte[]> values, SlabDecode<T> decode) {
        Objects.requireNonNull(values, "values");
        if (keys != null && keys.size() != values.size()) {
            throw new IllegalArgumentException(keys.size() + " keys for " + values.size() + " values");
        }
        Slab v = Slab.of(values);
        if (keys == null) {
            return decode.apply(null, null, null, v.data, v.offsets, v.lengths);
        }
        Slab k = Slab.of(keys);
        return decode.apply(k.data, k.offsets, k.lengths, v.data, v.offsets, v.lengths);
    }

    private record Slab(byte[] data, int[] offsets, int[] lengths) {
        static Slab of(List<byte[]> records) {
            long total = 0;
            for (byte[] r : records) {
                total += r == null ? 0 : r.length;
            }
            if (total > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the records hold " + total + " bytes, more than one slab can; split the batch");
            }
            byte[] data = new byte[(int) total];
            int[] offsets = new int[records.size()];
            int[] lengths = new int[records.size()];
            int at = 0;
            for (int i = 0; i < records.size(); i++) {
                byte[] r = records.get(i);
                offsets[i] = at;
                lengths[i] = r == null ? -1 : r.length;
                if (r != null) {
                    System.arraycopy(r, 0, data, at, r.length);
                    at += r.length;
                }
            }
            return new Slab(data, offsets, lengths);
        }
    }

    /** Imports the exported struct and splits off the two extra columns. */
    private DecodedBatch imported(ArrowArray exported, int rows, List<DecodedBatch.RecordError> errors) {
        VectorSchemaRoot all = VectorSchemaRoot.create(exportedSchema, allocator);
        try {
            Data.importIntoVectorSchemaRoot(allocator, exported, all, null);
        } catch (RuntimeException | Error e) {
            all.close();
            throw e;
        }
        List<FieldVector> vectors = all.getFieldVectors();
        int physical = vectors.size() - 2;
        byte[] rowKinds = new byte[rows];
        int[] records = new int[rows];
        try (TinyIntVector kinds = (TinyIntVector) vectors.get(physical);
                IntVector origins = (IntVector) vectors.get(physical + 1)) {
            for (int i = 0; i < rows; i++) {
                rowKinds[i] = kinds.get(i);
                records[i] = origins.get(i);
            }
        }
        VectorSchemaRoot root = new VectorSchemaRoot(schema, new ArrayList<>(vectors.subList(0, physical)), rows);
        return new DecodedBatch(root, rowKinds, records, errors);
    }

    /** Releases the native handle; a second close does nothing. */
    @Override
    public void close() {
        if (handle == 0) {
            return;
        }
        long closing = handle;
        handle = 0;
        close(closing);
    }

    public boolean isOpen() {
        return handle != 0;
    }

    /** The native handle (for engines that call the native methods themselves). */
    public long handle() {
        return handle;
    }

    private void checkOpen() {
        if (handle == 0) {
            throw new IllegalStateException("the decoder is closed");
        }
    }

    /** Number of native decoder handles open in this process (leak checks). */
    public static int openHandleCount() {
        NativeLibrary.load();
        return openHandleCount0();
    }

    // The native methods take the handle explicitly so that misuse (0, closed, forged handles)
    // reaches the native registry and is reported as an exception there too.

    static native long open(String tableName, String[] fieldNames, String[] typeStrings, String[] primaryKey,
            String[] options, String flinkVersion, String floatSpelling);

    static native long openDdl(String ddl, String flinkVersion, String floatSpelling);

    static native void setOnError(long handle, boolean collect);

    static native void setTimestampLayout(long handle, boolean asFlinkRows);

    static native void setValueMetadata(long handle, String[] keys);

    /** Exports the struct type of the decoded arrays into the empty ArrowSchema at the address. */
    static native void exportSchema(long handle, long arrowSchemaAddress);

    /**
     * Decodes into the empty ArrowArray at {@code arrowArrayAddress} (written only on success);
     * returns the row count. Under collect, {@code errorsOut[0]} gets the failed records' indices
     * ({@code int[]}) and {@code errorsOut[1]} their messages ({@code String[]}), or nulls.
     */
    static native int decode(long handle, byte[] keyData, int[] keyOffsets, int[] keyLengths, byte[] valueData,
            int[] valueOffsets, int[] valueLengths, long arrowArrayAddress, Object[] errorsOut);

    /** Why the decoded rows cannot be written as BinaryRowData (a column's type), or null. */
    static native String binaryRowsRefusal(long handle);

    /**
     * Decodes into BinaryRowData bytes: {@code rowsOut[0]} the slab ({@code byte[]}),
     * {@code rowsOut[1]} and {@code rowsOut[2]} each row's offset and size, {@code rowsOut[3]}
     * each row's record index ({@code int[]}); errors as for {@code decode}. Returns the row count.
     */
    static native int decodeBinaryRows(long handle, byte[] keyData, int[] keyOffsets, int[] keyLengths,
            byte[] valueData, int[] valueOffsets, int[] valueLengths, Object[] rowsOut, Object[] errorsOut);

    static native void close(long handle);

    private static native int openHandleCount0();
}
