package org.kjson.flink.sql.support;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.types.Row;
import org.kjson.flink.sql.support.ScanRun.Result;

/**
 * Whether a kjson read gave what the stock read gave: the same rows in the same order (deep
 * equality, RowKinds included) and, where the stock read failed, a failure with the same
 * messages after the same rows. A failing record gives the emitter's "Failed to deserialize
 * consumer record due to", then (connector 3.4, Flink 1.20) a level naming the record, then the
 * format's message, which kjson gives with the parser's reason in the same message; a query
 * Flink refuses at planning gives Flink's message.
 */
public final class ScanComparison {
    private static final String EMITTER = "Failed to deserialize consumer record due to";
    private static final String RECORD_LEVEL = "Failed to deserialize consumer record ConsumerRecord(";

    private ScanComparison() {}

    /**
     * Null when the reads agree, else what differs. Where both failed, the rows of the shorter
     * read must begin the longer: the collect sink loses the rows a job emitted but had not
     * handed over when it failed, a number that differs from run to run.
     */
    public static String difference(Result stock, Result kjson) {
        boolean bothFailed = stock.failure() != null && kjson.failure() != null;
        int compared = Math.min(stock.rows().size(), kjson.rows().size());
        String rows = bothFailed ? rowDifference(stock.rows().subList(0, compared), kjson.rows().subList(0, compared))
                : rowDifference(stock.rows(), kjson.rows());
        if (rows != null) {
            return rows + "\n  stock failure:" + ScanRun.causes(stock.failure()) + "\n  kjson failure:"
                    + ScanRun.causes(kjson.failure());
        }
        if (stock.failure() == null) {
            return kjson.failure() == null ? null : "only kjson failed:" + ScanRun.causes(kjson.failure());
        }
        if (kjson.failure() == null) {
            return "only the stock read failed:" + ScanRun.causes(stock.failure());
        }
        return failureDifference(stock.failure(), kjson.failure());
    }

    private static String rowDifference(List<Row> stock, List<Row> kjson) {
        for (int i = 0; i < Math.min(stock.size(), kjson.size()); i++) {
            if (!stock.get(i).equals(kjson.get(i))) {
                return "row " + i + " differs:\n  stock " + stock.get(i) + "\n  kjson " + kjson.get(i);
            }
        }
        if (stock.size() != kjson.size()) {
            return "stock read " + stock.size() + " rows, kjson " + kjson.size() + " (the first "
                    + Math.min(stock.size(), kjson.size()) + " equal)";
        }
        return null;
    }

    private static String failureDifference(Throwable stock, Throwable kjson) {
        List<String> stockLevels = levels(stock);
        List<String> kjsonLevels = levels(kjson);
        if (stockLevels.isEmpty() != kjsonLevels.isEmpty()) {
            return "one read failed on a record, the other otherwise:\n  stock" + ScanRun.causes(stock)
                    + "\n  kjson" + ScanRun.causes(kjson);
        }
        if (stockLevels.isEmpty()) {
            String root = rootMessage(stock);
            boolean same = messages(kjson).stream().anyMatch(m -> m != null && m.contains(root));
            return same ? null : "different planning failures:\n  stock" + ScanRun.causes(stock) + "\n  kjson"
                    + ScanRun.causes(kjson);
        }
        for (int i = 0; i < stockLevels.size(); i++) {
            String expected = stockLevels.get(i);
            String actual = i < kjsonLevels.size() ? kjsonLevels.get(i) : "";
            if (!actual.startsWith(expected)) {
                return "different record failures:\n  stock " + expected + "\n  kjson " + actual;
            }
        }
        return null;
    }

    /**
     * The messages below the emitter's, the record level cut before the key and value (Flink
     * prints the arrays' identities there); empty when the failure is not a record's.
     */
    private static List<String> levels(Throwable failure) {
        List<String> levels = new ArrayList<>();
        Throwable t = failure;
        while (t != null && !EMITTER.equals(t.getMessage())) {
            t = t.getCause();
        }
        for (t = t == null ? null : t.getCause(); t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.startsWith(RECORD_LEVEL) && message.contains(", key = ")) {
                message = message.substring(0, message.indexOf(", key = "));
            }
            levels.add(message);
            if (!message.startsWith(RECORD_LEVEL)) {
                break; // the format's message; kjson has the parser's reason in it, Flink in a cause
            }
        }
        return levels;
    }

    private static List<String> messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(t.getMessage());
        }
        return messages;
    }

    private static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return String.valueOf(t.getMessage());
    }
}
