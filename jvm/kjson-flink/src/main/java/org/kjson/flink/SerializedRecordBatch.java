package org.kjson.flink;

import java.nio.ByteBuffer;

/** One record that Flink's serializers wrote, in the shape the operators emit and count. */
final class SerializedRecordBatch extends EncodedBatch {
    private final byte[] key;
    private final byte[] value;

    SerializedRecordBatch(byte[] key, byte[] value) {
        super(1);
        this.key = key;
        this.value = value;
    }

    private static void check(int i) {
        if (i != 0) {
            throw new IndexOutOfBoundsException("record " + i + " of 1");
        }
    }

    @Override
    public int keyLength(int i) {
        check(i);
        return key == null ? -1 : key.length;
    }

    @Override
    public int valueLength(int i) {
        check(i);
        return value == null ? -1 : value.length;
    }

    /** The serializer's own array: a format returns a fresh one per call. */
    @Override
    public byte[] key(int i) {
        check(i);
        return key;
    }

    @Override
    public byte[] value(int i) {
        check(i);
        return value;
    }

    @Override
    public ByteBuffer keyView(int i) {
        check(i);
        return key == null ? null : ByteBuffer.wrap(key).asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer valueView(int i) {
        check(i);
        return value == null ? null : ByteBuffer.wrap(value).asReadOnlyBuffer();
    }

    @Override
    public long byteSize() {
        return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }
}
