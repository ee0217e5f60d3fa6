package org.kjson.flink;

/** One batch would encode to more bytes than a slab's int offsets address: split the batch. */
public class KjsonLimitException extends KjsonException {
    private static final long serialVersionUID = 1L;

    public KjsonLimitException(String message) {
        super(message);
    }
}
