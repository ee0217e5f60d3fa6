package org.kjson.flink.sql.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.kjson.flink.Compatibility;
import org.kjson.flink.DecodedBatch;
import org.kjson.flink.NativeJsonDecoder;
import org.kjson.flink.NativeLibraryPolicy;
import org.kjson.flink.SinkDescription;

/**
 * Which rows the fetcher's decoder hands on: flat tables as native {@code BinaryRowData} (joined
 * with the connector metadata columns), equal field for field to the Arrow path's rows of the
 * same records; nested columns inside the binary rows. The rows against
 * the stock source are {@code ScanParityTest}'s subject.
 */
class FetchDecoderTest {
    private static final Map<String, String> DEBEZIUM = Map.of("connector", "kafka", "topic", "t",
            "properties.bootstrap.servers", "localhost:9092", "scan.startup.mode", "earliest-offset",
            "format", "debezium-json");
    private static final RowType FLAT = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("price", DataTypes.DECIMAL(20, 2)),
            DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();
    private static final RowType NESTED = (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT()),
            DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING()))).getLogicalType();

    private static final List<String> VALUES = List.of(
            "{\"before\":null,\"after\":{\"id\":1,\"name\":\"a name longer than seven\",\"price\":12.5,"
                    + "\"ts\":\"2024-01-02 03:04:05.123456\"},\"op\":\"c\"}",
            "{\"before\":{\"id\":1,\"name\":\"short\",\"price\":null,\"ts\":null},"
                    + "\"after\":{\"id\":1,\"name\":null,\"price\":-1,\"ts\":\"1969-12-31 23:59:59.999999\"},\"op\":\"u\"}",
            "not json",
            "{\"before\":{\"id\":2},\"after\":null,\"op\":\"d\"}");

    private static List<ConsumerRecord<byte[], byte[]>> records() {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (String value : VALUES) {
            out.add(new ConsumerRecord<>("t", 0, out.size(), null, value.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    private static FetchDecoder decoder(RowType type, List<String> metadata) {
        SourceDecoding decoding = new SourceDecoding(SinkDescription.of(type, List.of(), DEBEZIUM), metadata,
                NativeLibraryPolicy.REQUIRED);
        return new FetchDecoder(decoding, DecodeMetrics.register(new UnregisteredMetricsGroup()));
    }

    @Test
    void flatRowsAreNativeBinaryRowsEqualToTheArrowPathsRows() {
        List<DecodedRecord> decoded;
        try (FetchDecoder fetch = decoder(FLAT, List.of("offset", "topic"))) {
            assertEquals("binary rows", fetch.path());
            decoded = fetch.decode(records());
        }
        List<GenericRowData> expected = arrowRows();
        List<RowData> rows = new ArrayList<>();
        decoded.forEach(record -> rows.addAll(record.rows()));
        assertEquals(List.of(true, true, false, true), decoded.stream().map(r -> r.failure() == null).toList());
        assertEquals(List.of(1, 2, 0, 1), decoded.stream().map(r -> r.rows().size()).toList());
        assertNotNull(decoded.get(2).failure(), "the record that is not JSON");
        assertEquals(expected.size(), rows.size());
        for (int r = 0; r < rows.size(); r++) {
            JoinedRowData row = assertInstanceOf(JoinedRowData.class, rows.get(r));
            assertEquals(expected.get(r).getRowKind(), row.getRowKind(), "row " + r);
            for (int f = 0; f < FLAT.getFieldCount(); f++) {
                RowData.FieldGetter getter = RowData.createFieldGetter(FLAT.getTypeAt(f), f);
                assertEquals(getter.getFieldOrNull(expected.get(r)), getter.getFieldOrNull(row), "row " + r + " field " + f);
            }
            int record = List.of(0, 1, 1, 3).get(r);
            assertEquals((long) record, row.getLong(FLAT.getFieldCount()), "offset");
            assertEquals("t", row.getString(FLAT.getFieldCount() + 1).toString(), "topic");
        }
        try (FetchDecoder fetch = decoder(FLAT, List.of())) {
            RowData plain = fetch.decode(records()).get(0).rows().get(0);
            assertInstanceOf(BinaryRowData.class, plain);
            assertEquals(RowKind.INSERT, plain.getRowKind());
        }
    }

    /** The same records through Arrow and {@link ArrowRowReader}: the rows the source built before. */
    private static List<GenericRowData> arrowRows() {
        List<byte[]> values = new ArrayList<>();
        records().forEach(r -> values.add(r.value()));
        List<GenericRowData> out = new ArrayList<>();
        SinkDescription table = SinkDescription.of(FLAT, List.of(), DEBEZIUM);
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonDecoder decoder = NativeJsonDecoder.open(table, Compatibility.ofRunningFlink(), allocator)
                        .onError(NativeJsonDecoder.OnError.COLLECT)
                        .timestampLayout(NativeJsonDecoder.TimestampLayout.AS_FLINK_ROWS);
                DecodedBatch batch = decoder.decode(null, values)) {
            ArrowRowReader reader = ArrowRowReader.bind(FLAT, batch.root());
            for (int r = 0; r < batch.rowCount(); r++) {
                GenericRowData row = new GenericRowData(RowKind.fromByteValue(batch.rowKind(r)), FLAT.getFieldCount());
                reader.read(r, row);
                out.add(row);
            }
        }
        return out;
    }

    @Test
    void aNestedColumnIsInTheBinaryRows() {
        String value = "{\"before\":null,\"after\":{\"id\":5,\"tags\":[\"a\",null,\"a tag longer than seven\"]},"
                + "\"op\":\"c\"}";
        try (FetchDecoder fetch = decoder(NESTED, List.of())) {
            assertEquals("binary rows", fetch.path());
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("t", 0, 0, null,
                    value.getBytes(StandardCharsets.UTF_8));
            RowData row = fetch.decode(List.of(record)).get(0).rows().get(0);
            assertInstanceOf(BinaryRowData.class, row);
            assertEquals(5L, row.getLong(0));
            ArrayData tags = row.getArray(1);
            assertEquals(3, tags.size());
            assertEquals("a", tags.getString(0).toString());
            assertTrue(tags.isNullAt(1));
            assertEquals("a tag longer than seven", tags.getString(2).toString());
        }
    }
}
