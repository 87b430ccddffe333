package io.bloomstore.internal.hashing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

/**
 * The seal's checksum computes XXH3 of long inputs itself ({@link LongInputXxh3}): every value must
 * be the library's, or sealed files would stop verifying. Checked at every length across the first
 * blocks (each count of whole stripes and each position of the last, overlapping stripe), at
 * lengths of many blocks, at unaligned offsets, with seeds 0 (the unseeded function of version 1
 * files), small and random, on random bytes and on all-zero and all-one cells.
 */
class LongInputXxh3Test {
    private static final long[] SEEDS = {0, 1, -1, 0x5EED_0F_F17E_1DL, Long.MIN_VALUE};

    @Test
    void everyLengthOfTheFirstBlocksHashesAsTheLibraryDoes() {
        BytesStore<?, ?> store = randomStore(3 * 1024 + 200, 1);
        try {
            for (long seed : SEEDS) {
                for (int length = LongInputXxh3.MAX_SHORT_INPUT + 1; length <= 3 * 1024 + 130; length++) {
                    assertSameHash(store, length % 7, length, seed);
                }
            }
        } finally {
            store.releaseLast();
        }
    }

    @Test
    void longInputsHashAsTheLibraryDoes() {
        BytesStore<?, ?> store = randomStore((4 << 20) + 64, 2);
        try {
            SplittableRandom random = new SplittableRandom(3);
            for (long length : new long[] {(1 << 20), (1 << 20) + 1, (4 << 20) - 1, (4 << 20) + 63, 1_000_003}) {
                assertSameHash(store, 0, length, random.nextLong());
                assertSameHash(store, 1, length, 0);
            }
        } finally {
            store.releaseLast();
        }
    }

    @Test
    void emptyAndFullCellsHashAsTheLibraryDoes() {
        BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(1 << 16);
        try {
            assertSameHash(store, 0, 1 << 16, 42);
            for (long i = 0; i < 1 << 16; i += 8) {
                store.writeLong(i, -1L);
            }
            assertSameHash(store, 0, 1 << 16, 42);
        } finally {
            store.releaseLast();
        }
    }

    @Test
    void shortInputsAreRefused() {
        BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(256);
        try {
            assertThrows(IllegalArgumentException.class, () -> LongInputXxh3.hash(store, 0, LongInputXxh3.MAX_SHORT_INPUT, 0));
        } finally {
            store.releaseLast();
        }
    }

    /** Through the checksum too, whose short inputs stay with the library. */
    @Test
    void theChecksumIsTheLibrarysAtEveryLength() {
        BytesStore<?, ?> store = randomStore(4096, 4);
        try {
            for (int length : new int[] {0, 1, 8, 17, 128, 129, 240, 241, 1024, 1025, 4096}) {
                assertEquals(LongHashFunction.xx3(7).hashMemory(store.addressForRead(0), length), CellsChecksum.of(store, 0, length, 7),
                        "length " + length);
                assertEquals(LongHashFunction.xx3().hashMemory(store.addressForRead(0), length), CellsChecksum.of(store, 0, length, 0),
                        "length " + length);
            }
        } finally {
            store.releaseLast();
        }
    }

    private static void assertSameHash(BytesStore<?, ?> store, long offset, long length, long seed) {
        long expected = LongHashFunction.xx3(seed).hashMemory(store.addressForRead(offset), length);
        assertEquals(expected, LongInputXxh3.hash(store, offset, length, seed), "length " + length + ", offset " + offset + ", seed " + seed);
    }

    private static BytesStore<?, ?> randomStore(int bytes, long seed) {
        BytesStore<?, ?> store = BytesStore.nativeStoreWithFixedCapacity(bytes);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i + 8 <= bytes; i += 8) {
            store.writeLong(i, random.nextLong());
        }
        return store;
    }
}
