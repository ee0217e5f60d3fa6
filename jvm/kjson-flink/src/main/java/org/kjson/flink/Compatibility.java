package org.kjson.flink;

import java.io.Serializable;
import java.util.Objects;

/**
 * What the encoder reproduces: the Flink line whose bytes differ by release (TIME fractions,
 * plain decimals) and the JVM's float spelling ({@code Float/Double.toString} changed in JDK 19).
 */
public final class Compatibility implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Flink lines the encoder knows: {@code 1.20}, {@code 2.2}, {@code 2.3}. */
    private final String flinkVersion;
    /** {@code jdk17} (JDK 18 and older) or {@code jdk19} (JDK 19 and newer). */
    private final String floatSpelling;

    public Compatibility(String flinkVersion, String floatSpelling) {
        this.flinkVersion = Objects.requireNonNull(flinkVersion, "flinkVersion");
        this.floatSpelling = Objects.requireNonNull(floatSpelling, "floatSpelling");
    }

    /** The Flink running this code and the JVM running it. */
    public static Compatibility ofRunningFlink() {
        return new Compatibility(flinkLine(runningFlinkVersion()), floatSpelling(Runtime.version().feature()));
    }

    /** {@code 2.2.0 -> 2.2}: 1.x maps to 1.20, 2.0 to 2.2 to 2.2 (no byte difference known), 2.3 and later to 2.3. */
    public static String flinkLine(String version) {
        String[] parts = version.split("[.-]");
        int major = parseOr(parts, 0, 2);
        int minor = parseOr(parts, 1, 2);
        if (major < 2) {
            return "1.20";
        }
        return major == 2 && minor <= 2 ? "2.2" : "2.3";
    }

    public static String floatSpelling(int javaFeatureVersion) {
        return javaFeatureVersion >= 19 ? "jdk19" : "jdk17";
    }

    private static int parseOr(String[] parts, int index, int fallback) {
        try {
            return Integer.parseInt(parts[index]);
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    private static String runningFlinkVersion() {
        String version = org.apache.flink.runtime.util.EnvironmentInformation.getVersion();
        // Outside a Flink distribution (an IDE, a shaded jar without Flink's version file) the
        // version is unknown; the compiled-against line is the best guess.
        return version == null || version.startsWith("<") ? "2.2.0" : version;
    }

    public String flinkVersion() {
        return flinkVersion;
    }

    public String floatSpelling() {
        return floatSpelling;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Compatibility c && c.flinkVersion.equals(flinkVersion) && c.floatSpelling.equals(floatSpelling);
    }

    @Override
    public int hashCode() {
        return Objects.hash(flinkVersion, floatSpelling);
    }

    @Override
    public String toString() {
        return "Flink " + flinkVersion + ", " + floatSpelling;
    }
}
