package org.kjson.flink;

/**
 * A failure reported by the native encoder or the Arrow writer in front of it. Subclasses say
 * what the user must fix; the message names the option, the column (with both types), or
 * {@code map-null-key.mode}.
 */
public class KjsonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KjsonException(String message) {
        super(message);
    }
}
