package org.kjson.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Runs {@link JniExercise} in a child JVM with {@code -Xcheck:jni}: no JNI warning may appear,
 * except the class-descriptor warnings that arrow-c-data's own JNI library prints when it loads
 * (it looks its classes up as {@code "Lorg/apache/arrow/...;"}); kjson never calls FindClass
 * with such descriptors.
 */
class CheckJniTest {
    private static final java.util.regex.Pattern ARROW_LOAD_WARNING = java.util.regex.Pattern.compile(
            "WARNING in native method: JNI FindClass received a bad class descriptor \"L(java/lang/Object|"
                    + "java/lang/RuntimeException|org/apache/arrow/c/[A-Za-z/$]+);\".*");

    @Test
    void nativeMethodsPassTheJniChecker() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("-Xcheck:jni");
        command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
        String nativePath = System.getProperty(NativeLibrary.PATH_PROPERTY);
        if (nativePath != null) {
            command.add("-D" + NativeLibrary.PATH_PROPERTY + "=" + nativePath);
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(JniExercise.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES));
        System.out.println("-Xcheck:jni child output:\n" + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("JniExercise OK"), output);
        for (String line : output.split("\n")) {
            boolean warning = line.contains("WARNING in native method") || line.contains("FATAL ERROR in native method")
                    || line.contains("JNI call made");
            assertFalse(warning && !ARROW_LOAD_WARNING.matcher(line).matches(), "JNI checker complaint: " + line + "\nin:\n" + output);
        }
    }
}
