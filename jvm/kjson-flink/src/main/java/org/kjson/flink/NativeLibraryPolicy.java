package org.kjson.flink;

import java.util.Locale;

/**
 * What an encode operator does when its task opens where the native library cannot load (a
 * platform kjson ships no library for, a {@code noexec} extraction directory). The table option
 * {@code kjson.native} spells the values in lower case.
 */
public enum NativeLibraryPolicy {
    /** The task fails at open with the loader's message: a job never runs slower than expected unseen. */
    REQUIRED,
    /**
     * Flink's own serializers write every record, as the stock connector would, with one WARN
     * line at open and the encoder kind {@code flink} in the metrics.
     */
    FALLBACK;

    /** As the table option spells it. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
