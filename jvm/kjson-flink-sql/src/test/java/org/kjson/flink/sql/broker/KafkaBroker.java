package org.kjson.flink.sql.broker;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Uuid;

/**
 * A real Apache Kafka broker (the {@code kafka_2.13} server from Maven Central) in KRaft mode,
 * one node acting as broker and controller, run as a child JVM on 127.0.0.1 with two ephemeral
 * ports and a temporary log directory. A child process keeps the broker's threads, heap and
 * Scala runtime apart from the Flink MiniCluster under test, and {@link #close()} (or JVM exit)
 * stops it and deletes the directory.
 */
public final class KafkaBroker implements AutoCloseable {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private final Path directory;
    private final Process process;
    private final String bootstrapServers;
    private final Thread shutdownHook;

    private KafkaBroker(Path directory, Process process, String bootstrapServers) {
        this.directory = directory;
        this.process = process;
        this.bootstrapServers = bootstrapServers;
        this.shutdownHook = new Thread(this::stopProcess, "kafka-broker-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Formats a fresh log directory, starts the broker and waits until it answers. */
    public static KafkaBroker start() throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("kjson-kafka-broker");
        int brokerPort = freePort();
        int controllerPort = freePort();
        Path config = directory.resolve("server.properties");
        Files.writeString(config, serverProperties(directory.resolve("logs"), brokerPort, controllerPort),
                StandardCharsets.UTF_8);
        Path log = directory.resolve("broker.log");
        String clusterId = Uuid.randomUuid().toString();
        Process format = java("kafka.tools.StorageTool", log, "format", "-t", clusterId, "-c", config.toString());
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IOException("formatting the Kafka log directory failed:\n" + tail(log));
        }
        Process server = java("kafka.Kafka", log, config.toString());
        KafkaBroker broker = new KafkaBroker(directory, server, "127.0.0.1:" + brokerPort);
        try {
            broker.awaitReady();
        } catch (IOException | RuntimeException e) {
            broker.close();
            throw e;
        }
        return broker;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** Creates a topic (replication factor 1) and waits until it exists. */
    public void createTopic(String name, int partitions) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(60, TimeUnit.SECONDS);
            awaitLeaders(admin, name);
        }
    }

    /**
     * Waits until every partition of the topic has a leader: on a loaded machine a producer that
     * starts sooner can queue a partition's records until they expire.
     */
    private static void awaitLeaders(Admin admin, String topic) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Object last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get(topic);
                if (description.partitions().stream().allMatch(partition -> partition.leader() != null
                        && !partition.leader().isEmpty())) {
                    return;
                }
                last = description;
            } catch (ExecutionException e) {
                // The topic's metadata may not have reached the broker's cache yet.
                last = e.getCause();
            }
            Thread.sleep(100);
        }
        throw new IOException("topic " + topic + " has partitions without a leader after 60 s: " + last);
    }

    /** The last lines of the broker's own log (warnings and errors), for a failure's message. */
    public String logTail() {
        return tail(directory.resolve("broker.log"));
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000));
    }

    @Override
    public void close() {
        stopProcess();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
        deleteRecursively(directory);
    }

    private void stopProcess() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the Kafka broker exited with " + process.exitValue() + ":\n" + tail(directory.resolve("broker.log")));
            }
            try (Admin admin = admin()) {
                if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            Thread.sleep(200);
        }
        throw new IOException("the Kafka broker did not answer within " + STARTUP_TIMEOUT + ":\n"
                + tail(directory.resolve("broker.log")), last);
    }

    /** Single-node KRaft (broker and controller in one process), loopback only, sized for 2 cores. */
    private static String serverProperties(Path logDirectory, int brokerPort, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", logDirectory.toString());
        p.setProperty("num.partitions", "1");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        // Flink's KafkaSink defaults transaction.timeout.ms to one hour.
        p.setProperty("transaction.max.timeout.ms", "3600000");
        p.setProperty("num.network.threads", "2");
        p.setProperty("num.io.threads", "2");
        p.setProperty("log.flush.interval.messages", Long.toString(Long.MAX_VALUE));
        // Tests write record timestamps years in the past (metadata columns): time-based retention
        // would delete those segments during a run (the check runs every 5 minutes), so keep all.
        p.setProperty("log.retention.ms", "-1");
        StringBuilder text = new StringBuilder();
        p.stringPropertyNames().stream().sorted().forEach(k -> text.append(k).append('=').append(p.getProperty(k)).append('\n'));
        return text.toString();
    }

    private static Process java(String mainClass, Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xms256m", "-Xmx768m", "-XX:+UseG1GC", "-Djava.awt.headless=true",
                "-Dlog4j2.level=WARN", "-cp", classpath(), mainClass));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    /**
     * The test classpath (it holds the kafka_2.13 server jars), or the one in the file named by
     * {@code kjson.test.broker.classpath.file}: a Flink line whose Kafka client is older than the
     * broker's starts the broker with the newer line's classpath.
     */
    private static String classpath() throws IOException {
        String file = System.getProperty("kjson.test.broker.classpath.file");
        if (file != null && !file.isBlank()) {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
        }
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException ignored) {
            // a temp directory left behind is harmless
        }
    }
}
