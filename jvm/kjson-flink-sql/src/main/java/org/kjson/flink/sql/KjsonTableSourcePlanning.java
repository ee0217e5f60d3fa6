package org.kjson.flink.sql;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicSource;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.kjson.flink.Compatibility;
import org.kjson.flink.KjsonException;
import org.kjson.flink.NativeJsonDecoder;
import org.kjson.flink.NativeLibraryPolicy;
import org.kjson.flink.SinkDescription;
import org.kjson.flink.sql.source.KjsonKafkaDynamicSource;
import org.kjson.flink.sql.source.SourceDecoding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Planning a kjson table that is read, in this order:
 * <ol>
 *   <li>the formats: the value in one kjson decodes ({@link EncodedFormats#VALUE_FORMATS}), the
 *       key (if any) in {@code json};</li>
 *   <li>Flink's own factory ({@code kafka} or {@code upsert-kafka}) creates its source: every
 *       scan option (topics, pattern, start and stop offsets, partition discovery, group id,
 *       parallelism) and the key/value projections, with Flink's messages;</li>
 *   <li>the native decoder is opened once with the table as written: it refuses the format
 *       options and column types it cannot read as Flink does. Where the library cannot load,
 *       planning goes on (logged) and the check runs when the reader opens.</li>
 * </ol>
 * A value-format metadata column ({@code value.*}) the native decoder does not read is refused
 * when the planner applies it ({@link KjsonKafkaDynamicSource}).
 */
final class KjsonTableSourcePlanning {
    private static final Logger LOG = LoggerFactory.getLogger(KjsonTableSourcePlanning.class);
    /** {@code scan.parallelism} (Kafka connector 4.0 and later; the 1.20 line's factory refuses it). */
    private static final ConfigOption<Integer> SCAN_PARALLELISM =
            ConfigOptions.key("scan.parallelism").intType().noDefaultValue();

    private final String identifier;
    private final String stockIdentifier;
    private final String tableName;

    KjsonTableSourcePlanning(String identifier, String stockIdentifier, String tableName) {
        this.identifier = identifier;
        this.stockIdentifier = stockIdentifier;
        this.tableName = tableName;
    }

    DynamicTableSource plan(DynamicTableFactory.Context context, Map<String, String> stockOptions,
            NativeLibraryPolicy nativePolicy, Supplier<DynamicTableSource> stockSource) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        checkFormats(options);
        DynamicTableSource stock = stockSource.get();
        if (!(stock instanceof KafkaDynamicSource kafka)) {
            throw new IllegalStateException("'" + stockIdentifier + "' planned a " + stock.getClass().getName()
                    + ", not the Kafka table source kjson reads with");
        }
        SinkDescription table = SinkDescription.of(context.getCatalogTable().getResolvedSchema(), options)
                .named(tableName);
        validateNatively(table);
        Integer parallelism = Configuration.fromMap(stockOptions).getOptional(SCAN_PARALLELISM).orElse(null);
        return new KjsonKafkaDynamicSource(kafka, new SourceDecoding(table, List.of(), nativePolicy), identifier,
                stockIdentifier, parallelism, metadataColumns(context.getCatalogTable().getResolvedSchema()));
    }

    /** The metadata columns' names by key, for the messages that refuse a key. */
    private static Map<String, String> metadataColumns(ResolvedSchema schema) {
        Map<String, String> columns = new HashMap<>();
        for (Column column : schema.getColumns()) {
            if (column instanceof Column.MetadataColumn metadata) {
                columns.put(metadata.getMetadataKey().orElse(column.getName()), column.getName());
            }
        }
        return columns;
    }

    private void checkFormats(Map<String, String> options) {
        String valueKey = options.containsKey("format") ? "format" : "value.format";
        String value = options.get(valueKey);
        if (value != null && !EncodedFormats.VALUE_FORMATS.contains(value)) {
            throw refused(valueKey, value, "values in the formats " + quoted(EncodedFormats.VALUE_FORMATS));
        }
        String key = options.get("key.format");
        if (key != null && !key.equals("json")) {
            throw refused("key.format", key, "keys in the format 'json'");
        }
    }

    private ValidationException refused(String option, String format, String decoded) {
        return new ValidationException(String.format("Table '%s' with 'connector' = '%s' cannot be read"
                + " row-identically to '%s' by kjson: option '%s' = '%s' is not a format kjson decodes; kjson decodes %s"
                + " (for '%s', use 'connector' = '%s').", tableName, identifier, stockIdentifier, option, format,
                decoded, format, stockIdentifier));
    }

    private static String quoted(List<String> names) {
        return String.join(", ", names.stream().map(name -> "'" + name + "'").toList());
    }

    /** Opens (and closes) a native decoder: its option, type and projection checks run now. */
    private void validateNatively(SinkDescription table) {
        try (BufferAllocator allocator = new RootAllocator();
                NativeJsonDecoder decoder = NativeJsonDecoder.open(table, Compatibility.ofRunningFlink(), allocator)) {
            // nothing to decode: open() validated everything
        } catch (UnsatisfiedLinkError e) {
            LOG.warn("kjson: table '{}' ('connector' = '{}') passed Flink's and kjson's Java checks; the native"
                    + " library cannot be loaded in this JVM, so the native decoder checks its options and column types"
                    + " when the source reader opens. Cause: {}", tableName, identifier, e.getMessage());
        } catch (KjsonException e) {
            throw new ValidationException(String.format(
                    "Table '%s' with 'connector' = '%s' cannot be read row-identically to '%s' by kjson: %s (to read"
                    + " this table as it is, use 'connector' = '%s')", tableName, identifier, stockIdentifier,
                    e.getMessage(), stockIdentifier), e);
        }
    }
}
