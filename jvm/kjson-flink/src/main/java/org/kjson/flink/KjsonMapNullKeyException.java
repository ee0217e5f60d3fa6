package org.kjson.flink;

/** A map held a null key while {@code map-null-key.mode} is {@code FAIL} (Flink fails the same record). */
public class KjsonMapNullKeyException extends KjsonException {
    private static final long serialVersionUID = 1L;

    public KjsonMapNullKeyException(String message) {
        super(message);
    }
}
