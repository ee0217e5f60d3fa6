package org.kjson.flink;

import java.util.List;
import java.util.Locale;

/**
 * The platforms whose native library the kjson jars carry, named {@code <os>-<arch>} as the
 * resource directories are: {@code /org/kjson/flink/native/<platform>/libkjson.so}.
 */
final class NativePlatform {
    static final List<String> SUPPORTED = List.of("linux-x86_64", "linux-aarch64");

    private NativePlatform() {}

    /** The running JVM's platform, e.g. {@code linux-x86_64}. */
    static String current() {
        return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
    }

    /** {@code os.name} / {@code os.arch} as the JVM reports them, normalized. */
    static String of(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT).replace(" ", "");
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64", "x86-64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> osArch.toLowerCase(Locale.ROOT);
        };
        if (os.startsWith("linux")) {
            os = "linux";
        } else if (os.startsWith("macosx") || os.startsWith("mac")) {
            os = "macos";
        } else if (os.startsWith("windows")) {
            os = "windows";
        }
        return os + "-" + arch;
    }

    /** The jar resource of the library for {@code platform}. */
    static String resource(String platform) {
        return "/org/kjson/flink/native/" + platform + "/libkjson.so";
    }

    /** The platform if the jars carry a library for it; otherwise an error naming both. */
    static String requireSupported(String platform) {
        if (!SUPPORTED.contains(platform)) {
            throw new UnsatisfiedLinkError("kjson has no native library for platform " + platform + " (the jar carries "
                    + String.join(", ", SUPPORTED) + "); build libkjson.so for it with cargo and set -D"
                    + NativeLibrary.PATH_PROPERTY + "=/path/to/libkjson.so");
        }
        return platform;
    }
}
