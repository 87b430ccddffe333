package io.bloomstore.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * When dedup marks a line's key seen: after the line is written out, or before. A process can die
 * between the two, and which one comes first decides what such a death costs: a line printed twice,
 * or a line never printed.
 */
enum Delivery {
    /** Written out, then marked: a death between the two prints the line again on the next run. */
    AT_LEAST_ONCE("at-least-once"),
    /** Marked, then written out: a death between the two, or a reader that went away, loses the line. */
    AT_MOST_ONCE("at-most-once");

    private final String label;

    Delivery(String label) {
        this.label = label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** Reads the labels as the command line gives them. */
    static final class Converter implements ITypeConverter<Delivery> {
        @Override
        public Delivery convert(String value) {
            for (Delivery delivery : values()) {
                if (delivery.label.equalsIgnoreCase(value)) {
                    return delivery;
                }
            }
            throw new TypeConversionException("'" + value + "' is not a delivery; use at-least-once or at-most-once");
        }
    }
}
