package io.bloomstore;

/**
 * The fields a growing and a windowed filter's specs share, and {@link SegmentedShape} reads alike:
 * the sizing and the hashing of every region of their file.
 */
interface SegmentedSpec {
    long expectedKeys();

    double fpp();

    Layout layout();

    long seed();
}
