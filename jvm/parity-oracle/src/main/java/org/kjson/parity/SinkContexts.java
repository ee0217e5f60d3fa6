package org.kjson.parity;

import java.util.Optional;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/** The small runtime contexts the planner and the sink writer would normally provide. */
final class SinkContexts {

    private SinkContexts() {}

    /** What the planner passes to {@code getSinkRuntimeProvider}: an unbounded streaming insert. */
    static final class TableSinkContext implements DynamicTableSink.Context {
        @Override
        public boolean isBounded() {
            return false;
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(DataType consumedDataType) {
            return InternalTypeInfo.of(consumedDataType.getLogicalType());
        }

        @Override
        public <T> TypeInformation<T> createTypeInformation(LogicalType consumedLogicalType) {
            return InternalTypeInfo.of(consumedLogicalType);
        }

        @Override
        public DynamicTableSink.DataStructureConverter createDataStructureConverter(DataType consumedDataType) {
            throw new UnsupportedOperationException("oracle: the Kafka sink should not need converters");
        }

        @Override
        @SuppressWarnings("deprecation") // still abstract in 1.20, deprecated in 2.x
        public Optional<int[][]> getTargetColumns() {
            return Optional.empty();
        }
    }

    /** Subtask 0 of 1; the default partitioner is not used, so no topic partitions are needed. */
    static final KafkaRecordSerializationSchema.KafkaSinkContext KAFKA_SINK_CONTEXT =
            new KafkaRecordSerializationSchema.KafkaSinkContext() {
                @Override
                public int getParallelInstanceId() {
                    return 0;
                }

                @Override
                public int getNumberOfParallelInstances() {
                    return 1;
                }

                @Override
                public int[] getPartitionsForTopic(String topic) {
                    return new int[] {0};
                }
            };

    static SerializationSchema.InitializationContext initializationContext() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return new SerializationSchema.InitializationContext() {
            @Override
            public MetricGroup getMetricGroup() {
                return new UnregisteredMetricsGroup();
            }

            @Override
            public UserCodeClassLoader getUserCodeClassLoader() {
                return SimpleUserCodeClassLoader.create(loader);
            }
        };
    }
}
