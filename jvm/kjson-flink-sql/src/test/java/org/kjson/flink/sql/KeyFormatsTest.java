package org.kjson.flink.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.kjson.flink.sql.support.FailingRows;
import org.kjson.flink.sql.support.FailoverScenario;
import org.kjson.flink.sql.support.TestRows;

/**
 * Keys in formats kjson does not encode (Flink's {@code raw} and {@code csv}) next to a json
 * value that kjson encodes natively: Flink's own serializer of the key format writes the key,
 * and a read_committed consumer reads exactly the records of the stock connector (same key
 * bytes, so the same partitions under the default partitioner).
 */
class KeyFormatsTest {
    static final long ROWS = 3_000;
    static final double ROWS_PER_SECOND = 1_500;

    /** A nullable STRING key in UTF-16LE (raw writes a null key for a null column), the value without it. */
    static final String RAW_STRING_KEY_DDL = AppendSinkTest.DDL
            .replace("k_id BIGINT", "id BIGINT").replace("k_region STRING", "region STRING")
            .replace("'key.format' = 'json',\n  'key.fields' = 'k_id;k_region',\n  'key.fields-prefix' = 'k_',",
                    "'key.format' = 'raw',\n  'key.fields' = 'name',\n  'key.raw.charset' = 'UTF-16LE',");

    /** A BIGINT key, little-endian, the value with every column. */
    static final String RAW_BIGINT_KEY_DDL = RAW_STRING_KEY_DDL
            .replace("'key.fields' = 'name',\n  'key.raw.charset' = 'UTF-16LE',",
                    "'key.fields' = 'id',\n  'key.raw.endianness' = 'little-endian',")
            .replace("'value.fields-include' = 'EXCEPT_KEY'", "'value.fields-include' = 'ALL'");

    /** Two key columns with the key prefix, in csv with its own delimiter. */
    static final String CSV_KEY_DDL = AppendSinkTest.DDL
            .replace("'key.format' = 'json',", "'key.format' = 'csv',\n  'key.csv.field-delimiter' = '|',");

    /** The upsert table keyed by its primary key (id, region) in csv: deletions are tombstones with csv keys. */
    static final String UPSERT_CSV_KEY_DDL = UpsertSinkTest.DDL.replace("'key.format' = 'json',", "'key.format' = 'csv',");

    @Test
    void rawStringKeyWithCharsetAndNullKeys() throws Exception {
        FailoverScenario result = append("raw-string-key", RAW_STRING_KEY_DDL);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertTrue(result.seen.stream().anyMatch(r -> r.key() == null), "some names are null: null keys expected");
    }

    @Test
    void rawBigintKeyLittleEndian() throws Exception {
        FailoverScenario result = append("raw-bigint-key", RAW_BIGINT_KEY_DDL);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertTrue(result.seen.stream().allMatch(r -> r.key().length == Long.BYTES), "8-byte keys");
    }

    /** With a failure after the first checkpoint: the keys of the replayed batches are written again, once. */
    @Test
    void csvKeyWithPrefixExactlyOnceAcrossFailover() throws Exception {
        // Fast enough that FailingRows.FAIL_AFTER_ROWS pass between two checkpoint barriers.
        FailoverScenario result = FailoverScenario.run("csv-key", CSV_KEY_DDL, "kjson-kafka", "kafka", "exactly-once",
                FailingRows.Shape.APPEND, 80_000, 40_000, FailoverScenario.Path.SQL, true);
        System.out.println(result);
        assertTrue(result.run.failed.get(), "the failure was not injected: " + result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
    }

    @Test
    void upsertCsvKeyWithTombstones() throws Exception {
        long groups = 1_000;
        FailoverScenario result = FailoverScenario.run("upsert-csv-key", UPSERT_CSV_KEY_DDL, "kjson-upsert-kafka",
                "upsert-kafka", "exactly-once", FailingRows.Shape.CHANGELOG, groups, 1_000,
                FailoverScenario.Path.RUNTIME_PROVIDER, false);
        System.out.println(result);
        assertTrue(result.audit.exactlyOnce(), result::toString);
        assertEquals(TestRows.changelogRowCount(groups), result.audit.seen, "one record per changelog row");
        List<String> outOfOrder = result.audit.keysOutOfOrder();
        assertTrue(outOfOrder.isEmpty(), "keys whose records are out of order: " + outOfOrder);
        assertTrue(result.seen.stream().anyMatch(r -> r.value() == null), "-U and -D rows are tombstones");
    }

    private static FailoverScenario append(String runId, String ddl) throws Exception {
        FailoverScenario result = FailoverScenario.run(runId, ddl, "kjson-kafka", "kafka", "exactly-once",
                FailingRows.Shape.APPEND, ROWS, ROWS_PER_SECOND, FailoverScenario.Path.SQL, false);
        System.out.println(result);
        return result;
    }
}
