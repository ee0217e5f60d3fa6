package org.kjson.flink.sql;

import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.RowType;
import org.kjson.flink.BatchSettings;
import org.kjson.flink.arrow.RowDataArrowWriter;

/**
 * What the encode operator's Arrow side would refuse at run time, checked at planning with no
 * native library needed: a column type that kjson cannot carry in Arrow, and an
 * {@code kjson.arrow-memory-limit} too small for the buffers of a single row.
 */
final class ArrowCarriageCheck {
    private ArrowCarriageCheck() {}

    static void check(String tableName, String identifier, String stockIdentifier, RowType rowType,
            BatchSettings batching) {
        for (RowType.RowField field : rowType.getFields()) {
            checkColumn(tableName, identifier, stockIdentifier, field);
        }
        checkOneRowFits(tableName, identifier, rowType, batching);
    }

    private static void checkColumn(String tableName, String identifier, String stockIdentifier,
            RowType.RowField field) {
        try (BufferAllocator allocator = new RootAllocator();
                RowDataArrowWriter writer = new RowDataArrowWriter(new RowType(List.of(field)), allocator)) {
            // creating the vectors is the check
        } catch (UnsupportedOperationException e) {
            throw new ValidationException(String.format("Table '%s' with 'connector' = '%s' cannot be written"
                    + " byte-identically to '%s' by kjson: column '%s' has type %s, which kjson cannot carry (%s); cast"
                    + " it to a type kjson writes, or use 'connector' = '%s'.", tableName, identifier, stockIdentifier,
                    field.getName(), field.getType().asSummaryString(), e.getMessage(), stockIdentifier), e);
        }
    }

    /** A row of nulls allocates the vectors' first buffers, the least any batch needs. */
    private static void checkOneRowFits(String tableName, String identifier, RowType rowType, BatchSettings batching) {
        long limit = batching.arrowMemoryLimit();
        try (BufferAllocator allocator = new RootAllocator(limit);
                RowDataArrowWriter writer = new RowDataArrowWriter(rowType, allocator)) {
            writer.append(new GenericRowData(rowType.getFieldCount()));
        } catch (OutOfMemoryException e) {
            throw new ValidationException(String.format("Table '%s' with 'connector' = '%s': option '%s' = %d bytes is"
                    + " too small for the Arrow buffers of one row of this table; raise it, or leave it unset for the"
                    + " default (16 KiB per row of 'kjson.batch-rows', at least 64 MiB). Arrow said: %s", tableName,
                    identifier, BatchOptions.ARROW_MEMORY_LIMIT.key(), limit, e.getMessage()), e);
        }
    }
}
