package org.kjson.flink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.kjson.flink.support.EveryRowDataPath;
import org.kjson.flink.support.StockKafkaSink;

/**
 * TIMESTAMP / TIMESTAMP_LTZ travel as Flink's (millis, nanos) pair, so years outside
 * 1677..2262 (the reach of nanoseconds in a long) are written as Flink writes them: in the
 * message key, at the top level, in a ROW field, an ARRAY item and a MAP value, in plain json
 * and in the four CDC envelopes, on every RowData path.
 */
class TimestampCarriageTest {
    static final String COLUMNS = "k TIMESTAMP(9), ts TIMESTAMP(9), lz TIMESTAMP_LTZ(7), ts8 TIMESTAMP(8),"
            + " r ROW<items ARRAY<ROW<ts TIMESTAMP(9), n INT>>>, a ARRAY<TIMESTAMP_LTZ(9)>,"
            + " m MAP<STRING, TIMESTAMP(9)>, ts3 TIMESTAMP(3), ts6 TIMESTAMP_LTZ(6)";

    /** {epoch millis, nano of milli}: the three values, the year 1, 9999 and near-limit, and ordinary ones. */
    static final long[][] INSTANTS = {
            {-62135596800000L, 0}, {253402300799999L, 999999}, {-9223372036855L, 0}, {-9223372036855L, 1},
            {9223372036855L, 0}, {-62135596800000L, 123400}, {253402300799999L, 0}, {0, 0}, {-1, 999999},
            {1_700_000_000_123L, 456789}, {-30_000_000_000_000L, 5}, {-1, 0}};

    /** The instant with the digits a TIMESTAMP(precision) holds (precision 3..9). */
    static TimestampData at(long[] instant, int precision) {
        int unit = (int) Math.pow(10, 9 - precision);
        return TimestampData.fromEpochMillis(instant[0], (int) instant[1] / unit * unit);
    }

    static List<RowData> rows() {
        RowKind[] kinds = RowKind.values();
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < INSTANTS.length; i++) {
            long[] t = INSTANTS[i];
            Map<Object, Object> m = new LinkedHashMap<>();
            m.put(StringData.fromString("k"), at(t, 9));
            m.put(StringData.fromString("n"), null);
            GenericArrayData items = new GenericArrayData(new Object[] {GenericRowData.of(at(t, 9), i), null,
                    GenericRowData.of(null, i)});
            GenericRowData row = GenericRowData.of(at(t, 9), at(t, 9), at(t, 7), at(t, 8), GenericRowData.of(items),
                    new GenericArrayData(new Object[] {at(t, 9), null}), new GenericMapData(m), at(t, 3), at(t, 6));
            row.setRowKind(kinds[i % kinds.length]);
            rows.add(row);
            rows.add(GenericRowData.ofKind(kinds[(i + 1) % kinds.length], null, null, null, null, null, null, null, null, null));
        }
        return rows;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"json", "debezium-json", "canal-json", "maxwell-json", "ogg-json"})
    void farYearsMatchStockFlinkOnEveryPath(String format) throws Exception {
        StockKafkaSink stock = StockKafkaSink.create("CREATE TABLE far_ts_" + format.replace('-', '_') + " (" + COLUMNS
                + ") WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'key.format' = 'json', 'key.fields' = 'k', 'value.format' = '" + format + "')");
        new EveryRowDataPath(stock).assertMatchesStock(TimestampCarriageTest::rows);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SQL", "ISO-8601"})
    void farYearsInBothTimestampStandards(String standard) throws Exception {
        StockKafkaSink stock = StockKafkaSink.create("CREATE TABLE far_ts_std_" + standard.replace('-', '_') + " ("
                + COLUMNS + ") WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json', 'json.timestamp-format.standard' = '" + standard + "')");
        new EveryRowDataPath(stock).assertMatchesStock(TimestampCarriageTest::rows);
    }
}
