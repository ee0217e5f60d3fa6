package org.kjson.flink;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Loads {@code libkjson.so} once per class loader: from {@value #PATH_PROPERTY} if set,
 * otherwise the copy packaged in this jar for the running platform ({@link NativePlatform}),
 * extracted by {@link ExtractedLibrary} (one content-addressed, verified copy per user, in
 * {@value ExtractedLibrary#EXTRACT_DIR_PROPERTY} or {@code java.io.tmpdir}).
 *
 * <p>The JVM lets one class loader at a time hold a native library. In Flink, put the kjson jar
 * in {@code lib/} (parent-first) rather than in every job jar.
 */
final class NativeLibrary {
    /** Absolute path of another build of the library, e.g. {@code target/debug/libkjson.so}. */
    static final String PATH_PROPERTY = "kjson.native.path";

    private static volatile String loadedFrom;

    private NativeLibrary() {}

    /** Where the library was loaded from; loads it first if needed. */
    static String load() {
        String from = loadedFrom;
        if (from != null) {
            return from;
        }
        synchronized (NativeLibrary.class) {
            if (loadedFrom == null) {
                loadedFrom = loadOnce();
            }
            return loadedFrom;
        }
    }

    private static String loadOnce() {
        String override = System.getProperty(PATH_PROPERTY);
        if (override != null && !override.isEmpty()) {
            Path path = Paths.get(override).toAbsolutePath();
            loadFile(path, "");
            return path.toString();
        }
        Path path = ExtractedLibrary.extract(packagedLibrary(), ExtractedLibrary.configuredBase());
        loadFile(path, "; if its directory is on a filesystem mounted noexec, set -D"
                + ExtractedLibrary.EXTRACT_DIR_PROPERTY + "=<a directory that allows executables>");
        return path.toString();
    }

    private static void loadFile(Path path, String hint) {
        try {
            System.load(path.toString());
        } catch (UnsatisfiedLinkError e) {
            String message = String.valueOf(e.getMessage());
            String glibc = message.contains("GLIBC_") ? "; this system's glibc is older than the library needs"
                    + " (released libraries need glibc 2.17 or newer)" : "";
            UnsatisfiedLinkError wrapped = new UnsatisfiedLinkError("cannot load the kjson native library from " + path
                    + " (platform " + NativePlatform.current() + "): " + message + glibc + hint + " (if another class"
                    + " loader loaded it already, put the kjson jar in Flink's lib/ folder instead of the job jar)");
            wrapped.initCause(e);
            throw wrapped;
        }
    }

    /** The bytes of this platform's packaged library. */
    private static byte[] packagedLibrary() {
        String platform = NativePlatform.requireSupported(NativePlatform.current());
        String resource = NativePlatform.resource(platform);
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("this kjson jar was built without the native library for " + platform
                        + " (no " + resource + "); use a release jar, which carries "
                        + String.join(" and ", NativePlatform.SUPPORTED) + ", or set -D" + PATH_PROPERTY
                        + "=/path/to/libkjson.so");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot read " + resource + " from the kjson jar: " + e);
            error.initCause(e);
            throw error;
        }
    }
}
