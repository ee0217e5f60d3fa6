package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.kjson.flink.BatchSettings;
import org.kjson.flink.sql.broker.TopicRecord;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.FailoverScenario;
import org.kjson.flink.sql.support.FlinkLine;
import org.kjson.testkit.TableSinkContext;

/**
 * The Kafka side is the stock connector's: the KafkaSink that kjson builds has the same producer
 * configuration ({@code properties.*} passed through), delivery guarantee, transactional id
 * prefix and naming strategy as the one Flink builds for the same table; the changelog mode and
 * parallelism are the stock sink's; {@code 'sink.partitioner' = 'fixed'} is honoured.
 */
class SinkOptionsTest {
    private static final String OPTIONS = "'topic' = 'events', 'properties.bootstrap.servers' = '127.0.0.1:9',"
            + " 'properties.batch.size' = '524288', 'properties.linger.ms' = '20', 'properties.acks' = 'all',"
            + " 'properties.compression.type' = 'lz4', 'sink.parallelism' = '3',"
            + " 'sink.transactional-id-prefix' = 'orders', "
            + (FlinkLine.hasTransactionNaming() ? "'sink.transaction-naming-strategy' = 'POOLING', " : "");

    private final TableEnvironment tableEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());

    @Test
    void kafkaSinkIsConfiguredLikeTheStockOne() throws Exception {
        assertSameKafkaSink("kafka", "(id BIGINT, name STRING)",
                OPTIONS + "'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once'");
        assertSameKafkaSink("kafka", "(id BIGINT, name STRING)", OPTIONS + "'format' = 'json', 'sink.semantic' = 'none'");
        assertSameKafkaSink("upsert-kafka", "(id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)",
                OPTIONS + "'key.format' = 'json', 'value.format' = 'json', 'sink.delivery-guarantee' = 'at-least-once'");
    }

    @Test
    void changelogModeAndParallelismAreTheStockSinks() throws Exception {
        for (String[] table : new String[][] {{"kafka", "(id BIGINT, name STRING)", "'format' = 'json'"},
                {"upsert-kafka", "(id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)",
                        "'key.format' = 'json', 'value.format' = 'json'"}}) {
            DynamicTableSink stock = createSink(table[0], table[1], OPTIONS + table[2]);
            KjsonKafkaDynamicSink kjson = (KjsonKafkaDynamicSink) createSink("kjson-" + table[0], table[1],
                    OPTIONS + table[2] + ", 'kjson.batch-rows' = '512', 'kjson.batch-interval' = '2 s',"
                            + " 'kjson.arrow-memory-limit' = '32 mb'");
            assertEquals(stock.getChangelogMode(ChangelogMode.all()), kjson.getChangelogMode(ChangelogMode.all()));
            SinkV2Provider stockProvider = (SinkV2Provider) stock.getSinkRuntimeProvider(new TableSinkContext());
            DataStreamSinkProvider kjsonProvider =
                    (DataStreamSinkProvider) kjson.getSinkRuntimeProvider(new TableSinkContext());
            assertEquals(stockProvider.getParallelism(), kjsonProvider.getParallelism());
            assertEquals(BatchSettings.ofRows(512).withInterval(Duration.ofSeconds(2)).withArrowMemoryLimit(32L << 20),
                    kjson.batching());
        }
    }

    @Test
    void batchSettingsDefaultToTheDocumentedValues() {
        KjsonKafkaDynamicSink kjson = (KjsonKafkaDynamicSink) createSink("kjson-kafka", "(id BIGINT, name STRING)",
                OPTIONS + "'format' = 'json'");
        assertEquals(BatchSettings.defaults(), kjson.batching());
        assertEquals(Duration.ofMillis(200), kjson.batching().interval());
        assertEquals(64L << 20, kjson.batching().arrowMemoryLimit());
    }

    /** One sink subtask and 'fixed': every record in partition 0, where the key hash would use both. */
    @Test
    void fixedPartitionerIsHonoured() throws Exception {
        String ddl = AppendSinkTest.DDL.replace("'sink.delivery-guarantee'",
                "'sink.partitioner' = 'fixed',\n  'sink.parallelism' = '1',\n  'sink.delivery-guarantee'");
        FailoverScenario result = FailoverScenario.run("fixed-partitioner", ddl, "kjson-kafka", "kafka", "exactly-once",
                FailingRows.Shape.APPEND, 2_000, 10_000, FailoverScenario.Path.SQL, false);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        Set<Integer> partitions = result.seen.stream().map(TopicRecord::partition).collect(Collectors.toSet());
        assertEquals(Set.of(0), partitions);
        Set<Integer> hashed = result.seen.stream().map(r -> Utils.toPositive(Utils.murmur2(r.key())) % 2)
                .collect(Collectors.toSet());
        assertEquals(Set.of(0, 1), hashed, "the keys would spread over both partitions without 'fixed'");
    }

    private void assertSameKafkaSink(String stockConnector, String columns, String options) throws Exception {
        KafkaSink<?> stock = (KafkaSink<?>) ((SinkV2Provider) createSink(stockConnector, columns, options)
                .getSinkRuntimeProvider(new TableSinkContext())).createSink();
        KjsonKafkaDynamicSink kjson = (KjsonKafkaDynamicSink) createSink("kjson-" + stockConnector, columns, options);
        KafkaSink<?> built = kjson.settings().buildSink();
        Map<String, Object> expected = kafkaSinkSettings(stock);
        assertEquals(expected, kafkaSinkSettings(built));
        assertTrue(String.valueOf(expected.get("kafkaProducerConfig")).contains("batch.size=524288"), expected::toString);
    }

    /** The KafkaSink fields other than the record serializer (which differs by design). */
    private static Map<String, Object> kafkaSinkSettings(KafkaSink<?> sink) throws IllegalAccessException {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (Field field : KafkaSink.class.getDeclaredFields()) {
            if (!java.lang.reflect.Modifier.isStatic(field.getModifiers()) && !field.getName().equals("recordSerializer")) {
                field.setAccessible(true);
                Object value = field.get(sink);
                settings.put(field.getName(), value instanceof java.util.Properties p ? new HashMap<>(p) : value);
            }
        }
        assertTrue(settings.containsKey("deliveryGuarantee") && settings.containsKey("kafkaProducerConfig"), settings::toString);
        return settings;
    }

    private DynamicTableSink createSink(String connector, String columns, String options) {
        String name = "t_" + connector.replace('-', '_') + "_" + System.nanoTime();
        tableEnv.executeSql("CREATE TABLE " + name + " " + columns + " WITH ('connector' = '" + connector + "', " + options + ")");
        CatalogManager catalog = ((TableEnvironmentInternal) tableEnv).getCatalogManager();
        ObjectIdentifier id = ObjectIdentifier.of(catalog.getCurrentCatalog(), catalog.getCurrentDatabase(), name);
        ResolvedCatalogTable table = (ResolvedCatalogTable) catalog.getTable(id).orElseThrow().getResolvedTable();
        return FactoryUtil.createDynamicTableSink(null, id, table, Map.of(), tableEnv.getConfig(),
                Thread.currentThread().getContextClassLoader(), false);
    }
}
