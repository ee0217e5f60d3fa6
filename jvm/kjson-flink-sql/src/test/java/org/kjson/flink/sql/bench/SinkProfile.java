package org.kjson.flink.sql.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where the sink task thread spent its time, from the JFR samples of one run: Java execution
 * samples plus native method samples (the JNI encode call and parked waits run in native code,
 * which the execution sampler skips). Each sample of a thread whose name holds the sink writer
 * is put in the category of its innermost frame that matches one (so JSON code called by the
 * serializer counts as serialization, not as the Kafka sink that called it). Also counts the
 * Kafka producer I/O thread's samples.
 */
final class SinkProfile {
    /** Category name -> class/method prefixes, checked leaf first. */
    private static final Map<String, List<String>> CATEGORIES = new LinkedHashMap<>();

    static {
        CATEGORIES.put("kjson native encode (JNI)", List.of("org.kjson.flink.NativeJsonEncoder.encodeTo"));
        CATEGORIES.put("Kafka producer: waiting for accumulator memory", List.of(
                "org.apache.kafka.clients.producer.internals.BufferPool"));
        CATEGORIES.put("idle: waiting for input (mailbox)", List.of("org.apache.flink.streaming.runtime.tasks.mailbox.TaskMailboxImpl.take",
                "org.apache.flink.streaming.runtime.io.AvailabilityProvider", "CompletableFuture.get"));
        CATEGORIES.put("kjson RowData->Arrow batching", List.of("org.kjson.flink.arrow.", "org.apache.arrow."));
        CATEGORIES.put("kjson record copies + emit", List.of("org.kjson.flink.EncodedBatch", "org.kjson.flink.EncodingOperator"));
        CATEGORIES.put("stock json serialization (Jackson)", List.of("org.apache.flink.formats.json.",
                "org.apache.flink.shaded.jackson2.", "org.apache.flink.formats.common."));
        CATEGORIES.put("stock projection/record serializer", List.of(
                "org.apache.flink.streaming.connectors.kafka.table.DynamicKafkaRecordSerializationSchema"));
        CATEGORIES.put("Kafka producer send (accumulator, waits)", List.of("org.apache.kafka.clients.producer."));
        CATEGORIES.put("Kafka sink writer", List.of("org.apache.flink.connector.kafka.sink."));
        CATEGORIES.put("Nexmark source generator", List.of("org.kjson.flink.sql.bench.NexmarkBids",
                "org.apache.flink.connector.datagen.", "java.util.SplittableRandom", "java.lang.StrictMath"));
        CATEGORIES.put("rank / calc (planner operators)", List.of("org.apache.flink.table.runtime.operators.",
                "org.apache.flink.table.runtime.generated.", "StreamExecCalc", "Calc$", "org.apache.flink.runtime.state."));
        CATEGORIES.put("Flink copies between chained operators (object reuse off; incl. UTF-8 of source strings)", List.of(
                "org.apache.flink.runtime.io.", "org.apache.flink.table.runtime.typeutils.",
                "org.apache.flink.api.common.typeutils."));
    }

    private final Map<String, Integer> byCategory = new TreeMap<>();
    private final Map<String, Integer> byLeafMethod = new TreeMap<>();
    private int sinkSamples;
    private int producerIoSamples;
    /** Time the sink thread parked in the producer's BufferPool (jdk.ThreadPark, 1 ms and longer). */
    private long accumulatorParkedNanos;

    static SinkProfile read(Path recording) throws IOException {
        SinkProfile profile = new SinkProfile();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            String type = event.getEventType().getName();
            if (type.equals("jdk.ExecutionSample") || type.equals("jdk.NativeMethodSample")) {
                profile.add(event);
            } else if (type.equals("jdk.ThreadPark")) {
                profile.addPark(event);
            }
        }
        return profile;
    }

    private void add(RecordedEvent event) {
        String thread = event.getThread("sampledThread") == null ? "" : event.getThread("sampledThread").getJavaName();
        if (thread == null) {
            return;
        }
        if (thread.startsWith("kafka-producer-network-thread")) {
            producerIoSamples++;
            return;
        }
        if (!thread.contains("Writer")) {
            return;
        }
        RecordedStackTrace stack = event.getStackTrace();
        if (stack == null || stack.getFrames().isEmpty()) {
            return;
        }
        sinkSamples++;
        byLeafMethod.merge(frameName(stack.getFrames().get(0)), 1, Integer::sum);
        byCategory.merge(category(stack.getFrames()), 1, Integer::sum);
    }

    /** Samples miss parked threads; park events (1 ms and longer) show the waits. */
    private void addPark(RecordedEvent event) {
        String thread = event.getThread() == null ? null : event.getThread().getJavaName();
        if (thread == null || !thread.contains("Writer") || event.getStackTrace() == null) {
            return;
        }
        long nanos = event.getDuration().toNanos();
        if (event.getStackTrace().getFrames().stream().anyMatch(f -> frameName(f).contains("BufferPool"))) {
            accumulatorParkedNanos += nanos;
        }
    }

    private static String category(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) {
            String name = frameName(frame);
            for (Map.Entry<String, List<String>> category : CATEGORIES.entrySet()) {
                if (category.getValue().stream().anyMatch(name::contains)) {
                    return category.getKey();
                }
            }
        }
        return "other (Flink task loop, JDK)";
    }

    private static String frameName(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    /** Lines for the report: category shares, the top leaf methods, the producer I/O thread. */
    List<String> summary(int topMethods) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format("sink task thread: %d samples; Kafka producer I/O thread: %d samples; sink thread parked"
                + " %.1f s waiting for accumulator memory (BufferPool, parks of 1 ms and longer)", sinkSamples,
                producerIoSamples, accumulatorParkedNanos / 1e9));
        byCategory.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> lines.add(String.format("  %5.1f%%  %s", percent(e.getValue()), e.getKey())));
        lines.add("  top leaf methods: " + byLeafMethod.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(topMethods)
                .map(e -> String.format("%s %.1f%%", e.getKey(), percent(e.getValue())))
                .collect(Collectors.joining(", ")));
        return lines;
    }

    private double percent(int samples) {
        return sinkSamples == 0 ? 0 : 100.0 * samples / sinkSamples;
    }
}
