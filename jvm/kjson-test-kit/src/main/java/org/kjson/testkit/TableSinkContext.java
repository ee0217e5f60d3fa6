package org.kjson.testkit;

import java.util.Optional;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

/** What the planner passes to {@code getSinkRuntimeProvider}: an unbounded streaming insert. */
public final class TableSinkContext implements DynamicTableSink.Context {
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
        throw new UnsupportedOperationException("the Kafka sink needs no data structure converter");
    }

    @Override
    @SuppressWarnings("deprecation") // abstract in 1.20, deprecated in 2.x
    public Optional<int[][]> getTargetColumns() {
        return Optional.empty();
    }
}
