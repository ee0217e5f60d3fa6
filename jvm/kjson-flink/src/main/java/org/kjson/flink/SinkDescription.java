package org.kjson.flink;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Kafka sink table as Flink's catalog resolved it, carried to the native encoder unchanged: the
 * physical row type, the primary key, and the {@code WITH} options exactly as a user writes them
 * ({@code connector}, {@code key.format}, {@code key.fields}, {@code value.json.*}, ...).
 *
 * <p>Nothing is derived here. The native encoder applies the Kafka connectors' rules at open, once
 * for every caller (JNI, C ABI, CLI): the key and value projections ({@code key.fields} order,
 * the primary key of {@code upsert-kafka}, {@code value.fields-include}, {@code key.fields-prefix}),
 * the split of format options by side, and every option check, with Flink's messages.
 */
public final class SinkDescription implements Serializable {
    private static final long serialVersionUID = 2L;

    private final String tableName;
    private final RowType physicalRowType;
    private final List<String> primaryKey;
    private final Map<String, String> options;

    private SinkDescription(String tableName, RowType physicalRowType, List<String> primaryKey, Map<String, String> options) {
        this.tableName = Objects.requireNonNull(tableName, "tableName");
        this.physicalRowType = Objects.requireNonNull(physicalRowType, "physicalRowType");
        this.primaryKey = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(primaryKey, "primaryKey")));
        this.options = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(options, "options")));
    }

    /** A sink table as the catalog resolved it (physical columns only, and its primary key). */
    public static SinkDescription of(ResolvedSchema schema, Map<String, String> options) {
        RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();
        List<String> primaryKey = schema.getPrimaryKey().map(UniqueConstraint::getColumns).orElse(List.of());
        return of(rowType, primaryKey, options);
    }

    /** A sink from its physical row type, its primary key (may be empty) and its {@code WITH} options. */
    public static SinkDescription of(RowType physicalRowType, List<String> primaryKey, Map<String, String> options) {
        return new SinkDescription("", physicalRowType, primaryKey, options);
    }

    /** The same sink under a name that the native encoder's messages use. */
    public SinkDescription named(String name) {
        return new SinkDescription(name, physicalRowType, primaryKey, options);
    }

    public String tableName() {
        return tableName;
    }

    public RowType physicalRowType() {
        return physicalRowType;
    }

    public String[] fieldNames() {
        return physicalRowType.getFieldNames().toArray(new String[0]);
    }

    /** Flink's serializable type strings; a type without one is passed as its summary, which the encoder refuses by name. */
    public String[] typeStrings() {
        return physicalRowType.getChildren().stream().map(SinkDescription::typeString).toArray(String[]::new);
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    /** The {@code WITH} options, sorted by key. */
    public Map<String, String> options() {
        return options;
    }

    private static String typeString(LogicalType type) {
        try {
            return type.asSerializableString();
        } catch (RuntimeException e) {
            return type.asSummaryString();
        }
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
        return "SinkDescription{table='" + tableName + "', row=" + physicalRowType + ", primaryKey=" + primaryKey
                + ", options=" + options + "}";
    }
}
