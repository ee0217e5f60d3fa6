package org.kjson.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;

/** The process's resident set size from /proc/self/status (Linux). */
final class ResidentMemory {
    private ResidentMemory() {}

    static long kilobytes() throws IOException {
        for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException("no VmRSS line in /proc/self/status");
    }
}
