package org.kjson.flink;

/** The sink description is invalid: a bad option value, an unsupported type, or a type string that does not parse. */
public class KjsonSpecException extends KjsonException {
    private static final long serialVersionUID = 1L;

    public KjsonSpecException(String message) {
        super(message);
    }
}
