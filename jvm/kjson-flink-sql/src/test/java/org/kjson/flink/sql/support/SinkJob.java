package org.kjson.flink.sql.support;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.kjson.testkit.TableSinkContext;

/**
 * One Flink job on a local MiniCluster (parallelism 2, a checkpoint every second, fixed-delay
 * restarts) that writes the {@link TestRows} of a bounded, replayable, rate-limited sequence
 * source into a sink table: through SQL ({@code INSERT INTO}), or for rows the planner would
 * never hand an upsert sink ({@code -U}), straight into the table sink's runtime provider.
 */
public final class SinkJob {
    public static final int PARALLELISM = 2;
    private static final long TIMEOUT_MINUTES = 4;

    private final StreamExecutionEnvironment env;
    private final StreamTableEnvironment tableEnv;

    private SinkJob(StreamExecutionEnvironment env, StreamTableEnvironment tableEnv) {
        this.env = env;
        this.tableEnv = tableEnv;
    }

    public static SinkJob create() {
        return create(Map.of());
    }

    /** The same job with {@code extraConfig} added to the MiniCluster's configuration (e.g. a metric reporter). */
    public static SinkJob create(Map<String, String> extraConfig) {
        Configuration config = Configuration.fromMap(extraConfig);
        config.set(CoreOptions.DEFAULT_PARALLELISM, PARALLELISM);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        config.set(StateRecoveryOptions.LOCAL_RECOVERY, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        // The input's upsert key is the sink's primary key: no materializer between them.
        tableEnv.getConfig().set("table.exec.sink.upsert-materialize", "NONE");
        return new SinkJob(env, tableEnv);
    }

    public StreamTableEnvironment tableEnv() {
        return tableEnv;
    }

    /** Runs one {@code CREATE TABLE} and returns the table as the catalog resolved it. */
    public ResolvedCatalogTable createTable(String ddl, String name) {
        tableEnv.executeSql(ddl);
        CatalogManager catalog = ((TableEnvironmentInternal) tableEnv).getCatalogManager();
        ObjectIdentifier id = ObjectIdentifier.of(catalog.getCurrentCatalog(), catalog.getCurrentDatabase(), name);
        return (ResolvedCatalogTable) catalog.getTable(id).orElseThrow().getResolvedTable();
    }

    /** {@code INSERT INTO table SELECT * FROM <rows>}: append rows, or a changelog keyed by (id, region). */
    public void insertRows(ResolvedCatalogTable table, String name, FailingRows.Shape shape, long sequences,
            double sequencesPerSecond, String runId, boolean injectFailure) throws Exception {
        DataType rowType = table.getResolvedSchema().toPhysicalRowDataType();
        DataStream<Row> rows = sequence(sequences, sequencesPerSecond)
                .flatMap(new FailingRows(shape, runId, injectFailure)).returns(ExternalTypeInfo.of(rowType)).name("rows");
        Table input = shape == FailingRows.Shape.APPEND
                ? tableEnv.fromDataStream(rows)
                : tableEnv.fromChangelogStream(rows, Schema.newBuilder().primaryKey("id", "region").build(), ChangelogMode.all());
        String view = "rows_" + runId.replaceAll("[^A-Za-z0-9]", "_");
        tableEnv.createTemporaryView(view, input);
        tableEnv.executeSql("INSERT INTO " + name + " SELECT * FROM " + view).await(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    }

    /**
     * The same rows as internal {@link RowData} (any row kind, {@code -U} included) straight into
     * the runtime provider of the table's sink, as the planner would wire it.
     */
    public void sinkRowData(ResolvedCatalogTable table, FailingRows.Shape shape, long sequences, double sequencesPerSecond,
            String runId, boolean injectFailure) throws Exception {
        DataType rowType = table.getResolvedSchema().toPhysicalRowDataType();
        DataStream<RowData> rows = sequence(sequences, sequencesPerSecond)
                .flatMap(new FailingRows(shape, runId, injectFailure)).returns(ExternalTypeInfo.of(rowType)).name("rows")
                .map(new ToRowData(rowType)).returns(InternalTypeInfo.of(rowType.getLogicalType()));
        DynamicTableSink sink = FactoryUtil.createDynamicTableSink(null, ObjectIdentifier.of("test", "test", runId), table,
                Map.of(), new Configuration(), Thread.currentThread().getContextClassLoader(), false);
        DataStreamSinkProvider provider = (DataStreamSinkProvider) sink.getSinkRuntimeProvider(new TableSinkContext());
        provider.consumeDataStream(name -> java.util.Optional.of(runId + "-" + name), rows);
        env.execute(runId);
    }

    private DataStream<Long> sequence(long sequences, double perSecond) {
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(sequence -> sequence, sequences,
                RateLimiterStrategy.perSecond(perSecond), Types.LONG);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "sequence");
    }

    /** External rows to the planner's internal format, with the same converter the planner uses. */
    private static final class ToRowData extends RichMapFunction<Row, RowData> {
        private static final long serialVersionUID = 1L;
        private final DataType rowType;
        private transient DataStructureConverter<Object, Object> converter;

        ToRowData(DataType rowType) {
            this.rowType = rowType;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void open(org.apache.flink.api.common.functions.OpenContext context) {
            converter = (DataStructureConverter<Object, Object>) DataStructureConverters.getConverter(rowType);
            converter.open(getRuntimeContext().getUserCodeClassLoader());
        }

        @Override
        public RowData map(Row row) {
            return (RowData) converter.toInternalOrNull(row);
        }
    }
}
