package org.kjson.flink;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.kjson.flink.support.RowDataPaths.Path;

/**
 * What a differential run saw: schemas compared and skipped (with Flink's reasons), records
 * compared per path, and the mismatches by class, each class with its counts per path and the
 * full text of its first example.
 */
final class DifferentialFindings {
    private static final int MAX_REPORTED_CLASSES = 12;

    private final long seed;
    private final long startNanos = System.nanoTime();
    private int schemas;
    private int skipped;
    private final Map<String, Integer> skipReasons = new TreeMap<>();
    private final Map<Path, Integer> compared = new EnumMap<>(Path.class);
    private int refusalsMatched;
    private final Map<String, Tally> mismatches = new LinkedHashMap<>();

    private static final class Tally {
        final Map<Path, Integer> counts = new EnumMap<>(Path.class);
        final String example;

        Tally(String example) {
            this.example = example;
        }

        int total() {
            return counts.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    DifferentialFindings(long seed) {
        this.seed = seed;
    }

    void schemaCompared() {
        schemas++;
    }

    int schemasCompared() {
        return schemas;
    }

    /** Flink's factory refused the DDL: not kjson's business, counted so generation can be tuned. */
    void skipped(Exception error) {
        skipped++;
        Throwable root = error;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String reason = String.valueOf(root.getMessage()).replaceAll("[0-9]+", "#");
        skipReasons.merge(reason.substring(0, Math.min(140, reason.length())), 1, Integer::sum);
    }

    void recordCompared(Path path) {
        compared.merge(path, 1, Integer::sum);
    }

    /** Both sides refused the same batch (a null map key under FAIL). */
    void refusalMatched() {
        refusalsMatched++;
    }

    /** {@code example} is asked for once per class, for the first mismatch of it. */
    void mismatch(String mismatchClass, Path path, Supplier<String> example) {
        Tally tally = mismatches.computeIfAbsent(mismatchClass, c -> new Tally(example.get()));
        tally.counts.merge(path, 1, Integer::sum);
    }

    boolean hasMismatches() {
        return !mismatches.isEmpty();
    }

    String summary() {
        StringBuilder out = new StringBuilder(String.format(
                "RowDataDifferentialTest seed %d: %d schemas compared, %d DDLs skipped (Flink refused them), records"
                        + " compared %s, %d refusals matched, %d mismatches in %d classes, %.1f s",
                seed, schemas, skipped, compared, refusalsMatched,
                mismatches.values().stream().mapToInt(Tally::total).sum(), mismatches.size(),
                (System.nanoTime() - startNanos) / 1e9));
        skipReasons.forEach((reason, count) -> out.append(String.format("%n  skipped %d: %s", count, reason)));
        mismatches.forEach((c, tally) -> out.append(String.format("%n  mismatch %s %s", tally.counts, c)));
        return out.toString();
    }

    /** The failure message: every class with its counts, and the first examples in full. */
    String report() {
        StringBuilder out = new StringBuilder(summary());
        out.append(String.format("%nrerun one seed with -Dkjson.seed=%d (and -Dkjson.diff.only=N for schema N)%n", seed));
        int shown = 0;
        for (Map.Entry<String, Tally> entry : mismatches.entrySet()) {
            if (shown++ == MAX_REPORTED_CLASSES) {
                out.append(String.format("%n(%d more classes)", mismatches.size() - MAX_REPORTED_CLASSES));
                break;
            }
            out.append(String.format("%n=== %s %s%n%s%n", entry.getKey(), entry.getValue().counts, entry.getValue().example));
        }
        return out.toString();
    }
}
