package org.kjson.flink;

import java.io.Serializable;
import java.time.Duration;

/**
 * How {@link RowDataEncodeOperator} batches rows: at most {@link #rows()} rows per native call,
 * held at most {@link #interval()} before they are encoded and sent, in Arrow buffers of at most
 * {@link #arrowMemoryLimit()} bytes. Immutable; the table options {@code kjson.batch-rows},
 * {@code kjson.batch-interval} and {@code kjson.arrow-memory-limit} set the same values.
 */
public final class BatchSettings implements Serializable {
    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_ROWS = 4096;
    /** Short enough to be unnoticed next to Kafka's own latency, long enough to batch a busy stream. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(200);
    /** The derived Arrow limit allows this much per buffered row (vectors grow by doubling)... */
    static final long DERIVED_BYTES_PER_ROW = 16 << 10;
    /** ...and never less than this, so small batches of wide rows still fit. */
    static final long DERIVED_MINIMUM_BYTES = 64 << 20;

    private final int rows;
    private final Duration interval;
    /** 0: derived from {@link #rows}. */
    private final long arrowMemoryLimit;

    private BatchSettings(int rows, Duration interval, long arrowMemoryLimit) {
        if (rows < 1) {
            throw new IllegalArgumentException("batch rows must be positive, got " + rows);
        }
        if (interval.isNegative()) {
            throw new IllegalArgumentException("batch interval must not be negative, got " + interval);
        }
        if (arrowMemoryLimit < 0) {
            throw new IllegalArgumentException("Arrow memory limit must be positive, got " + arrowMemoryLimit);
        }
        this.rows = rows;
        this.interval = interval;
        this.arrowMemoryLimit = arrowMemoryLimit;
    }

    /** The defaults: 4096 rows, 200 ms, the derived Arrow limit (64 MiB). */
    public static BatchSettings defaults() {
        return ofRows(DEFAULT_ROWS);
    }

    /** {@code rows} per batch, the default interval and the Arrow limit derived from {@code rows}. */
    public static BatchSettings ofRows(int rows) {
        return new BatchSettings(rows, DEFAULT_INTERVAL, 0);
    }

    /** Zero turns the timer off: rows then wait for a full batch, a checkpoint, a watermark or the end. */
    public BatchSettings withInterval(Duration interval) {
        return new BatchSettings(rows, interval, arrowMemoryLimit);
    }

    public BatchSettings withArrowMemoryLimit(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("Arrow memory limit must be positive, got " + bytes);
        }
        return new BatchSettings(rows, interval, bytes);
    }

    public int rows() {
        return rows;
    }

    public Duration interval() {
        return interval;
    }

    /** The set limit, or 16 KiB per row of {@link #rows()} and at least 64 MiB. */
    public long arrowMemoryLimit() {
        return arrowMemoryLimit > 0 ? arrowMemoryLimit : derivedArrowMemoryLimit(rows);
    }

    public boolean arrowMemoryLimitDerived() {
        return arrowMemoryLimit == 0;
    }

    static long derivedArrowMemoryLimit(int rows) {
        return Math.max(DERIVED_MINIMUM_BYTES, rows * DERIVED_BYTES_PER_ROW);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BatchSettings b && b.rows == rows && b.interval.equals(interval)
                && b.arrowMemoryLimit == arrowMemoryLimit;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(rows, interval, arrowMemoryLimit);
    }

    /** As the table options spell them, e.g. for the log line at open. */
    @Override
    public String toString() {
        return "kjson.batch-rows=" + rows + ", kjson.batch-interval=" + interval.toMillis() + " ms"
                + (interval.isZero() ? " (off)" : "") + ", kjson.arrow-memory-limit=" + arrowMemoryLimit() + " bytes"
                + (arrowMemoryLimitDerived() ? " (derived)" : "");
    }
}
