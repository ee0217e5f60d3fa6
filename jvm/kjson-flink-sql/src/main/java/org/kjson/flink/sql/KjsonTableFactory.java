package org.kjson.flink.sql;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.BatchSettings;
import org.kjson.flink.Compatibility;
import org.kjson.flink.KjsonException;
import org.kjson.flink.NativeLibraryPolicy;
import org.kjson.flink.NativeJsonEncoder;
import org.kjson.flink.SinkDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both kjson factories do at planning time. A table that is read goes through
 * {@link KjsonTableSourcePlanning} (Flink's own factory first, then kjson's checks, as below).
 * For a table that is written: The table's value format must be one kjson
 * encodes ({@link EncodedFormats}) and its {@code kjson.*} options valid ({@link KjsonOptions},
 * every problem in one message); then the options, with the {@code connector} renamed to the
 * stock one, go through these checks in order (a key in a format kjson does not encode is
 * written by that format's own serializer, {@link StockFormats}):
 * <ol>
 *   <li>Flink's own factory ({@code kafka} or {@code upsert-kafka}) creates its sink: every
 *       connector and {@code json} format rule (the key/value projections included), with
 *       Flink's messages.</li>
 *   <li>{@link NativeSinkRestrictions}: options and columns that Flink accepts but the native
 *       path would not reproduce are rejected by name.</li>
 *   <li>{@link ArrowCarriageCheck}: every column type can be carried in Arrow, and one row fits
 *       in {@code kjson.arrow-memory-limit} (Java only, so also where the library cannot load).</li>
 *   <li>The native encoder is opened once with the table as written ({@link SinkDescription}:
 *       row type, primary key, options): it derives the projections with the same rules, and
 *       rejects format options and column types it cannot encode byte-identically. Where the
 *       library cannot load, this check moves to the task (logged).</li>
 * </ol>
 * The resulting sink keeps the stock sink for its changelog mode.
 */
abstract class KjsonTableFactory implements DynamicTableSinkFactory, DynamicTableSourceFactory {
    private static final Logger LOG = LoggerFactory.getLogger(KjsonTableFactory.class);

    private final String identifier;
    private final String stockIdentifier;

    KjsonTableFactory(String identifier, String stockIdentifier) {
        this.identifier = identifier;
        this.stockIdentifier = stockIdentifier;
    }

    /** A fresh instance of Flink's factory this one stands in for. */
    abstract DynamicTableSinkFactory stockFactory();

    /** The same factory, for the scan side. */
    abstract DynamicTableSourceFactory stockSourceFactory();

    @Override
    public String factoryIdentifier() {
        return identifier;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return stockFactory().requiredOptions();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(stockFactory().optionalOptions());
        options.addAll(KjsonOptions.ALL);
        return options;
    }

    @Override
    public Set<ConfigOption<?>> forwardOptions() {
        return stockFactory().forwardOptions();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        String tableName = context.getObjectIdentifier().asSummaryString();
        Map<String, String> options = context.getCatalogTable().getOptions();
        KjsonOptions.validate(tableName, identifier, options);
        NativeLibraryPolicy nativePolicy = KjsonOptions.nativePolicy(options, identifier);
        Map<String, String> stockOptions = stockOptions(options);
        Context stockContext = stockContext(context, context.getCatalogTable().copy(stockOptions));
        return new KjsonTableSourcePlanning(identifier, stockIdentifier, tableName).plan(context, stockOptions,
                nativePolicy, () -> withStockMessages(stockContext,
                        () -> stockSourceFactory().createDynamicTableSource(stockContext)));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        ResolvedCatalogTable table = context.getCatalogTable();
        String tableName = context.getObjectIdentifier().asSummaryString();
        EncodedFormats.check(tableName, identifier, stockIdentifier, table.getOptions());
        KjsonOptions.validate(tableName, identifier, table.getOptions());
        BatchSettings batching = BatchOptions.read(table.getOptions(), identifier);
        NativeLibraryPolicy nativePolicy = KjsonOptions.nativePolicy(table.getOptions(), identifier);
        Map<String, String> stockOptions = stockOptions(table.getOptions());
        Context stockContext = stockContext(context, table.copy(stockOptions));
        DynamicTableSink stockSink = createStockSink(stockContext);
        checkRestrictions(table, stockOptions);
        ArrowCarriageCheck.check(tableName, identifier, stockIdentifier,
                (RowType) table.getResolvedSchema().toPhysicalRowDataType().getLogicalType(), batching);
        StockFormats formats = StockFormats.of(stockSink, stockOptions);
        SinkDescription description = SinkDescription.of(table.getResolvedSchema(),
                formats.nativeOptions(table.getOptions())).named(tableName);
        validateNatively(description, tableName);
        KafkaSinkSettings settings = KafkaSinkSettings.of(stockOptions, context.getClassLoader());
        EncodeStep encodeStep = new EncodeStep(context.getObjectIdentifier().getObjectName(), description, batching,
                formats, nativePolicy);
        return new KjsonKafkaDynamicSink(identifier, stockSink, encodeStep, settings);
    }

    /** The options exactly as the stock connector would receive them. */
    private Map<String, String> stockOptions(Map<String, String> options) {
        Map<String, String> stock = new HashMap<>(options);
        KjsonOptions.ALL.forEach(option -> stock.remove(option.key()));
        stock.put(FactoryUtil.CONNECTOR.key(), stockIdentifier);
        return stock;
    }

    /** {@link NativeSinkRestrictions}, with the stock connector that writes the table as it is. */
    private void checkRestrictions(ResolvedCatalogTable table, Map<String, String> stockOptions) {
        try {
            NativeSinkRestrictions.check(identifier, table.getResolvedSchema(), stockOptions);
        } catch (ValidationException e) {
            throw new ValidationException(e.getMessage() + String.format(" (To write this table as it is, use"
                    + " 'connector' = '%s'.)", stockIdentifier), e);
        }
    }

    /** The planner's context with the table as the stock connector receives it. */
    private static Context stockContext(Context context, ResolvedCatalogTable stockTable) {
        return new FactoryUtil.DefaultDynamicTableContext(context.getObjectIdentifier(), stockTable,
                context.getEnrichmentOptions(), context.getConfiguration(), context.getClassLoader(),
                context.isTemporary());
    }

    private DynamicTableSink createStockSink(Context stockContext) {
        return withStockMessages(stockContext, () -> stockFactory().createDynamicTableSink(stockContext));
    }

    /** Runs the stock factory; its refusal is rethrown naming this connector (and kjson's options). */
    private <T> T withStockMessages(Context stockContext, Supplier<T> stock) {
        try {
            return stock.get();
        } catch (ValidationException e) {
            // Flink's list of supported options is the stock connector's: name kjson's too.
            String kjsonOptions = e.getMessage().contains("Unsupported options") ? String.format("%n%nBesides these,"
                    + " '%s' takes kjson's own options: %s.", identifier, KjsonOptions.keys()) : "";
            throw new ValidationException(String.format("Table '%s' with 'connector' = '%s' takes the options of '%s': %s%s",
                    stockContext.getObjectIdentifier().asSummaryString(), identifier, stockIdentifier, e.getMessage(),
                    kjsonOptions), e);
        }
    }

    /**
     * Opens (and closes) a native encoder: its option, type and projection checks run now. Where
     * the native library cannot load (a SQL client on a laptop of another platform), planning
     * goes on with the Java checks above, and the native checks run when the sink task opens.
     */
    private void validateNatively(SinkDescription description, String tableName) {
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonEncoder encoder = NativeJsonEncoder.open(description, Compatibility.ofRunningFlink(), allocator,
                        NativeJsonEncoder.Handoff.ARRAYS)) {
            // nothing to encode: open() validated everything
        } catch (UnsatisfiedLinkError e) {
            LOG.warn("kjson: table '{}' ('connector' = '{}') passed Flink's and kjson's Java checks; the native"
                    + " library cannot be loaded in this JVM, so the native encoder checks its options and column types"
                    + " when the sink task opens. Cause: {}", tableName, identifier, e.getMessage());
        } catch (KjsonException e) {
            throw new ValidationException(String.format(
                    "Table '%s' with 'connector' = '%s' cannot be written byte-identically to '%s' by kjson: %s (to write"
                    + " this table as it is, use 'connector' = '%s')", tableName, identifier, stockIdentifier,
                    e.getMessage(), stockIdentifier), e);
        }
    }
}
