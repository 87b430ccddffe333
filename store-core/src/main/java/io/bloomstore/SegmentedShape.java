package io.bloomstore;

/**
 * The answers of a growing and of a windowed file's shape that come from their spec, read alike:
 * both specs carry them as the same fields ({@link SegmentedSpec}).
 */
sealed interface SegmentedShape extends FilterShape permits FilterShape.Growing, FilterShape.Windowed {
    /** The parameters the file was created with. */
    SegmentedSpec spec();

    @Override
    default Layout layout() {
        return spec().layout();
    }

    @Override
    default long seed() {
        return spec().seed();
    }

    @Override
    default long expectedKeys() {
        return spec().expectedKeys();
    }

    @Override
    default double targetFpp() {
        return spec().fpp();
    }
}
