package org.kjson.flink;

/** The Arrow batch does not match the sink's columns: the message names the column and both types. */
public class KjsonSchemaException extends KjsonException {
    private static final long serialVersionUID = 1L;

    public KjsonSchemaException(String message) {
        super(message);
    }
}
