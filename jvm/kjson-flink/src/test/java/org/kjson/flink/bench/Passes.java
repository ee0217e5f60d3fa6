package org.kjson.flink.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;

/** The benchmarks' timing: warmup, interleaved passes, medians, and the choice of clock. */
final class Passes {
    private Passes() {}

    record Timing(double medianSeconds, double[] all) {}

    /**
     * {@code -Dkjson.bench.clock=cpu} times passes with this thread's CPU time instead of the wall
     * clock: on a machine shared with other jobs it leaves out the time spent waiting for a core
     * (it also leaves out GC threads, so allocation-heavy contenders look a little faster).
     */
    static final boolean CPU_CLOCK = "cpu".equals(System.getProperty("kjson.bench.clock"));
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static long now() {
        return CPU_CLOCK ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    static String clockName() {
        return CPU_CLOCK ? "thread CPU" : "wall";
    }

    /**
     * Warms each contender up for 3 s, then times their passes in turn (one pass of each per
     * round), so a change in the machine's load during the run reaches every contender alike and
     * the same-run ratios hold.
     */
    static Timing[] measure(List<Runnable> contenders, int passes) {
        for (Runnable pass : contenders) {
            long warmupEnd = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < warmupEnd) {
                pass.run();
            }
        }
        double[][] seconds = new double[contenders.size()][passes];
        for (int p = 0; p < passes; p++) {
            for (int c = 0; c < contenders.size(); c++) {
                long start = now();
                contenders.get(c).run();
                seconds[c][p] = (now() - start) / 1e9;
            }
        }
        Timing[] timings = new Timing[contenders.size()];
        for (int c = 0; c < timings.length; c++) {
            double[] sorted = seconds[c].clone();
            Arrays.sort(sorted);
            timings[c] = new Timing(sorted[passes / 2], seconds[c]);
        }
        return timings;
    }
}
