package org.kjson.flink.sql;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.ValidationException;
import org.kjson.flink.BatchSettings;

/** kjson's own table options (the stock factory never sees them), read into {@link BatchSettings}. */
final class BatchOptions {
    static final ConfigOption<Integer> BATCH_ROWS = ConfigOptions.key("kjson.batch-rows")
            .intType()
            .defaultValue(BatchSettings.DEFAULT_ROWS)
            .withDescription("Rows buffered per native encode call; the interval, a checkpoint barrier, a"
                    + " watermark or the end of input flushes earlier.");

    static final ConfigOption<Duration> BATCH_INTERVAL = ConfigOptions.key("kjson.batch-interval")
            .durationType()
            .defaultValue(BatchSettings.DEFAULT_INTERVAL)
            .withDescription("Longest time a row waits in a partial batch before it is encoded and sent"
                    + " (processing time); 0 turns the timer off.");

    static final ConfigOption<MemorySize> ARROW_MEMORY_LIMIT = ConfigOptions.key("kjson.arrow-memory-limit")
            .memoryType()
            .noDefaultValue()
            .withDescription("Most off-heap memory the Arrow buffers of one sink subtask may hold; default 16 KiB"
                    + " per row of kjson.batch-rows, at least 64 MiB. A batch that needs more fails the job.");

    static final List<ConfigOption<?>> ALL = List.of(BATCH_ROWS, BATCH_INTERVAL, ARROW_MEMORY_LIMIT);

    private BatchOptions() {}

    /** The settings of a table, or a {@link ValidationException} naming the option and its value. */
    static BatchSettings read(Map<String, String> options, String identifier) {
        Configuration config = Configuration.fromMap(options);
        BatchSettings batching = BatchSettings.ofRows(positive(BATCH_ROWS, options, identifier, () -> config.get(BATCH_ROWS)));
        batching = batching.withInterval(valid(BATCH_INTERVAL, options, identifier, "a duration such as '200 ms' or '0'",
                () -> checked(config.get(BATCH_INTERVAL), !config.get(BATCH_INTERVAL).isNegative())));
        if (options.containsKey(ARROW_MEMORY_LIMIT.key())) {
            MemorySize limit = valid(ARROW_MEMORY_LIMIT, options, identifier, "a positive memory size such as '256 mb'",
                    () -> checked(config.get(ARROW_MEMORY_LIMIT), config.get(ARROW_MEMORY_LIMIT).getBytes() > 0));
            batching = batching.withArrowMemoryLimit(limit.getBytes());
        }
        return batching;
    }

    private static int positive(ConfigOption<Integer> option, Map<String, String> options, String identifier,
            java.util.function.Supplier<Integer> value) {
        return valid(option, options, identifier, "a positive integer", () -> checked(value.get(), value.get() > 0));
    }

    private static <T> T checked(T value, boolean ok) {
        if (!ok) {
            throw new IllegalArgumentException("out of range");
        }
        return value;
    }

    private static <T> T valid(ConfigOption<?> option, Map<String, String> options, String identifier, String expected,
            java.util.function.Supplier<T> value) {
        try {
            return value.get();
        } catch (IllegalArgumentException e) {
            throw new ValidationException(String.format("Option '%s' of '%s' must be %s, found '%s'.", option.key(),
                    identifier, expected, options.get(option.key())));
        }
    }
}
