package org.kjson.parity.decode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.kjson.parity.FlinkKafkaSink;
import org.kjson.parity.RowGenerator;
import org.kjson.testkit.StockRecordSerializer;

/**
 * Well-formed messages for a decode case, written by Flink's own serializers: seeded random rows
 * of the physical type go through a Kafka sink's record serializer. For {@code json} values that
 * is the case's own table as a sink (so upsert-kafka writes its tombstones); for the changelog
 * formats a twin table with a {@code json} value gives the key and the row JSON, and the envelope
 * (debezium, canal, maxwell, ogg) is built around it here, since Flink's CDC encoders write
 * neither update pairs, canal's several rows nor the decode-only members.
 */
final class MessageGenerator {

    enum Format {
        JSON, DEBEZIUM, CANAL, MAXWELL, OGG;

        static Format of(String identifier) {
            return switch (identifier) {
                case "json" -> JSON;
                case "debezium-json" -> DEBEZIUM;
                case "canal-json" -> CANAL;
                case "maxwell-json" -> MAXWELL;
                case "ogg-json" -> OGG;
                default -> throw new IllegalArgumentException("oracle: no message generator for format " + identifier);
            };
        }
    }

    private static final String[] DATABASES = {"inventory", "kjson", "other_db"};
    private static final String[] TABLES = {"orders", "products", "t1"};

    private final Format format;
    private final RowType rowType;
    private final int metadataArity;
    private final FlinkKafkaSink.RecordSerializer serializer;
    private final RowGenerator rows;
    private final SplittableRandom random;
    private final boolean schemaInclude;
    private long sequence;

    MessageGenerator(Format format, RowType rowType, FlinkKafkaSink.RecordSerializer serializer, RowGenerator rows,
            SplittableRandom random, boolean schemaInclude) {
        this.format = format;
        this.rowType = rowType;
        this.metadataArity = serializer.metadataArity();
        this.serializer = serializer;
        this.rows = rows;
        this.random = random;
        this.schemaInclude = schemaInclude;
    }

    /** The value format of a table's options ({@code value.format} or {@code format}). */
    static String valueFormat(Map<String, String> options) {
        return options.getOrDefault("value.format", options.get("format"));
    }

    /**
     * The twin of a changelog-format table for writing its rows: the same physical columns (no
     * primary key, which kafka refuses with json), the same connector options and key format,
     * and a json value with the format's encode options (e.g. timestamp-format.standard).
     */
    static String twinDdl(String name, RowType rowType, Map<String, String> options) {
        String fmt = valueFormat(options);
        String valuePrefix = options.containsKey("value.format") ? "value." : "";
        StringBuilder ddl = new StringBuilder("CREATE TABLE `" + name + "` (\n");
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            ddl.append(i == 0 ? "  " : ",\n  ").append('`').append(rowType.getFieldNames().get(i).replace("`", "``"))
                    .append("` ").append(rowType.getTypeAt(i).asSerializableString());
        }
        ddl.append("\n) WITH (");
        boolean first = true;
        for (Map.Entry<String, String> e : new TreeMap<>(options).entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key.equals(valuePrefix + "format")) {
                value = "json";
            } else if (key.startsWith(valuePrefix + fmt + ".")) {
                String suffix = key.substring((valuePrefix + fmt + ".").length());
                if (!suffix.startsWith("timestamp-format.") && !suffix.startsWith("map-null-key.")
                        && !suffix.startsWith("encode.")) {
                    continue;
                }
                key = valuePrefix + "json." + suffix;
            }
            ddl.append(first ? "\n  '" : ",\n  '").append(key.replace("'", "''")).append("' = '")
                    .append(value.replace("'", "''")).append('\'');
            first = false;
        }
        return ddl.append("\n)").toString();
    }

    KafkaInput.Record next() {
        return switch (format) {
            case JSON -> {
                ProducerRecord<byte[], byte[]> r = serialize(rows.row(rowType, metadataArity));
                yield new KafkaInput.Record(r.key(), r.value());
            }
            case DEBEZIUM -> debezium();
            case CANAL -> canal();
            case MAXWELL -> maxwell();
            case OGG -> ogg();
        };
    }

    private ProducerRecord<byte[], byte[]> serialize(GenericRowData row) {
        return StockRecordSerializer.serialize(serializer.schema(), row);
    }

    /** A fresh row: the key bytes and the row's JSON object. */
    private record Image(byte[] key, JsonText.Node json) {}

    private Image image() {
        GenericRowData row = rows.row(rowType, metadataArity);
        row.setRowKind(RowKind.INSERT);
        ProducerRecord<byte[], byte[]> r = serialize(row);
        return new Image(r.key(), JsonText.parse(r.value()));
    }

    private KafkaInput.Record debezium() {
        int k = random.nextInt(100);
        String op = k < 30 ? "c" : k < 40 ? "r" : k < 75 ? "u" : "d";
        Image before = op.equals("u") || op.equals("d") ? image() : null;
        Image after = op.equals("d") ? null : image();
        JsonText.Obj env = new JsonText.Obj()
                .put("before", before == null ? JsonText.raw("null") : before.json())
                .put("after", after == null ? JsonText.raw("null") : after.json());
        if (random.nextBoolean()) {
            env.put("source", JsonText.raw("{\"version\":\"2.7.0.Final\",\"connector\":\"mysql\",\"name\":\"kjson\","
                    + "\"ts_ms\":" + timestamp() + ",\"db\":\"inventory\",\"table\":\"orders\"}"));
        }
        env.put("op", JsonText.string(op));
        if (random.nextBoolean()) {
            env.put("ts_ms", JsonText.raw(Long.toString(timestamp() + 7))).put("transaction", JsonText.raw("null"));
        }
        JsonText.Node message = env;
        if (schemaInclude) {
            message = new JsonText.Obj()
                    .put("schema", JsonText.raw("{\"type\":\"struct\",\"fields\":[],\"optional\":false,\"name\":\"kjson.Envelope\"}"))
                    .put("payload", env);
        }
        return new KafkaInput.Record((after != null ? after : before).key(), JsonText.bytes(message));
    }

    private KafkaInput.Record canal() {
        int k = random.nextInt(100);
        String type = k < 35 ? "INSERT" : k < 70 ? "UPDATE" : k < 95 ? "DELETE" : "CREATE";
        JsonText.Arr data = new JsonText.Arr();
        JsonText.Arr old = new JsonText.Arr();
        byte[] key = null;
        int count = type.equals("CREATE") ? 0 : random.nextInt(1, 4);
        for (int i = 0; i < count; i++) {
            Image row = image();
            key = key == null ? row.key() : key;
            data.items.add(row.json());
            if (type.equals("UPDATE")) {
                old.items.add(partial(image().json()));
            }
        }
        JsonText.Obj env = new JsonText.Obj()
                .put("data", count == 0 ? JsonText.raw("null") : data)
                .put("database", JsonText.string(pick(DATABASES)))
                .put("es", JsonText.raw(Long.toString(timestamp())))
                .put("id", JsonText.raw(Long.toString(++sequence)))
                .put("isDdl", JsonText.raw(count == 0 ? "true" : "false"))
                .put("old", type.equals("UPDATE") ? old : JsonText.raw("null"))
                .put("pkNames", JsonText.raw("null"))
                .put("sql", JsonText.string(count == 0 ? "CREATE TABLE t1 (id INT)" : ""))
                .put("table", JsonText.string(pick(TABLES)))
                .put("ts", JsonText.raw(Long.toString(timestamp() + 3)))
                .put("type", JsonText.string(type));
        return new KafkaInput.Record(key, JsonText.bytes(env));
    }

    private KafkaInput.Record maxwell() {
        int k = random.nextInt(100);
        String type = k < 35 ? "insert" : k < 70 ? "update" : "delete";
        Image row = image();
        JsonText.Obj env = new JsonText.Obj()
                .put("database", JsonText.string(pick(DATABASES)))
                .put("table", JsonText.string(pick(TABLES)))
                .put("type", JsonText.string(type))
                .put("ts", JsonText.raw(Long.toString(timestamp() / 1000)))
                .put("xid", JsonText.raw(Long.toString(++sequence)))
                .put("commit", JsonText.raw("true"))
                .put("data", row.json());
        if (type.equals("update")) {
            env.put("old", partial(image().json()));
        }
        return new KafkaInput.Record(row.key(), JsonText.bytes(env));
    }

    private KafkaInput.Record ogg() {
        int k = random.nextInt(100);
        String op = k < 35 ? "I" : k < 70 ? "U" : "D";
        Image before = op.equals("I") ? null : image();
        Image after = op.equals("D") ? null : image();
        JsonText.Obj env = new JsonText.Obj()
                .put("table", JsonText.string("KJSON.ORDERS"))
                .put("op_type", JsonText.string(op))
                .put("op_ts", JsonText.string("2024-05-01 10:00:00.000000"))
                .put("current_ts", JsonText.string("2024-05-01T10:00:01.000000"))
                .put("pos", JsonText.string(String.format(Locale.ROOT, "%020d", ++sequence)));
        if (before != null) {
            env.put("before", before.json());
        }
        if (after != null) {
            env.put("after", after.json());
        }
        return new KafkaInput.Record((after != null ? after : before).key(), JsonText.bytes(env));
    }

    /** Canal's and maxwell's "old": some fields of the before image (possibly none). */
    private JsonText.Node partial(JsonText.Node image) {
        JsonText.Obj out = new JsonText.Obj();
        if (image instanceof JsonText.Obj obj) {
            for (JsonText.Member m : obj.members) {
                if (random.nextInt(3) == 0) {
                    out.members.add(new JsonText.Member(m.name, m.value));
                }
            }
        }
        return out;
    }

    private long timestamp() {
        return 1_700_000_000_000L + random.nextLong(100_000_000_000L);
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }
}
