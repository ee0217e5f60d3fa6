package org.kjson.flink.sql.support;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.DeserializationFeature;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.flink.sql.support.RandomScanTables.ScanTable;
import org.kjson.flink.sql.support.RandomScanTables.Shape;
import org.kjson.testkit.HostileValues;
import org.kjson.testkit.RandomRows;
import org.kjson.testkit.StockRecordSerializer;

/**
 * The records of a random table's topic, written by Flink itself: random rows (of the sink
 * differential's generator, with random RowKinds where the shape keeps them, repeated keys for
 * upsert-kafka) through the record serializer of the stock {@code kafka} / {@code upsert-kafka}
 * sink that Flink's factory plans for the table, so every key, value, envelope and tombstone is
 * Flink's bytes. Then a few hostile records: tombstones, empty values, a truncated value, a value
 * with one field of a wrong type; those a strict format fails on come last, so the rows before
 * them are compared.
 */
public final class FlinkWrittenTopic {
    private static final double[] NULL_CHANCES = {0, 0.05, 0.2, 0.5};
    private static final String[] WRONG_VALUES = {
        "\"zz\"", "{\"a\":1}", "[1,2]", "true", "1e999", "-0.5", "\"2024-13-45 25:61:61\"", "\"\"", "12345678901234567890"
    };
    /** Keeps decimals' digits when a Flink-written value is read and written again. */
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static TableEnvironment planner;

    private final ScanTable table;
    private final RowType rowType;
    private final int[] primaryKey;
    private final KafkaRecordSerializationSchema<RowData> serializer;
    private int rowsFlinkRefused;

    private FlinkWrittenTopic(ScanTable table, RowType rowType, int[] primaryKey,
            KafkaRecordSerializationSchema<RowData> serializer) {
        this.table = table;
        this.rowType = rowType;
        this.primaryKey = primaryKey;
        this.serializer = serializer;
    }

    /** The stock sink's serializer of the table; throws Flink's refusal of the DDL. */
    public static synchronized FlinkWrittenTopic of(ScanTable table) throws Exception {
        if (planner == null) {
            planner = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        }
        planner.executeSql(table.sink().ddl());
        CatalogManager catalog = ((TableEnvironmentInternal) planner).getCatalogManager();
        ObjectIdentifier id = ObjectIdentifier.of(catalog.getCurrentCatalog(), catalog.getCurrentDatabase(), table.name());
        ResolvedCatalogTable resolved;
        try {
            resolved = (ResolvedCatalogTable) catalog.getTable(id).orElseThrow().getResolvedTable();
        } finally {
            planner.executeSql("DROP TABLE " + id.asSerializableString());
        }
        DynamicTableSink sink = FactoryUtil.createDynamicTableSink(null, id, resolved, Map.of(), planner.getConfig(),
                Thread.currentThread().getContextClassLoader(), false);
        RowType rowType = (RowType) resolved.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
        int[] primaryKey = resolved.getResolvedSchema().getPrimaryKey()
                .map(pk -> pk.getColumns().stream().mapToInt(rowType.getFieldNames()::indexOf).toArray())
                .orElse(new int[0]);
        return new FlinkWrittenTopic(table, rowType, primaryKey, StockRecordSerializer.of(sink));
    }

    /** Rows the stock serializer threw on (a value its sink cannot write): not in the topic. */
    public int rowsFlinkRefused() {
        return rowsFlinkRefused;
    }

    /**
     * A topic's records in order; from {@code strictFailuresFrom} on, the hostile records a
     * strict format fails on (none: the size).
     */
    public record Records(List<ProducerRecord<byte[], byte[]>> records, int strictFailuresFrom) {}

    /** Up to {@code maxRows} random rows as Flink writes them to partition 0 of {@code topic}, and hostile records. */
    public Records records(String topic, long seed, int maxRows) {
        Random random = new Random(seed);
        HostileValues.Options hostile = random.nextBoolean() ? HostileValues.Options.NONE
                : new HostileValues.Options(random.nextBoolean(), random.nextBoolean(), random.nextBoolean());
        RandomRows rows = new RandomRows(random.nextLong(), NULL_CHANCES[random.nextInt(NULL_CHANCES.length)],
                table.sink().nullMapKeysAllowed(), hostile);
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        List<GenericRowData> written = new ArrayList<>();
        for (int n = 1 + random.nextInt(maxRows); n > 0; n--) {
            RowKind kind = table.shape() == Shape.JSON ? RowKind.INSERT : rows.kind();
            GenericRowData row = rows.row(rowType, kind);
            if (!written.isEmpty() && primaryKey.length > 0 && random.nextInt(3) > 0) {
                GenericRowData earlier = written.get(random.nextInt(written.size()));
                for (int field : primaryKey) {
                    row.setField(field, earlier.getField(field));
                }
            }
            ProducerRecord<byte[], byte[]> record;
            try {
                record = StockRecordSerializer.serialize(serializer, row);
            } catch (RuntimeException e) {
                rowsFlinkRefused++;
                continue;
            }
            written.add(row);
            records.add(new ProducerRecord<>(topic, 0, record.key(), record.value()));
        }
        int flinkWritten = records.size();
        addHostile(topic, random, records);
        return new Records(records, table.lenientValue() ? records.size() : flinkWritten);
    }

    private void addHostile(String topic, Random random, List<ProducerRecord<byte[], byte[]>> records) {
        if (records.isEmpty()) {
            return;
        }
        for (int n = random.nextInt(3); n > 0; n--) { // legal in every shape: no row, or a delete
            byte[] key = records.get(random.nextInt(records.size())).key();
            byte[] value = random.nextBoolean() || table.shape() == Shape.UPSERT_KAFKA ? null : new byte[0];
            records.add(random.nextInt(records.size() + 1), new ProducerRecord<>(topic, 0, key, value));
        }
        for (int n = random.nextInt(3); n > 0; n--) {
            ProducerRecord<byte[], byte[]> model = records.get(random.nextInt(records.size()));
            byte[] value = random.nextBoolean() ? truncated(model.value(), random) : wrongType(model.value(), random);
            if (value == null) {
                continue;
            }
            ProducerRecord<byte[], byte[]> bad = new ProducerRecord<>(topic, 0, model.key(), value);
            // A strict format fails the job there: last, after the rows Flink wrote.
            records.add(table.lenientValue() ? random.nextInt(records.size() + 1) : records.size(), bad);
        }
    }

    /**
     * Not a NOT NULL column: a wrong-typed value read as null there under ignore-parse-errors fails
     * the NOT NULL enforcer after the source, and the stock json deserializer (2.x) swallows that
     * failure with its own parse errors (the row is dropped) where kjson fails the job: a known
     * difference (docs/flink-sql.md) this test leaves out.
     */
    private boolean nullableColumn(String name) {
        int index = rowType.getFieldNames().indexOf(name);
        return index < 0 || rowType.getTypeAt(index).isNullable();
    }

    private static byte[] truncated(byte[] value, Random random) {
        if (value == null || value.length < 2) {
            return null;
        }
        byte[] cut = new byte[1 + random.nextInt(value.length - 1)];
        System.arraycopy(value, 0, cut, 0, cut.length);
        return cut;
    }

    /**
     * A Flink-written value whose row has one field set to a value of a random (likely wrong)
     * JSON type, the rest as Flink wrote it; null where the value has no row object.
     */
    private byte[] wrongType(byte[] value, Random random) {
        if (value == null || value.length == 0) {
            return null;
        }
        try {
            JsonNode root = JSON.readTree(value);
            JsonNode row = switch (table.shape()) {
                case JSON, UPSERT_KAFKA -> root;
                case DEBEZIUM_JSON, OGG_JSON -> root.path("after").isObject() ? root.get("after") : root.get("before");
                case CANAL_JSON -> root.path("data").path(0);
                case MAXWELL_JSON -> root.get("data");
            };
            if (!(row instanceof ObjectNode object)) {
                return null;
            }
            List<String> fields = new ArrayList<>();
            object.fieldNames().forEachRemaining(fields::add);
            List<String> names = (fields.isEmpty() ? rowType.getFieldNames() : fields).stream()
                    .filter(this::nullableColumn).toList();
            if (names.isEmpty()) {
                return null;
            }
            String wrong = WRONG_VALUES[random.nextInt(WRONG_VALUES.length)];
            object.set(names.get(random.nextInt(names.size())), JSON.readTree(wrong));
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            return null;
        }
    }
}
