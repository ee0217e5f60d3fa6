package org.kjson.flink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * How {@link KafkaEncodedRecordSerializer} writes a {@link RecordMetadata}: one byte of flags for
 * the parts present, then the timestamp (a long), the headers (a count, then each key and value
 * as a length and its bytes) and the topic (a length and its UTF-8 bytes).
 */
final class RecordMetadataFormat {
    private static final int TIMESTAMP = 1;
    private static final int HEADERS = 2;
    private static final int TOPIC = 4;
    private static final int ALL = TIMESTAMP | HEADERS | TOPIC;

    private RecordMetadataFormat() {}

    static void write(RecordMetadata metadata, DataOutputView target) throws IOException {
        int flags = (metadata.timestamp() != null ? TIMESTAMP : 0) | (metadata.headerCount() > 0 ? HEADERS : 0)
                | (metadata.topic() != null ? TOPIC : 0);
        target.writeByte(flags);
        if (metadata.timestamp() != null) {
            target.writeLong(metadata.timestamp());
        }
        if (metadata.headerCount() > 0) {
            target.writeInt(metadata.headerCount());
            for (int i = 0; i < metadata.headerCount(); i++) {
                writeBytes(metadata.headerKey(i).getBytes(StandardCharsets.UTF_8), target);
                writeBytes(metadata.headerValue(i), target);
            }
        }
        if (metadata.topic() != null) {
            writeBytes(metadata.topic().getBytes(StandardCharsets.UTF_8), target);
        }
    }

    static RecordMetadata read(DataInputView source) throws IOException {
        int flags = source.readUnsignedByte();
        if ((flags & ~ALL) != 0) {
            throw new IOException("corrupt KafkaEncodedRecord: metadata flags " + flags);
        }
        Long timestamp = (flags & TIMESTAMP) != 0 ? source.readLong() : null;
        String[] keys = null;
        byte[][] values = null;
        if ((flags & HEADERS) != 0) {
            int count = checkedLength(source.readInt());
            keys = new String[count];
            values = new byte[count][];
            for (int i = 0; i < count; i++) {
                keys[i] = new String(readBytes(source), StandardCharsets.UTF_8);
                values[i] = readBytes(source);
            }
        }
        String topic = (flags & TOPIC) != 0 ? new String(readBytes(source), StandardCharsets.UTF_8) : null;
        return new RecordMetadata(timestamp, keys, values, topic);
    }

    private static void writeBytes(byte[] bytes, DataOutputView target) throws IOException {
        target.writeInt(bytes.length);
        target.write(bytes);
    }

    private static byte[] readBytes(DataInputView source) throws IOException {
        byte[] bytes = new byte[checkedLength(source.readInt())];
        source.readFully(bytes);
        return bytes;
    }

    private static int checkedLength(int length) throws IOException {
        if (length < 0) {
            throw new IOException("corrupt KafkaEncodedRecord: metadata length " + length);
        }
        return length;
    }
}
