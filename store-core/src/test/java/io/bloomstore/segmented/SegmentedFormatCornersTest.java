package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import io.bloomstore.SegmentedStats;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.Layout;
import io.bloomstore.OpenMode;
import io.bloomstore.RegionStats;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.FilterFileDescriptor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/FORMAT.md's decisions on the corners of format version 2 that an implementation written
 * from the document alone found open, each held to the code: what opening checks of a region's own
 * header, with which tolerance; the kind byte and W = L E; the bytes readers ignore; and what
 * verify finds in the region table (a lowered segment count, slot epochs out of their run).
 */
class SegmentedFormatCornersTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final GrowingSpec CHAIN = GrowingSpec.of(1000, 0.01).withLayout(Layout.STANDARD);
    private static final WindowSpec RING = WindowSpec.of(8000, 0.01, Duration.ofSeconds(8)).withEpochs(8)
            .withLayout(Layout.STANDARD);

    @TempDir
    Path dir;

    private static ContainerHeader chainHeader() {
        return ContainerHeader.growing(CHAIN.layout(), CHAIN.seed(), CHAIN.expectedKeys(), CHAIN.fpp(),
                CHAIN.growthFactor(), CHAIN.tighteningRatio(), 0, T0);
    }

    /** A chain of two segments, segment 1 holding a few keys. */
    private Path chainOfTwo() throws IOException {
        Path file = dir.resolve("chain.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, CHAIN)) {
            filter.grow();
            for (long key = 0; key < 100; key++) {
                filter.add(key);
            }
        }
        return file;
    }

    private static InvalidFilterFileException refusedAtOpen(Path file) {
        return assertThrows(InvalidFilterFileException.class, () -> GrowingBloomFilter.open(file, OpenMode.READ_ONLY).close());
    }

    private static InvalidFilterFileException refusedByVerify(Path file) throws IOException {
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            return assertThrows(InvalidFilterFileException.class, filter::verify);
        }
    }

    private static void rewrite(Path file, java.util.function.Consumer<byte[]> change) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        change.accept(bytes);
        Files.write(file, bytes);
    }

    private static void putLong(byte[] bytes, int offset, long value) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putLong(offset, value);
    }

    private static long getLong(byte[] bytes, int offset) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
    }

    /** The container header's CRC32C recomputed, as a writer stores it after changing a field. */
    private static void resealContainerHeader(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, FilterFileDescriptor.HEADER_CRC_OFFSET);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(FilterFileDescriptor.HEADER_CRC_OFFSET,
                (int) crc.getValue());
    }

    private static int entry(int region, int field) {
        return ContainerDescriptor.TABLE_OFFSET + region * ContainerDescriptor.ENTRY_LENGTH + field;
    }

    // ---- open corner 1 and 2: a region's own header against the sizing of its place ----

    /**
     * A segment header valid on its own (CRC matching) with another seed, n, p or k over the same
     * cells opens no more: it was caught only by verify, and a query read with another k loses keys.
     */
    @ParameterizedTest
    @ValueSource(strings = {"seed", "n", "p", "k"})
    void aSegmentOfAnotherShapeIsRefusedAtOpen(String field) throws Exception {
        Path file = chainOfTwo();
        BloomSpec real = chainHeader().regionSpec(1);
        BloomSpec.Builder forged = BloomSpec.builder().cells(real.cells()).hashes(real.hashes()).seed(real.seed())
                .expectedKeys(real.expectedKeys()).fpp(real.targetFpp());
        String expected = switch (field) {
            case "seed" -> {
                forged.seed(real.seed() + 1);
                yield "segment 1's own header has seed 0x626c6f6f6d737473 where the container's is 0x626c6f6f6d737472";
            }
            case "n" -> {
                forged.expectedKeys(real.expectedKeys() + 1);
                yield "segment 1's own header has expected keys n = 2001 where the container's sizing gives 2000";
            }
            case "p" -> {
                forged.fpp(real.targetFpp() * 1.000001);
                yield "segment 1's own header has false-positive rate p = " + real.targetFpp() * 1.000001
                        + " where the container's sizing gives " + real.targetFpp();
            }
            default -> {
                forged.hashes(real.hashes() + 1);
                yield "segment 1's own header has m = " + real.cells() + " cells where sizing its n, p and k gives ";
            }
        };
        rewrite(file, bytes -> ForgedRegionHeader.write(bytes, 1, forged.build()));
        InvalidFilterFileException e = refusedAtOpen(file);
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /**
     * A writer whose pow differs from fdlibm's by an ulp stores a p_i an ulp or two off, and sizes
     * its region from that: the file opens and verifies. A p off by more than the stated tolerance
     * (a relative 1e-9) is another place's.
     */
    @Test
    void aSegmentWhosePIsAFewUlpsOffOpensAndVerifies() throws Exception {
        Path file = chainOfTwo();
        BloomSpec real = chainHeader().regionSpec(1);
        double ulpsOff = Math.nextUp(Math.nextUp(real.targetFpp()));
        BloomSpec writers = BloomSpec.builder().expectedKeys(real.expectedKeys()).fpp(ulpsOff).seed(real.seed()).build();
        assertEquals(real.cellBytes(), writers.cellBytes());
        rewrite(file, bytes -> ForgedRegionHeader.write(bytes, 1, writers));
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            filter.verify();
            assertTrue(filter.mightContain(42L));
        }
        double tooFar = real.targetFpp() * (1 + 2 * ContainerHeader.REGION_FPP_TOLERANCE);
        rewrite(file, bytes -> ForgedRegionHeader.write(bytes, 1, BloomSpec.builder()
                .expectedKeys(real.expectedKeys()).fpp(tooFar).seed(real.seed()).build()));
        assertTrue(refusedAtOpen(file).getMessage().contains("false-positive rate p = " + tooFar));
    }

    /**
     * A region of a valid shape for its n and p but another k than sizing chooses (its m sized for
     * that k, so no key is lost) is refused at open, naming k: a query of another k than the
     * others' would answer with the rate of another shape than the container's sizing promises.
     */
    @Test
    void aSegmentWithAnotherValidKIsRefusedAtOpen() throws Exception {
        Path file = chainOfTwo();
        BloomSpec real = chainHeader().regionSpec(1);
        BloomSpec otherK = BloomSpec.builder().expectedKeys(real.expectedKeys()).fpp(real.targetFpp())
                .hashes(real.hashes() - 1).seed(real.seed()).build();
        assertEquals(real.cellBytes(), otherK.cellBytes());
        rewrite(file, bytes -> ForgedRegionHeader.write(bytes, 1, otherK));
        InvalidFilterFileException e = refusedAtOpen(file);
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("segment 1's own header has k = " + otherK.hashes()
                + " hashes where sizing its n and p gives " + real.hashes()), e.getMessage());
    }

    /**
     * Open corner 3: a ring's slots are probed together, with slot 0's shape, so a slot whose
     * header is valid for its place but of another shape than slot 0's (another k, m sized for it)
     * is refused at open.
     */
    @Test
    void aSlotOfAnotherValidShapeThanSlotZerosIsRefusedAtOpen() throws Exception {
        Path file = dir.resolve("ring.bloom");
        WindowedBloomFilter.create(file, RING, new TestClock(T0)).close();
        BloomSpec slot = ContainerHeader.windowed(RING.layout(), RING.seed(), RING.expectedKeys(), RING.fpp(),
                RING.window().toMillis(), RING.epochs(), T0).regionSpec(0);
        BloomSpec otherK = BloomSpec.builder().expectedKeys(slot.expectedKeys()).fpp(slot.targetFpp())
                .hashes(slot.hashes() - 1).seed(slot.seed()).build();
        assertEquals(slot.cellBytes(), otherK.cellBytes());
        rewrite(file, bytes -> ForgedRegionHeader.write(bytes, 3, otherK));
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0)).close());
        assertEquals(Problem.BAD_FIELD, e.problem());
        // named by the check of the slot's own k, which runs before the comparison with slot 0's shape
        assertTrue(e.getMessage().contains("slot 3's own header has k = " + otherK.hashes()
                + " hashes where sizing its n and p gives " + slot.hashes()), e.getMessage());
    }

    // ---- open corners 8 and 9: the kind byte, W = L E ----

    @ParameterizedTest
    @ValueSource(ints = {0, 3, 255})
    void aKindOtherThanGrowingOrWindowedIsABadField(int kind) throws Exception {
        Path file = chainOfTwo();
        rewrite(file, bytes -> {
            bytes[ContainerDescriptor.KIND_OFFSET] = (byte) kind;
            resealContainerHeader(bytes);
        });
        InvalidFilterFileException e = refusedAtOpen(file);
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("header field kind is " + kind), e.getMessage());
    }

    /** The window stored is L E exactly, as every writer stores it; W = L E + 1 was read as L E. */
    @Test
    void aWindowThatIsNotEpochsTimesTheEpochIsABadField() throws Exception {
        Path file = dir.resolve("ring.bloom");
        WindowedBloomFilter.create(file, RING, new TestClock(T0)).close();
        rewrite(file, bytes -> {
            putLong(bytes, ContainerDescriptor.PARAMETER_1_OFFSET, getLong(bytes, ContainerDescriptor.PARAMETER_1_OFFSET) + 1);
            resealContainerHeader(bytes);
        });
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0)).close());
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("header field window is 8001: must be epochs x epoch length = 8000"),
                e.getMessage());
    }

    // ---- open corners 7, 10 and 11: what is published, what readers ignore ----

    /**
     * Every byte the document marks reserved (container header 80–123 under its CRC, shared state
     * 144–175 and 192–255, each entry's reserved word, a chain entry's epoch word, entries past the table's
     * use) and bytes after a ring's last slot are ignored: the files open, answer and verify.
     */
    @Test
    void reservedBytesAndBytesAfterTheLastRegionAreIgnored() throws Exception {
        Path chain = chainOfTwo();
        Path ring = dir.resolve("ring.bloom");
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(ring, RING, new TestClock(T0))) {
            filter.add("kept");
        }
        for (Path file : new Path[] {chain, ring}) {
            boolean growing = file == chain;
            rewrite(file, bytes -> {
                for (int i = ContainerDescriptor.RESERVED_OFFSET; i < FilterFileDescriptor.HEADER_CRC_OFFSET; i++) {
                    bytes[i] = (byte) 0xA5;
                }
                resealContainerHeader(bytes);
                for (int i = ContainerDescriptor.LOCK_OFFSET + 8; i < ContainerDescriptor.TABLE_OFFSET; i++) {
                    boolean clockWord = i >= ContainerDescriptor.CLOCK_OFFSET_OFFSET && i < ContainerDescriptor.CLOCK_OWNER_OFFSET + 8;
                    if (!clockWord) { // a windowed file's clock words have a meaning (docs/FORMAT.md, "Windowed: time")
                        bytes[i] = (byte) 0x5A;
                    }
                }
                int regions = growing ? 2 : RING.epochs() + 1;
                for (int region = 0; region < regions; region++) {
                    putLong(bytes, entry(region, ContainerDescriptor.ENTRY_EPOCH_OFFSET + 8), -1);
                    if (growing) {
                        putLong(bytes, entry(region, ContainerDescriptor.ENTRY_EPOCH_OFFSET), 77);
                    }
                }
            });
            Files.write(file, new byte[4096], StandardOpenOption.APPEND);
        }
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(chain, OpenMode.READ_ONLY)) {
            filter.verify();
            assertTrue(filter.mightContain(42L));
        }
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(ring, OpenMode.READ_ONLY, new TestClock(T0))) {
            filter.verify();
            assertTrue(filter.mightContain("kept"));
        }
    }

    /** Every entry of a ring is published from its creation: a slot whose entry says "not written" is refused. */
    @Test
    void aRingSlotWithoutItsEntryIsRefused() throws Exception {
        Path file = dir.resolve("ring.bloom");
        WindowedBloomFilter.create(file, RING, new TestClock(T0)).close();
        rewrite(file, bytes -> putLong(bytes, entry(RING.epochs(), ContainerDescriptor.ENTRY_REGION_LENGTH_OFFSET), 0));
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0)).close());
        assertEquals(Problem.LENGTH_MISMATCH, e.problem());
    }

    // ---- adversary 5: damage verify (and open) can find in the table ----

    /**
     * 20 000 keys fill segments 0–3 (15 000) and put 5 000 into segment 4. The count lowered by
     * one hides segment 4's keys: verify finds keys in a segment that is prepared but not
     * published. Lowered by two, entry 4 is written past the next one: opening refuses it.
     */
    @Test
    void aLoweredSegmentCountIsFound() throws Exception {
        Path file = dir.resolve("chain.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, CHAIN)) {
            for (long key = 0; key < 20_000; key++) {
                filter.add(key);
            }
            assertEquals(5, filter.segmentCount());
        }
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            filter.verify();
        }
        byte[] intact = Files.readAllBytes(file);
        rewrite(file, bytes -> putLong(bytes, ContainerDescriptor.COUNT_OFFSET, 4));
        InvalidFilterFileException e = refusedByVerify(file);
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("segment 4 is prepared but not published (the segment count is 4), yet its"
                + " count of keys is "), e.getMessage());
        rewrite(file, bytes -> putLong(bytes, FilterFileDescriptor.APPROXIMATE_INSERTIONS_OFFSET
                + (int) ForgedRegionHeader.regionOffset(bytes, 4), 0));
        assertTrue(refusedByVerify(file).getMessage().contains("yet it has cells set: the count word was lowered"));

        Files.write(file, intact);
        rewrite(file, bytes -> putLong(bytes, ContainerDescriptor.COUNT_OFFSET, 3));
        e = refusedAtOpen(file);
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("segment count is 3 but segment 4 is written"), e.getMessage());
    }

    /** A prepared segment (the newest half full) is empty and not published: an intact chain verifies. */
    @Test
    void aPreparedEmptySegmentVerifies() throws Exception {
        Path file = dir.resolve("chain.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, CHAIN)) {
            for (long key = 0; key < 2500; key++) { // segment 0's 1000, then about 1500 of segment 1's 2000
                filter.add(key);
            }
            assertEquals(2, filter.segmentCount());
        }
        byte[] bytes = Files.readAllBytes(file);
        assertTrue(getLong(bytes, entry(2, ContainerDescriptor.ENTRY_REGION_LENGTH_OFFSET)) > 0, "segment 2 prepared");
        try (GrowingBloomFilter filter = GrowingBloomFilter.open(file, OpenMode.READ_ONLY)) {
            filter.verify();
        }
    }

    private Path ringWithKeys() throws IOException {
        Path file = dir.resolve("ring.bloom");
        TestClock clock = new TestClock(T0);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, RING, clock)) {
            for (int epoch = 0; epoch < 3; epoch++) {
                for (long key = 0; key < 100; key++) {
                    filter.add(epoch * 1000 + key);
                }
                clock.advance(1000);
            }
        }
        return file;
    }

    /** The refusal of a damaged ring: by opening it, where open checks the damage, else by verify. */
    private static InvalidFilterFileException ringRefused(Path file) throws IOException {
        WindowedBloomFilter filter;
        try {
            filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0));
        } catch (InvalidFilterFileException refusedAtOpen) {
            return refusedAtOpen;
        }
        try (filter) {
            return assertThrows(InvalidFilterFileException.class, filter::verify);
        }
    }

    /**
     * A slot's epoch set to an older one or to CLEARING leaves it outside the run the current epoch
     * gives the slots, with the step lock free: verify says which. (The current epoch's own slot
     * is checked at open already, with the epoch word: WindowedClocksTest.) A current epoch moved
     * ahead of its slots is refused at open.
     */
    @ParameterizedTest
    @ValueSource(strings = {"older", "clearing", "count ahead"})
    void slotEpochsOutOfTheirRunAreFound(String damage) throws Exception {
        Path file = ringWithKeys();
        long current = Math.floorDiv(T0, 1000) + 2;
        long previous = current - 1;
        int slot = (int) Math.floorMod(previous, RING.epochs() + 1);
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0 + 2000))) {
            assertEquals(current, filter.currentEpoch());
            filter.verify();
        }
        rewrite(file, bytes -> {
            switch (damage) {
                case "older" -> putLong(bytes, entry(slot, ContainerDescriptor.ENTRY_EPOCH_OFFSET), previous - RING.epochs() - 1);
                case "clearing" -> putLong(bytes, entry(slot, ContainerDescriptor.ENTRY_EPOCH_OFFSET), ContainerDescriptor.CLEARING);
                default -> putLong(bytes, ContainerDescriptor.COUNT_OFFSET, current + 5);
            }
        });
        InvalidFilterFileException e = ringRefused(file);
        assertEquals(Problem.BAD_FIELD, e.problem());
        String expected = switch (damage) {
            case "older" -> "slot " + slot + " holds epoch " + (previous - RING.epochs() - 1) + " where the current epoch "
                    + current + " gives it epoch " + previous + " and no rotation is under way";
            case "clearing" -> "slot " + slot + " holds CLEARING (a slot being cleared) where the current epoch "
                    + current + " gives it epoch " + previous;
            default -> "its current-epoch word (offset 128) holds epoch " + (current + 5);
        };
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    /**
     * A rotation interrupted by a crash (its owner's stamp left in the lock, one slot CLEARING) is
     * not damage: the next read-write open finishes it. verify says ok; the same slot with the lock
     * free is damage.
     */
    @Test
    void aCrashedRotationIsNotDamage() throws Exception {
        Path file = ringWithKeys();
        long current = Math.floorDiv(T0, 1000) + 2;
        int slot = (int) Math.floorMod(current + 1, RING.epochs() + 1);
        long deadOwner = 0x7FFF_FFF0L | (12345L << 32); // no such process
        assertFalse(ProcessHandle.of(0x7FFF_FFF0L).isPresent());
        rewrite(file, bytes -> {
            putLong(bytes, ContainerDescriptor.LOCK_OFFSET, deadOwner);
            putLong(bytes, entry(slot, ContainerDescriptor.ENTRY_EPOCH_OFFSET), ContainerDescriptor.CLEARING);
        });
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0 + 2000))) {
            filter.verify();
        }
        rewrite(file, bytes -> putLong(bytes, ContainerDescriptor.LOCK_OFFSET, 0));
        assertTrue(ringRefused(file).getMessage().contains("holds CLEARING"));
    }

    // ---- open corners 5, 6 and 14: what an add counts, the compound rate ----

    /**
     * A chain counts, into its newest segment, the adds that changed one of its cells: a repeat of
     * a key does not count, nor a key an older segment may hold (nothing is written for it).
     */
    @Test
    void aChainCountsTheAddsThatChangedACellOfItsNewestSegment() throws Exception {
        Path file = dir.resolve("chain.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, CHAIN)) {
            filter.add("in segment 0");
            filter.grow();
            assertFalse(filter.add("in segment 0"));
            assertTrue(filter.add("new"));
            assertFalse(filter.add("new"));
            filter.sync();
            SegmentedStats stats = filter.stats();
            assertEquals(1, stats.parts().get(0).publishedKeys());
            assertEquals(1, stats.parts().get(1).publishedKeys());
        }
    }

    /**
     * A ring counts, into the current slot, the adds that changed one of its cells, whether or not
     * an older live slot held the key (the add then returns false, but writes the key into this epoch).
     */
    @Test
    void aRingCountsTheAddsThatChangedACellOfTheCurrentSlot() throws Exception {
        Path file = dir.resolve("ring.bloom");
        TestClock clock = new TestClock(T0);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, RING, clock)) {
            assertTrue(filter.add("key"));
            assertFalse(filter.add("key"));
            clock.advance(1000);
            assertFalse(filter.add("key"), "seen within the window");
            filter.sync();
            SegmentedStats stats = filter.stats();
            long epoch = Math.floorDiv(T0, 1000);
            for (RegionStats slot : stats.parts()) {
                long expected = slot.epoch() == epoch || slot.epoch() == epoch + 1 ? 1 : 0;
                assertEquals(expected, slot.publishedKeys(), "slot " + slot.index());
            }
        }
    }

    /** The compound rate is 1 − Π(1 − fpp_i) over the regions a query probes: the probability that any one answers yes. */
    @Test
    void theCompoundRateIsThatOfAnyProbedRegion() throws Exception {
        Path file = ringWithKeys();
        try (WindowedBloomFilter filter = WindowedBloomFilter.open(file, OpenMode.READ_ONLY, new TestClock(T0 + 2000))) {
            SegmentedStats stats = filter.stats();
            double allClear = 1;
            int probed = 0;
            for (RegionStats slot : stats.parts()) {
                if (slot.probed()) {
                    allClear *= 1 - slot.currentFpp();
                    probed++;
                }
            }
            assertEquals(RING.epochs() + 1, probed);
            assertTrue(stats.compoundFpp() > 0);
            assertEquals(1 - allClear, stats.compoundFpp(), 0.0);
        }
    }

    /** A slot's capacity, which past-capacity is judged against, is ceil(n / L): 10 keys over 4 epochs give 3 a slot. */
    @Test
    void aSlotIsPastItsCapacityAfterCeilOfNOverLKeys() throws Exception {
        WindowSpec ring = WindowSpec.of(10, 0.01, Duration.ofSeconds(4)).withEpochs(4).withLayout(Layout.STANDARD);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(dir.resolve("small.bloom"), ring, new TestClock(T0))) {
            int added = 0;
            for (long key = 0; added < 3; key++) {
                added += filter.add(key) ? 1 : 0;
            }
            assertFalse(filter.isPastCapacity(), "3 keys: not past ceil(10 / 4) = 3, though past 10 / 4 = 2.5");
            for (long key = 1000; added < 4; key++) {
                added += filter.add(key) ? 1 : 0;
            }
            assertTrue(filter.isPastCapacity());
            assertEquals(3, filter.stats().parts().get(0).capacity());
        }
    }
}
