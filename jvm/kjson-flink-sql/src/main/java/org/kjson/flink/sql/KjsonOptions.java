package org.kjson.flink.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.table.api.ValidationException;
import org.kjson.flink.NativeLibraryPolicy;

/** kjson's own table options: declared by the kjson factories, removed before the stock factory sees the table. */
final class KjsonOptions {
    /**
     * Required by default: a TaskManager image without a usable library (another platform, a
     * {@code noexec} temporary directory) fails at open, loudly, instead of running every job
     * at the stock connector's speed unnoticed. {@code fallback} is for where that is wanted, such
     * as a developer's MiniCluster on macOS or Windows.
     */
    static final ConfigOption<String> NATIVE = ConfigOptions.key("kjson.native")
            .stringType()
            .defaultValue(NativeLibraryPolicy.REQUIRED.optionValue())
            .withDescription("'required': a sink task fails at open where the native library cannot load;"
                    + " 'fallback': it then writes every record with Flink's own serializers (same bytes, stock speed),"
                    + " with one WARN line at open and the encoder kind 'flink' in the metrics.");

    static final List<ConfigOption<?>> ALL = all();
    /** Options under this prefix are kjson's: an unknown one is a typo, reported by kjson. */
    static final String PREFIX = "kjson.";

    private KjsonOptions() {}

    private static List<ConfigOption<?>> all() {
        List<ConfigOption<?>> all = new ArrayList<>(BatchOptions.ALL);
        all.add(NATIVE);
        return List.copyOf(all);
    }

    /** The keys of kjson's options, sorted, as messages list them. */
    static String keys() {
        return String.join(", ", ALL.stream().map(ConfigOption::key).sorted().toList());
    }

    /**
     * Every problem of the table's {@code kjson.*} options at once (an unknown key, a value out of
     * range), as one {@link ValidationException} that lists kjson's options.
     */
    static void validate(String tableName, String identifier, Map<String, String> options) {
        List<String> problems = new ArrayList<>();
        options.keySet().stream().filter(key -> key.startsWith(PREFIX))
                .filter(key -> ALL.stream().noneMatch(option -> option.key().equals(key))).sorted()
                .forEach(key -> problems.add("unknown option '" + key + "'"));
        for (ConfigOption<?> option : ALL) {
            String value = options.get(option.key());
            if (value != null) {
                try {
                    readOne(option, value, identifier);
                } catch (ValidationException e) {
                    problems.add(e.getMessage());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(String.format("Table '%s' with 'connector' = '%s' has %d invalid kjson"
                    + " option%s:%n  %s%nThe kjson options of '%s' are: %s.", tableName, identifier, problems.size(),
                    problems.size() > 1 ? "s" : "", String.join("\n  ", problems), identifier, keys()));
        }
    }

    private static void readOne(ConfigOption<?> option, String value, String identifier) {
        Map<String, String> alone = Map.of(option.key(), value);
        if (option == NATIVE) {
            nativePolicy(alone, identifier);
        } else {
            BatchOptions.read(alone, identifier);
        }
    }

    /** The table's {@code kjson.native}, or a {@link ValidationException} naming the option and its values. */
    static NativeLibraryPolicy nativePolicy(Map<String, String> options, String identifier) {
        String value = options.getOrDefault(NATIVE.key(), NATIVE.defaultValue());
        for (NativeLibraryPolicy policy : NativeLibraryPolicy.values()) {
            if (policy.optionValue().equals(value)) {
                return policy;
            }
        }
        throw new ValidationException(String.format("Option '%s' of '%s' must be '%s' or '%s', found '%s'.",
                NATIVE.key(), identifier, NativeLibraryPolicy.REQUIRED.optionValue(),
                NativeLibraryPolicy.FALLBACK.optionValue(), value));
    }
}
