package org.kjson.flink;

import java.util.Objects;

import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.kjson.flink.arrow.ArrowSchemas;

/**
 * One native encoder handle: the sink description is sent once at {@link #open}; each
 * {@link #encode} call crosses JNI once per batch and returns the whole batch's Kafka keys and
 * values as two slabs.
 *
 * <p>Not thread-safe: like a Flink operator, one instance is used by one thread. Open as many
 * instances as there are tasks. A closed instance throws {@link IllegalStateException}.
 *
 * <p>Handoff: {@link Handoff#DIRECT} (the default, measured faster) exposes the encoder's native
 * memory through read-only direct buffers: no bulk copy, but the batch is valid only until the
 * next {@code encode} or {@code close} of this encoder (accessors throw
 * {@link IllegalStateException} afterwards), so records must be copied out first, which
 * {@link EncodedBatch#key(int)} / {@link EncodedBatch#value(int)} do. {@link Handoff#ARRAYS}
 * copies the slabs into JVM {@code byte[]}s that the returned batch owns for as long as it is
 * referenced (for callers that keep whole batches).
 */
public final class NativeJsonEncoder implements AutoCloseable {

    /** Which encoder the native side chose for the sink: one compiled for its schema, or the general one. */
    public enum Kind {
        GENERATED,
        DYNAMIC
    }

    /** How the slabs come back from native code. */
    public enum Handoff {
        ARRAYS,
        DIRECT
    }

    private final BufferAllocator allocator;
    private final Handoff handoff;
    private final Object[] out = new Object[6];
    /** Reused for every export: the native side moves the contents out, leaving them released. */
    private final ArrowArray exportArray;
    private final ArrowSchema exportSchema;
    private long handle;
    /** The root schema the native side holds from the last successful encode, if any. */
    private Schema sentSchema;
    /** Advances at every encode and at close; direct batches check it on every access. */
    private long epoch;

    private NativeJsonEncoder(long handle, BufferAllocator allocator, Handoff handoff) {
        this.handle = handle;
        this.allocator = allocator;
        this.handoff = handoff;
        this.exportArray = ArrowArray.allocateNew(allocator);
        this.exportSchema = ArrowSchema.allocateNew(allocator);
    }

    /** Opens an encoder that mimics the running Flink and JVM, with {@link Handoff#DIRECT}. */
    public static NativeJsonEncoder open(SinkDescription sink, BufferAllocator allocator) {
        return open(sink, Compatibility.ofRunningFlink(), allocator, Handoff.DIRECT);
    }

    /**
     * Opens an encoder. The allocator holds the C Data export structs (a few hundred bytes); it
     * must outlive this encoder. Roots passed to {@link #encode(VectorSchemaRoot, byte[])} may
     * come from any allocator.
     *
     * @throws KjsonSpecException if an option, a column type or the primary key breaks the Kafka connector's rules
     */
    public static NativeJsonEncoder open(SinkDescription sink, Compatibility compatibility, BufferAllocator allocator,
            Handoff handoff) {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(compatibility, "compatibility");
        Objects.requireNonNull(allocator, "allocator");
        NativeLibrary.load();
        long handle = open(sink.tableName(), sink.fieldNames(), sink.typeStrings(), sink.primaryKey().toArray(new String[0]),
                SinkDescription.flatten(sink.options()), compatibility.flinkVersion(), compatibility.floatSpelling());
        return new NativeJsonEncoder(handle, allocator, Objects.requireNonNull(handoff, "handoff"));
    }

    /**
     * Encodes the rows of {@code root}. {@code rowKinds} holds one Flink {@code RowKind} byte per
     * row ({@code RowKind#toByteValue}); null means all inserts. The root stays owned by the
     * caller and may be reused once this returns. Maps are exported as lists of key/value entries
     * with a nullable key (same memory), so a key vector may carry null keys (for
     * {@code map-null-key.mode}).
     */
    public EncodedBatch encode(VectorSchemaRoot root, byte[] rowKinds) {
        checkOpen();
        // The export takes references on the root's buffers, which Arrow allows only from an
        // allocator of the same root: use the vectors' own allocator.
        BufferAllocator owner = root.getFieldVectors().isEmpty() ? allocator : root.getVector(0).getAllocator();
        Data.exportVectorSchemaRoot(owner, root, null, exportArray);
        Schema schema = root.getSchema();
        long schemaAddress = 0; // the native side reuses the type of the previous batch
        if (schema != sentSchema) {
            Data.exportSchema(allocator, ArrowSchemas.withNullableMapKeys(schema), null, exportSchema);
            schemaAddress = exportSchema.memoryAddress();
        }
        EncodedBatch batch = encode(exportArray.memoryAddress(), schemaAddress, rowKinds);
        sentSchema = schema;
        return batch;
    }

    /**
     * Encodes a batch exported through the Arrow C Data Interface as a struct array (one child
     * per physical column, in schema order). The native side takes ownership of both structs:
     * it releases them exactly once, also when it throws; the caller only frees the struct
     * memory afterwards. {@code arrowSchemaAddress} may be 0 to reuse the Arrow type of this
     * encoder's previous successful batch (saves exporting and parsing the same schema).
     */
    public EncodedBatch encode(long arrowArrayAddress, long arrowSchemaAddress, byte[] rowKinds) {
        checkOpen();
        sentSchema = null; // unknown until a call through encode(VectorSchemaRoot) succeeds
        epoch++;
        if (handoff == Handoff.DIRECT) {
            int rows = encodeToDirect(handle, arrowArrayAddress, arrowSchemaAddress, rowKinds, out);
            return EncodedBatch.direct(rows, out, this, epoch);
        }
        int rows = encodeToArrays(handle, arrowArrayAddress, arrowSchemaAddress, rowKinds, out);
        EncodedBatch batch = EncodedBatch.arrays(rows, (byte[]) out[0], (byte[]) out[1], (int[]) out[2]);
        out[0] = out[1] = out[2] = null;
        return batch;
    }

    /** Closes the native handle; a second close throws {@link IllegalStateException}. */
    @Override
    public void close() {
        checkOpen();
        long closing = handle;
        handle = 0;
        epoch++;
        exportArray.close();
        exportSchema.close();
        close(closing);
    }

    public boolean isOpen() {
        return handle != 0;
    }

    /** Generated when the library was built with a schema equal to this sink's, dynamic otherwise. */
    public Kind kind() {
        checkOpen();
        return kindCode0(handle) == 1 ? Kind.GENERATED : Kind.DYNAMIC;
    }

    /** The kind in words, with the spec fingerprint (and the schema file of a generated encoder). */
    public String kindDescription() {
        checkOpen();
        return kindDescription0(handle);
    }

    /** The native library's version and the platform it was built for, e.g. {@code 0.1.0 linux-x86_64}. */
    public static String nativeVersion() {
        NativeLibrary.load();
        return nativeVersion0();
    }

    /** Where the native library was loaded from (loads it if needed). */
    public static String nativeLibraryPath() {
        return String.valueOf(NativeLibrary.load());
    }

    public Handoff handoff() {
        return handoff;
    }

    /** The native handle (for engines that call the native methods themselves). */
    public long handle() {
        return handle;
    }

    boolean isCurrent(long batchEpoch) {
        return handle != 0 && epoch == batchEpoch;
    }

    private void checkOpen() {
        if (handle == 0) {
            throw new IllegalStateException("the encoder is closed");
        }
    }

    /** Number of native handles open in this process (leak checks). */
    public static int openHandleCount() {
        NativeLibrary.load();
        return openHandleCount0();
    }

    // The native methods take the handle explicitly so that misuse (0, closed, forged handles)
    // reaches the native registry and is reported as an exception there too.

    static native long open(String tableName, String[] fieldNames, String[] typeStrings, String[] primaryKey,
            String[] options, String flinkVersion, String floatSpelling);

    static native int encodeToArrays(long handle, long arrowArrayAddress, long arrowSchemaAddress, byte[] rowKinds,
            Object[] out);

    static native int encodeToDirect(long handle, long arrowArrayAddress, long arrowSchemaAddress, byte[] rowKinds,
            Object[] out);

    static native void close(long handle);

    private static native int openHandleCount0();

    private static native int kindCode0(long handle);

    static native String kindDescription0(long handle);

    private static native String nativeVersion0();

    /**
     * The calling thread's last successful encode, split in nanoseconds: {@code out[0]} C Data
     * import, {@code out[1]} encoding, {@code out[2]} handing the slabs to Java (benchmarks).
     */
    public static native void lastEncodeNanos(long[] out);
}
