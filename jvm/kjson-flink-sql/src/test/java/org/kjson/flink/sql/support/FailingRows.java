package org.kjson.flink.sql.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Turns sequence numbers into {@link TestRows} and, once per run, fails the job: on subtask 0,
 * after the first checkpoint has completed and {@link #FAIL_AFTER_ROWS} rows have passed since
 * the last checkpoint barrier. Before throwing it pauses, so that the Kafka producer has sent the
 * records emitted since that barrier: a restore then replays rows whose records are already in
 * the topic (an aborted transaction under exactly-once, duplicates under at-least-once).
 *
 * <p>The run's state lives in a static map: the MiniCluster runs in this JVM and the flag must
 * survive the restart of the task.
 */
public final class FailingRows extends RichFlatMapFunction<Long, Row> implements CheckpointListener, CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    public static final long FAIL_AFTER_ROWS = 6_000;
    private static final long PAUSE_BEFORE_FAILURE_MS = 1_500;

    /** Which rows a sequence number stands for. */
    public enum Shape {
        APPEND,
        CHANGELOG
    }

    /** What happened in one run (read by the test afterwards). */
    public static final class Run {
        public final AtomicBoolean failed = new AtomicBoolean();
        public final AtomicLong completedCheckpoints = new AtomicLong();
        public final AtomicLong rowsEmitted = new AtomicLong();
        volatile boolean checkpointCompleted;
    }

    private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();

    private final Shape shape;
    private final String runId;
    private final boolean injectFailure;
    private transient long rowsSinceBarrier;

    public FailingRows(Shape shape, String runId, boolean injectFailure) {
        this.shape = shape;
        this.runId = runId;
        this.injectFailure = injectFailure;
    }

    /** Registers a fresh run (call before the job starts). */
    public static Run start(String runId) {
        Run run = new Run();
        RUNS.put(runId, run);
        return run;
    }

    public static List<Row> rows(Shape shape, long sequence) {
        return shape == Shape.APPEND ? TestRows.appendRows(sequence) : TestRows.changelogRows(sequence);
    }

    @Override
    public void flatMap(Long sequence, Collector<Row> out) throws Exception {
        maybeFail();
        List<Row> rows = rows(shape, sequence);
        rows.forEach(out::collect);
        rowsSinceBarrier += rows.size();
        run().rowsEmitted.addAndGet(rows.size());
    }

    private void maybeFail() throws InterruptedException {
        Run run = run();
        if (injectFailure && getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0 && run.checkpointCompleted
                && rowsSinceBarrier >= FAIL_AFTER_ROWS && run.failed.compareAndSet(false, true)) {
            Thread.sleep(PAUSE_BEFORE_FAILURE_MS);
            throw new IllegalStateException("injected failure after checkpoint " + run.completedCheckpoints.get());
        }
    }

    private Run run() {
        return RUNS.get(runId);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        rowsSinceBarrier = 0;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        rowsSinceBarrier = 0;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        Run run = run();
        run.completedCheckpoints.incrementAndGet();
        run.checkpointCompleted = true;
    }
}
