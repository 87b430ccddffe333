package io.bloomstore.internal.math;

/** A layout's false-positive rate as a function of the filter's size, for sizing's search over m. */
public interface FppModel {
    /** The rate after {@code keys} distinct keys in a filter of {@code cells} cells. */
    double fpp(long cells, double keys);
}
