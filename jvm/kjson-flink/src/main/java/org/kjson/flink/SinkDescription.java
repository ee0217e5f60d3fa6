package org.kjson.flink;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.IntStream;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.connectors.kafka.table.KafkaConnectorOptions;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the native encoder needs to know about a Kafka sink table, derived from Flink's own
 * objects: the physical row type, the primary key, and the {@code WITH} options exactly as a user
 * writes them ({@code connector}, {@code key.format}, {@code key.fields}, {@code json.*}, ...).
 * The format names pass through unchanged: {@code json} and the changelog envelopes
 * {@code debezium-json}, {@code canal-json}, {@code maxwell-json} and {@code ogg-json}, whose
 * options live under their own prefix ({@code value.debezium-json.*}); the native encoder checks
 * where each may appear (a key format must be insert-only, upsert-kafka takes only insert-only
 * formats).
 *
 * <p>Key and value projections follow the Kafka connector's rules and messages ({@code key.fields}
 * order, the primary key for upsert-kafka, {@code value.fields-include}, the prefix rules), read
 * through the connector's own option definitions. Format options are only split by side and un-prefixed; their names and
 * values are validated by the native encoder at open, with Flink's messages.
 */
public final class SinkDescription implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType physicalRowType;
    private final String[] fieldNames;
    private final String[] typeStrings;
    /** Null: no key format, every Kafka key is null. */
    private final int[] keyProjection;
    private final int[] valueProjection;
    private final String keyPrefix;
    private final boolean upsert;
    private final Map<String, String> keyOptions;
    private final Map<String, String> valueOptions;

    private SinkDescription(RowType physicalRowType, int[] keyProjection, int[] valueProjection, String keyPrefix,
            boolean upsert, Map<String, String> keyOptions, Map<String, String> valueOptions) {
        this.physicalRowType = physicalRowType;
        this.fieldNames = physicalRowType.getFieldNames().toArray(new String[0]);
        this.typeStrings = physicalRowType.getChildren().stream().map(SinkDescription::typeString).toArray(String[]::new);
        this.keyProjection = keyProjection == null ? null : keyProjection.clone();
        this.valueProjection = valueProjection.clone();
        this.keyPrefix = keyPrefix;
        this.upsert = upsert;
        this.keyOptions = Collections.unmodifiableMap(new TreeMap<>(keyOptions));
        this.valueOptions = Collections.unmodifiableMap(new TreeMap<>(valueOptions));
    }

    /** A sink table as the catalog resolved it (physical columns only, primary key for upsert-kafka). */
    public static SinkDescription of(ResolvedSchema schema, Map<String, String> options) {
        RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();
        List<String> primaryKey = schema.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
        return of(rowType, primaryKey, options);
    }

    /**
     * A sink from its physical row type, its primary key (empty for {@code kafka}) and its
     * {@code WITH} options.
     */
    public static SinkDescription of(RowType physicalRowType, List<String> primaryKey, Map<String, String> options) {
        Objects.requireNonNull(physicalRowType, "physicalRowType");
        Map<String, String> tableOptions = new LinkedHashMap<>(options);
        String connector = tableOptions.get("connector");
        boolean upsert = "upsert-kafka".equals(connector);
        if (!upsert && !"kafka".equals(connector)) {
            throw new ValidationException("kjson encodes for 'connector' = 'kafka' or 'upsert-kafka', found '" + connector + "'.");
        }
        Configuration config = Configuration.fromMap(tableOptions);
        if (upsert) {
            if (primaryKey.isEmpty()) {
                throw new ValidationException("'upsert-kafka' tables require to define a PRIMARY KEY constraint. "
                        + "The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key.");
            }
            // As upsert-kafka's factory does: the key fields are the primary key columns.
            config.set(KafkaConnectorOptions.KEY_FIELDS, primaryKey);
        }
        List<String> columns = physicalRowType.getFieldNames();
        int[] keyProjection = keyProjection(config, columns);
        int[] valueProjection = valueProjection(config, columns, keyProjection);
        Map<String, String> keyOptions = formatOptions(tableOptions, "key.format", null);
        Map<String, String> valueOptions = requireValueFormat(formatOptions(tableOptions, "format", "value.format"));
        String keyPrefix = config.getOptional(KafkaConnectorOptions.KEY_FIELDS_PREFIX).orElse("");
        return keyOptions == null
                ? new SinkDescription(physicalRowType, null, valueProjection, keyPrefix, upsert, Map.of(), valueOptions)
                : new SinkDescription(physicalRowType, keyProjection, valueProjection, keyPrefix, upsert, keyOptions, valueOptions);
    }

    /** The Kafka connector's key projection: {@code key.fields} in their own order, with its messages. */
    private static int[] keyProjection(Configuration config, List<String> columns) {
        boolean hasFormat = config.getOptional(KafkaConnectorOptions.KEY_FORMAT).isPresent();
        List<String> keyFields = config.getOptional(KafkaConnectorOptions.KEY_FIELDS).orElse(null);
        if (!hasFormat && keyFields != null) {
            throw new ValidationException(String.format("The option '%s' can only be declared if a key format is defined using '%s'.",
                    KafkaConnectorOptions.KEY_FIELDS.key(), KafkaConnectorOptions.KEY_FORMAT.key()));
        }
        if (hasFormat && (keyFields == null || keyFields.isEmpty())) {
            throw new ValidationException(String.format(
                    "A key format '%s' requires the declaration of one or more of key fields using '%s'.",
                    KafkaConnectorOptions.KEY_FORMAT.key(), KafkaConnectorOptions.KEY_FIELDS.key()));
        }
        if (!hasFormat) {
            return new int[0];
        }
        String prefix = config.getOptional(KafkaConnectorOptions.KEY_FIELDS_PREFIX).orElse("");
        int[] projection = new int[keyFields.size()];
        for (int i = 0; i < projection.length; i++) {
            String field = keyFields.get(i);
            projection[i] = columns.indexOf(field);
            if (projection[i] < 0) {
                throw new ValidationException(String.format("Could not find the field '%s' in the table schema for usage in the"
                        + " key format. A key field must be a regular, physical column. The following columns can be"
                        + " selected in the '%s' option:\n%s", field, KafkaConnectorOptions.KEY_FIELDS.key(), columns));
            }
            if (!field.startsWith(prefix)) {
                throw new ValidationException(String.format("All fields in '%s' must be prefixed with '%s' when option '%s' is"
                        + " set but field '%s' is not prefixed.", KafkaConnectorOptions.KEY_FIELDS.key(), prefix,
                        KafkaConnectorOptions.KEY_FIELDS_PREFIX.key(), field));
            }
        }
        return projection;
    }

    /** The Kafka connector's value projection: all columns, or all but the key's ({@code EXCEPT_KEY}). */
    private static int[] valueProjection(Configuration config, List<String> columns, int[] keyProjection) {
        String prefix = config.getOptional(KafkaConnectorOptions.KEY_FIELDS_PREFIX).orElse("");
        KafkaConnectorOptions.ValueFieldsStrategy strategy = config.get(KafkaConnectorOptions.VALUE_FIELDS_INCLUDE);
        if (strategy == KafkaConnectorOptions.ValueFieldsStrategy.ALL) {
            if (!prefix.isEmpty()) {
                throw new ValidationException(String.format("A key prefix is not allowed when option '%s' is set to '%s'. Set it"
                        + " to '%s' instead to avoid field overlaps.", KafkaConnectorOptions.VALUE_FIELDS_INCLUDE.key(),
                        KafkaConnectorOptions.ValueFieldsStrategy.ALL, KafkaConnectorOptions.ValueFieldsStrategy.EXCEPT_KEY));
            }
            return IntStream.range(0, columns.size()).toArray();
        }
        return IntStream.range(0, columns.size()).filter(i -> Arrays.stream(keyProjection).noneMatch(k -> k == i)).toArray();
    }

    /** Parts exactly as the native open call takes them (for engines that resolve sinks themselves). */
    public static SinkDescription ofParts(RowType physicalRowType, int[] keyProjection, int[] valueProjection,
            String keyPrefix, boolean upsert, Map<String, String> keyOptions, Map<String, String> valueOptions) {
        return new SinkDescription(physicalRowType, keyProjection, valueProjection, keyPrefix, upsert, keyOptions, valueOptions);
    }

    private static Map<String, String> requireValueFormat(Map<String, String> valueOptions) {
        if (valueOptions == null) {
            throw new ValidationException("Could not find required sink format 'value.format'.");
        }
        return valueOptions;
    }

    /**
     * The options of one format, un-prefixed, plus a {@code format} entry naming it. The Kafka
     * connector looks for {@code format} first (options {@code <fmt>.*}) and then for
     * {@code value.format} (options {@code value.<fmt>.*}); the key side uses {@code key.<fmt>.*}.
     * Null when the side has no format.
     */
    private static Map<String, String> formatOptions(Map<String, String> options, String formatKey, String fallbackKey) {
        String usedKey = options.containsKey(formatKey) ? formatKey : fallbackKey;
        if (usedKey == null || !options.containsKey(usedKey)) {
            return null;
        }
        String format = options.get(usedKey);
        String sidePrefix = usedKey.substring(0, usedKey.length() - "format".length());
        String prefix = sidePrefix + format + ".";
        Map<String, String> out = new TreeMap<>();
        out.put("format", format);
        options.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                out.put(key.substring(prefix.length()), value);
            }
        });
        return out;
    }

    /** Flink's serializable type string; types without one are passed as their summary, which the encoder refuses by name. */
    private static String typeString(LogicalType type) {
        try {
            return type.asSerializableString();
        } catch (RuntimeException e) {
            return type.asSummaryString();
        }
    }

    public RowType physicalRowType() {
        return physicalRowType;
    }

    public String[] fieldNames() {
        return fieldNames.clone();
    }

    public String[] typeStrings() {
        return typeStrings.clone();
    }

    /** Null when the Kafka key is always null. */
    public int[] keyProjection() {
        return keyProjection == null ? null : keyProjection.clone();
    }

    public int[] valueProjection() {
        return valueProjection.clone();
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public boolean upsert() {
        return upsert;
    }

    public Map<String, String> keyOptions() {
        return keyOptions;
    }

    public Map<String, String> valueOptions() {
        return valueOptions;
    }

    /** A map as the flat {@code [key0, value0, key1, value1, ...]} array the native open takes. */
    static String[] flatten(Map<String, String> options) {
        List<String> flat = new ArrayList<>(options.size() * 2);
        options.forEach((k, v) -> {
            flat.add(k);
            flat.add(v);
        });
        return flat.toArray(new String[0]);
    }

    @Override
    public String toString() {
        return "SinkDescription{fields=" + Arrays.toString(fieldNames) + ", types=" + Arrays.toString(typeStrings)
                + ", key=" + Arrays.toString(keyProjection) + ", value=" + Arrays.toString(valueProjection)
                + ", keyPrefix='" + keyPrefix + "', upsert=" + upsert + ", keyOptions=" + keyOptions
                + ", valueOptions=" + valueOptions + "}";
    }
}
