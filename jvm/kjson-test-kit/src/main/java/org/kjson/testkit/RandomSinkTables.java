package org.kjson.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random Kafka sink tables as DDL: random columns over every type the JSON formats write, nested
 * a few levels, and every sink shape (value-only json or a CDC envelope, a json key of chosen
 * fields with or without a prefix, upsert-kafka with a primary key) with random format options.
 * Generated so that Flink accepts most of them; Flink's factory decides.
 *
 * <p>A column's name starts with a tag of its type ({@code ts9_4}, {@code arrdec_7}, {@code row_2}),
 * so a difference in the JSON can be traced to the type it is in.
 */
public final class RandomSinkTables {
    /** A sink table; {@code nullMapKeysAllowed}: no format of it is in map-null-key.mode FAIL. */
    public record SinkTable(String name, String ddl, boolean nullMapKeysAllowed, boolean hasMaps) {}

    private record TypeSpec(String tag, String sql, boolean nested) {
        TypeSpec notNull() {
            return new TypeSpec(tag, sql + " NOT NULL", nested);
        }
    }

    private record Column(String name, TypeSpec type) {
        String ddl() {
            return "`" + name + "` " + type.sql();
        }
    }

    private static final String[] VALUE_FORMATS = {"json", "json", "debezium-json", "canal-json", "maxwell-json", "ogg-json"};
    private static final String[] NULL_KEY_LITERALS = {"null", "NUL", "k", "a", "", "é", "\"q\"", "lit"};
    private static final String[] NULL_KEY_MODES = {"FAIL", "DROP", "LITERAL", "drop", "literal"};
    private static final int MAX_DEPTH = 3;

    private final Random random;
    private int names;
    private int tables;
    private boolean hasMaps;
    private boolean allModesTolerateNullKeys;

    public RandomSinkTables(long seed) {
        this.random = new Random(seed);
    }

    public SinkTable next() {
        names = 0;
        hasMaps = false;
        allModesTolerateNullKeys = true;
        String name = "random_sink_" + tables++;
        List<Column> columns = new ArrayList<>();
        for (int n = 1 + random.nextInt(random.nextInt(4) == 0 ? 30 : 8); n > 0; n--) {
            columns.add(new Column(null, type(0)));
        }
        columns.replaceAll(c -> new Column(name(c.type()), c.type()));
        String ddl = random.nextInt(4) == 0 ? upsert(name, columns) : kafka(name, columns);
        return new SinkTable(name, ddl, allModesTolerateNullKeys, hasMaps);
    }

    private String name(TypeSpec type) {
        return type.tag() + "_" + names++;
    }

    private TypeSpec type(int depth) {
        TypeSpec type = depth < MAX_DEPTH && random.nextInt(4) == 0 ? nested(depth + 1) : leaf();
        return random.nextInt(6) == 0 ? type.notNull() : type;
    }

    private TypeSpec leaf() {
        switch (random.nextInt(21)) {
            case 0: return leaf("b", "BOOLEAN");
            case 1: return leaf("ti", "TINYINT");
            case 2: return leaf("si", "SMALLINT");
            case 3: return leaf("i", "INT");
            case 4: return leaf("bi", "BIGINT");
            case 5: return leaf("f", "FLOAT");
            case 6: return leaf("d", "DOUBLE");
            case 7:
            case 8: {
                int precision = 1 + random.nextInt(38);
                return leaf("dec", "DECIMAL(" + precision + ", " + random.nextInt(precision + 1) + ")");
            }
            case 9: return leaf("ch", "CHAR(" + (1 + random.nextInt(12)) + ")");
            case 10: return leaf("vc", "VARCHAR(" + (1 + random.nextInt(40)) + ")");
            case 11: return leaf("s", "STRING");
            case 12: return leaf("bn", "BINARY(" + (1 + random.nextInt(8)) + ")");
            case 13: return leaf("vb", "VARBINARY(" + (1 + random.nextInt(20)) + ")");
            case 14: return leaf("by", "BYTES");
            case 15: return leaf("dt", "DATE");
            case 16: {
                int precision = random.nextInt(10);
                return leaf("t" + precision, "TIME(" + precision + ")");
            }
            case 17:
            case 18: {
                int precision = random.nextInt(10);
                return leaf("ts" + precision, "TIMESTAMP(" + precision + ")");
            }
            default: {
                int precision = random.nextInt(10);
                return leaf("lz" + precision, "TIMESTAMP_LTZ(" + precision + ")");
            }
        }
    }

    private static TypeSpec leaf(String tag, String sql) {
        return new TypeSpec(tag, sql, false);
    }

    private TypeSpec nested(int depth) {
        switch (random.nextInt(4)) {
            case 0: {
                TypeSpec element = type(depth);
                return new TypeSpec("arr" + element.tag(), "ARRAY<" + element.sql() + ">", true);
            }
            case 1: {
                hasMaps = true;
                TypeSpec value = type(depth);
                return new TypeSpec("map" + value.tag(), "MAP<" + mapKeyType() + ", " + value.sql() + ">", true);
            }
            case 2:
                hasMaps = true;
                return new TypeSpec("ms", "MULTISET<" + mapKeyType() + ">", true);
            default: {
                List<String> fields = new ArrayList<>();
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    TypeSpec field = type(depth);
                    fields.add("`" + name(field) + "` " + field.sql());
                }
                return new TypeSpec("row", "ROW<" + String.join(", ", fields) + ">", true);
            }
        }
    }

    /** The JSON formats write maps with character-string keys only. */
    private String mapKeyType() {
        String[] keys = {"STRING", "VARCHAR(" + (1 + random.nextInt(20)) + ")", "CHAR(" + (1 + random.nextInt(4)) + ")"};
        String key = keys[random.nextInt(keys.length)];
        return random.nextInt(4) == 0 ? key + " NOT NULL" : key;
    }

    /** A kafka sink: value only, or a json key of random fields (perhaps prefixed, then EXCEPT_KEY). */
    private String kafka(String name, List<Column> columns) {
        List<String> options = new ArrayList<>(List.of("'connector' = 'kafka'"));
        String valueFormat = VALUE_FORMATS[random.nextInt(VALUE_FORMATS.length)];
        if (random.nextInt(3) == 0) {
            options.add("'format' = '" + valueFormat + "'");
            options.addAll(formatOptions(valueFormat + "."));
            return ddl(name, columns, null, options);
        }
        List<Column> key = randomSubset(columns, 1 + random.nextInt(Math.min(3, columns.size())), false);
        boolean prefixed = random.nextInt(3) == 0;
        if (prefixed) {
            prefixNames(columns, key);
            options.add("'key.fields-prefix' = 'k_'");
            options.add("'value.fields-include' = 'EXCEPT_KEY'");
        } else if (random.nextInt(4) == 0) {
            options.add("'value.fields-include' = 'EXCEPT_KEY'");
        }
        List<String> keyNames = new ArrayList<>();
        key.forEach(k -> keyNames.add(columns.get(columns.indexOf(k)).name()));
        options.add("'key.format' = 'json'");
        options.add("'key.fields' = '" + String.join(";", keyNames) + "'");
        options.addAll(formatOptions("key.json."));
        options.add("'value.format' = '" + valueFormat + "'");
        options.addAll(formatOptions("value." + valueFormat + "."));
        return ddl(name, columns, null, options);
    }

    /** An upsert-kafka sink: a primary key of leaf columns (Flink makes them NOT NULL), json both sides. */
    private String upsert(String name, List<Column> columns) {
        List<Column> leaves = new ArrayList<>(columns.stream().filter(c -> !c.type().nested()).toList());
        if (leaves.isEmpty()) {
            leaves.add(new Column(name(leaf("bi", "BIGINT")), leaf("bi", "BIGINT")));
            columns.add(0, leaves.get(0));
        }
        List<Column> key = randomSubset(leaves, 1 + random.nextInt(Math.min(3, leaves.size())), true);
        List<String> options = new ArrayList<>(List.of("'connector' = 'upsert-kafka'"));
        if (random.nextInt(3) == 0) {
            prefixNames(columns, key);
            options.add("'key.fields-prefix' = 'k_'");
            options.add("'value.fields-include' = 'EXCEPT_KEY'");
        }
        List<String> keyNames = new ArrayList<>();
        key.forEach(k -> keyNames.add("`" + columns.get(columns.indexOf(k)).name() + "`"));
        options.add("'key.format' = 'json'");
        options.addAll(formatOptions("key.json."));
        options.add("'value.format' = 'json'");
        options.addAll(formatOptions("value.json."));
        return ddl(name, columns, String.join(", ", keyNames), options);
    }

    /** Distinct columns in random order; {@code keepOrder} keeps the table's order instead. */
    private List<Column> randomSubset(List<Column> columns, int size, boolean keepOrder) {
        List<Column> shuffled = new ArrayList<>(columns);
        Collections.shuffle(shuffled, random);
        List<Column> subset = new ArrayList<>(shuffled.subList(0, size));
        if (keepOrder) {
            subset.sort((a, b) -> Integer.compare(columns.indexOf(a), columns.indexOf(b)));
        }
        return subset;
    }

    /** Renames the key columns in place (both lists share the records) with the key prefix. */
    private static void prefixNames(List<Column> columns, List<Column> key) {
        for (int k = 0; k < key.size(); k++) {
            Column prefixed = new Column("k_" + key.get(k).name(), key.get(k).type());
            columns.set(columns.indexOf(key.get(k)), prefixed);
            key.set(k, prefixed);
        }
    }

    /** Random json options under {@code prefix} (each present or absent). */
    private List<String> formatOptions(String prefix) {
        List<String> options = new ArrayList<>();
        if (random.nextBoolean()) {
            options.add(option(prefix, "timestamp-format.standard", random.nextBoolean() ? "SQL" : "ISO-8601"));
        }
        String mode = random.nextInt(3) == 0 ? "FAIL" : NULL_KEY_MODES[random.nextInt(NULL_KEY_MODES.length)];
        if (!"FAIL".equals(mode) || random.nextBoolean()) {
            options.add(option(prefix, "map-null-key.mode", mode));
        }
        allModesTolerateNullKeys &= !"FAIL".equals(mode);
        if (random.nextBoolean()) {
            options.add(option(prefix, "map-null-key.literal", NULL_KEY_LITERALS[random.nextInt(NULL_KEY_LITERALS.length)]));
        }
        if (random.nextBoolean()) {
            options.add(option(prefix, "encode.decimal-as-plain-number", String.valueOf(random.nextBoolean())));
        }
        if (random.nextBoolean()) {
            options.add(option(prefix, "encode.ignore-null-fields", String.valueOf(random.nextBoolean())));
        }
        return options;
    }

    private static String option(String prefix, String key, String value) {
        return "'" + prefix + key + "' = '" + value.replace("'", "''") + "'";
    }

    private static String ddl(String name, List<Column> columns, String primaryKey, List<String> options) {
        List<String> lines = new ArrayList<>();
        columns.forEach(c -> lines.add(c.ddl()));
        if (primaryKey != null) {
            lines.add("PRIMARY KEY (" + primaryKey + ") NOT ENFORCED");
        }
        List<String> with = new ArrayList<>(options);
        with.add("'topic' = 't'");
        with.add("'properties.bootstrap.servers' = 'localhost:9092'");
        return "CREATE TABLE " + name + " (\n  " + String.join(",\n  ", lines) + "\n) WITH (\n  "
                + String.join(",\n  ", with) + ")";
    }
}
