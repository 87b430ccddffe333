package io.bloomstore.bench.report;

import java.util.Locale;

/**
 * A measured value with its error (JMH's 99.9% half-interval, NaN if unknown), and ratios of such
 * values with the error carried by first-order propagation of relative errors: for r = a / b,
 * err(r) / r = sqrt((err(a) / a)^2 + (err(b) / b)^2).
 */
record Ratio(double value, double error) {

    static Ratio of(JmhResult result) {
        return new Ratio(result.score(), result.error());
    }

    Ratio over(Ratio other) {
        double value = this.value / other.value;
        double relative = Math.sqrt(square(relativeError()) + square(other.relativeError()));
        return new Ratio(value, value * relative);
    }

    /** The same quantity as a time per op when this is ops per time (and back): 1 / x, same relative error. */
    Ratio inverse(double scale) {
        double value = scale / this.value;
        return new Ratio(value, value * relativeError());
    }

    Ratio times(double factor) {
        return new Ratio(value * factor, error * factor);
    }

    /** error / value; NaN when the error is unknown, which then stays unknown in every derived value. */
    double relativeError() {
        return error / value;
    }

    /** "12.3 ± 0.4", or just the value when the error is unknown. */
    String format(String pattern) {
        String shown = String.format(Locale.ROOT, pattern, value);
        return Double.isNaN(error) ? shown : shown + " ± " + String.format(Locale.ROOT, pattern, error);
    }

    private static double square(double x) {
        return x * x;
    }
}
