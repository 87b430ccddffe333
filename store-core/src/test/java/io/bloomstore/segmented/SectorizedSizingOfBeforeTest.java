package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.CellsCheck;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.MembershipFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sectorized files written by the sizing of before (docs/FORMAT.md, "The sectorized sizing of
 * before"), committed under {@code io/bloomstore/segmented/sizingbefore}, written by bloomstore at
 * commit 5a9f820: they open, answer, verify and grow as they did.
 *
 * <p>{@code growing-sectorized.before}: a chain of n = 100 keys first at P = 1e-6 (s = 2,
 * r = 0.85), the string keys key-0 .. key-999, four segments, of which segments 1 to 3 (p_i of
 * 1.3e-7 to 9.2e-8) have the m and k of the sizing of before (k = 14, 12, 12, where the current
 * sizing gives 18). {@code fixed-sectorized.before}: n = 1000 at p = 1e-8 (m = 88064, k = 10; the
 * current sizing gives 64000 cells, k = 18), the same first 1000 keys.
 */
class SectorizedSizingOfBeforeTest {
    private static final GrowingSpec CHAIN = new GrowingSpec(100, 1e-6, 2, 0.85, 0, Layout.SECTORIZED,
            BloomSpec.DEFAULT_SEED);

    @TempDir
    Path dir;

    private Path copy(String resource) throws IOException {
        Path file = dir.resolve(resource + ".bloom");
        try (InputStream in = SectorizedSizingOfBeforeTest.class.getResourceAsStream("sizingbefore/" + resource)) {
            Files.copy(in, file);
        }
        return file;
    }

    private static void assertHoldsKeys(MembershipFilter filter, int from, int to) {
        IntStream.range(from, to).forEach(i -> assertTrue(filter.mightContain("key-" + i), "key-" + i));
    }

    /** The chain at {@code file} opens read-only, holds key-0 .. key-(keys - 1) and verifies. */
    private static void assertReopensWithKeys(Path file, int keys) throws IOException {
        try (GrowingBloomFilter chain = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertHoldsKeys(chain, 0, keys);
            assertSame(CellsCheck.LIVE, chain.verify());
        }
    }

    @Test
    void aChainSizedBeforeOpensAnswersVerifiesAndGrowsWithSegmentsOfTheCurrentSizing() throws IOException {
        Path file = copy("growing-sectorized.before");
        try (GrowingBloomFilter chain = GrowingBloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertEquals(CHAIN, chain.spec());
            List<RegionStats> before = chain.stats().parts();
            assertEquals(4, before.size());
            for (int i = 1; i < 4; i++) {
                assertNotEquals(CHAIN.segmentSpec(i).cells(), before.get(i).cells(), "segment " + i + " is of the sizing of before");
            }
            assertHoldsKeys(chain, 0, 1000);
            assertSame(CellsCheck.LIVE, chain.verify());
            IntStream.range(1000, 6000).forEach(i -> chain.add("key-" + i));
            List<RegionStats> after = chain.stats().parts();
            assertTrue(after.size() > 5, after.size() + " segments");
            for (int i = 0; i < 4; i++) {
                assertEquals(before.get(i).cells(), after.get(i).cells(), "segment " + i + " kept as it was");
            }
            for (int i = 4; i < after.size(); i++) {
                BloomSpec sized = CHAIN.segmentSpec(i);
                assertEquals(sized.cells(), after.get(i).cells(), "segment " + i);
                assertEquals(sized.hashes(), after.get(i).hashes(), "segment " + i);
            }
            assertSame(CellsCheck.LIVE, chain.verify());
        }
        assertReopensWithKeys(file, 6000);
    }

    @Test
    void aChainSizedBeforeMergesWithACopyOfItself() throws IOException {
        Path a = copy("growing-sectorized.before");
        Path b = dir.resolve("b.bloom");
        Files.copy(a, b);
        try (GrowingBloomFilter chain = GrowingBloomFilter.open(b, OpenMode.READ_WRITE)) {
            IntStream.range(1000, 1200).forEach(i -> chain.add("key-" + i));
        }
        Path out = dir.resolve("out.bloom");
        Merge.toNewFile(out, List.of(a, b), MergeOp.OR);
        assertReopensWithKeys(out, 1200);
    }

    @Test
    void aFixedFileSizedBeforeKeepsItsCellsAndHashes() throws IOException {
        Path file = copy("fixed-sectorized.before");
        BloomSpec now = BloomSpec.builder().expectedKeys(1000).fpp(1e-8).layout(Layout.SECTORIZED).build();
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertEquals(88064, filter.spec().cells());
            assertEquals(10, filter.spec().hashes());
            assertNotEquals(now.hashes(), filter.spec().hashes(), "the current sizing gives another k");
            assertHoldsKeys(filter, 0, 1000);
            assertSame(CellsCheck.NOT_SEALED, filter.verify());
        }
    }
}
