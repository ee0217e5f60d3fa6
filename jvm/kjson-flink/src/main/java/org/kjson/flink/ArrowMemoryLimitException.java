package org.kjson.flink;

/**
 * The Arrow buffers of one batch would exceed {@code kjson.arrow-memory-limit}: raise the limit
 * (and the task off-heap memory with it) or lower {@code kjson.batch-rows}.
 */
public class ArrowMemoryLimitException extends KjsonException {
    private static final long serialVersionUID = 1L;

    public ArrowMemoryLimitException(String message, Throwable cause) {
        super(message);
        initCause(cause);
    }
}
