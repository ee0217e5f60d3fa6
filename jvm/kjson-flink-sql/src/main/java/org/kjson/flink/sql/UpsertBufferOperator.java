package org.kjson.flink.sql;

import java.util.HashMap;
import java.util.Map;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * upsert-kafka's reducing buffer ({@code sink.buffer-flush.max-rows} and
 * {@code sink.buffer-flush.interval}) in front of kjson's encode operator, with the stock sink's
 * behaviour: per key only the latest row is kept (with its timestamp); the buffer is emitted when
 * it holds {@code maxRows} keys, when {@code intervalMillis} have passed since the last emission
 * (processing time), before every checkpoint barrier and at the end of input, so no row is
 * outside a checkpoint. A watermark does not emit it (nor does the stock sink's). The rows are
 * copied when object reuse is on, as the stock sink copies them.
 */
final class UpsertBufferOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final int[] keyPositions;
    /** The consumed rows: physical columns, then metadata columns. */
    private final RowType rowType;
    private final TypeInformation<RowData> rowTypeInfo;
    private final int maxRows;
    private final long intervalMillis;

    private transient Map<RowData, StreamRecord<RowData>> latestByKey;
    private transient TypeSerializer<RowData> copier;
    private transient RowData.FieldGetter[] keyGetters;
    private transient long lastEmitMillis;

    UpsertBufferOperator(UpsertBuffer buffer, RowType rowType, TypeInformation<RowData> rowTypeInfo) {
        this.keyPositions = buffer.keyPositions();
        this.rowType = rowType;
        this.rowTypeInfo = rowTypeInfo;
        this.maxRows = buffer.maxRows();
        this.intervalMillis = buffer.intervalMillis();
    }

    @Override
    public void open() throws Exception {
        super.open();
        latestByKey = new HashMap<>();
        copier = getExecutionConfig().isObjectReuseEnabled()
                ? rowTypeInfo.createSerializer(getExecutionConfig().getSerializerConfig())
                : null;
        keyGetters = new RowData.FieldGetter[keyPositions.length];
        for (int k = 0; k < keyPositions.length; k++) {
            keyGetters[k] = RowData.createFieldGetter(rowType.getTypeAt(keyPositions[k]), keyPositions[k]);
        }
        lastEmitMillis = getProcessingTimeService().getCurrentProcessingTime();
        scheduleEmit();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = copier == null ? element.getValue() : copier.copy(element.getValue());
        StreamRecord<RowData> kept = element.hasTimestamp() ? new StreamRecord<>(row, element.getTimestamp())
                : new StreamRecord<>(row);
        latestByKey.put(keyOf(row), kept);
        if (latestByKey.size() >= maxRows) {
            emitBuffer();
        }
    }

    private RowData keyOf(RowData row) {
        GenericRowData key = new GenericRowData(RowKind.INSERT, keyGetters.length);
        for (int k = 0; k < keyGetters.length; k++) {
            key.setField(k, keyGetters[k].getFieldOrNull(row));
        }
        return key;
    }

    /** One timer at a time, one interval after the last emission (whatever caused it). */
    private void scheduleEmit() {
        getProcessingTimeService().registerTimer(lastEmitMillis + intervalMillis, time -> {
            if (time >= lastEmitMillis + intervalMillis) {
                emitBuffer();
            }
            scheduleEmit();
        });
    }

    private void emitBuffer() {
        for (StreamRecord<RowData> record : latestByKey.values()) {
            output.collect(record);
        }
        latestByKey.clear();
        lastEmitMillis = getProcessingTimeService().getCurrentProcessingTime();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        emitBuffer();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() {
        emitBuffer();
    }

    @Override
    public void finish() throws Exception {
        emitBuffer();
        super.finish();
    }
}
