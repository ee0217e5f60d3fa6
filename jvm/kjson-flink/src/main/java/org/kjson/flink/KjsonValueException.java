package org.kjson.flink;

/**
 * A row handed to the Arrow writer holds a value its declared type does not admit, one that
 * Flink's planner never produces but a DataStream program can build (a TIMESTAMP(3) holding
 * nanoseconds, a DECIMAL whose scale differs from the declared one, a BINARY(n) of another
 * length), and that kjson cannot carry so that the native encoder writes Flink's bytes. The
 * message names the column path ({@code r.items[].ts}, {@code m{key}}, {@code m{value}}), the
 * declared type and the value's problem. kjson fails rather than write another value.
 *
 * <p>The native encoder throws it too, for a value in an Arrow batch that no Flink value matches
 * (a {@code nano_of_milli} outside 0..999,999, seconds whose milliseconds overflow a long).
 */
public class KjsonValueException extends KjsonException {
    private static final long serialVersionUID = 1L;

    public KjsonValueException(String message) {
        super(message);
    }
}
