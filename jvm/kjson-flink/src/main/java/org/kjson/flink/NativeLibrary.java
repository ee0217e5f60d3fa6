package org.kjson.flink;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads {@code libkjson.so} once per class loader: from {@value #PATH_PROPERTY} if set,
 * otherwise from the copy packaged in this jar (linux-x86_64), extracted to a temporary file.
 *
 * <p>The JVM lets one class loader at a time hold a native library. In Flink, put the kjson jar
 * in {@code lib/} (parent-first) rather than in every job jar.
 */
final class NativeLibrary {
    /** Absolute path of another build of the library, e.g. {@code target/debug/libkjson.so}. */
    static final String PATH_PROPERTY = "kjson.native.path";

    static final String RESOURCE = "/org/kjson/flink/native/linux-x86_64/libkjson.so";

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
        Path path = override != null && !override.isEmpty()
                ? Paths.get(override).toAbsolutePath()
                : extractPackagedLibrary();
        try {
            System.load(path.toString());
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError wrapped = new UnsatisfiedLinkError("cannot load the kjson native library from " + path
                    + ": " + e.getMessage() + " (if another class loader loaded it already, put the kjson jar"
                    + " in Flink's lib/ folder instead of the job jar)");
            wrapped.initCause(e);
            throw wrapped;
        }
        return path.toString();
    }

    private static Path extractPackagedLibrary() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new UnsatisfiedLinkError("the kjson jar packages the native library for linux-x86_64 only, this is "
                    + os + "-" + arch + "; build it with cargo and set -D" + PATH_PROPERTY + "=/path/to/libkjson.so");
        }
        try (InputStream in = NativeLibrary.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("the kjson jar has no " + RESOURCE + " (built with -Dkjson.cargo.skip"
                        + " and no library?); set -D" + PATH_PROPERTY + "=/path/to/libkjson.so");
            }
            Path file = Files.createTempFile("libkjson-", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("cannot extract the kjson native library: " + e);
            error.initCause(e);
            throw error;
        }
    }
}
