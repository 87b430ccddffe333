package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.FilterFullException;
import io.bloomstore.GrowingBloomFilter;

/**
 * Where a growing filter stopped taking keys: how many of 0, 1, 2, ... it took, and the refusal.
 *
 * @param keysAdded keys 0 .. keysAdded - 1 were added and acknowledged
 * @param refusal the exception the next add threw
 */
public record RefusedGrowth(long keysAdded, FilterFullException refusal) {
    /** Adds keys 0, 1, 2, ... until an add is refused; fails if none is within {@code most} keys. */
    public static RefusedGrowth addUntilRefused(GrowingBloomFilter filter, long most) {
        for (long key = 0; key < most; key++) {
            try {
                filter.add(key);
            } catch (FilterFullException e) {
                return new RefusedGrowth(key, e);
            }
        }
        return fail("no add was refused within " + most + " keys");
    }
}
