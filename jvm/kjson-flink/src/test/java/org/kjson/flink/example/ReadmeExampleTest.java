package org.kjson.flink.example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;

/** The README's job example is this package's BidsToKafka, which compiles with the module. */
class ReadmeExampleTest {
    @Test
    void readmeShowsTheCompiledExample() throws Exception {
        String readme = Files.readString(Paths.get("README.md"));
        String example = Files.readString(Paths.get("src/test/java/org/kjson/flink/example/BidsToKafka.java"));
        String body = example.substring(example.indexOf("import java.util.List;"));
        assertTrue(readme.contains(body), "README.md and BidsToKafka.java differ");
    }
}
