package io.bloomstore.segmented;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterFileSummary;
import io.bloomstore.FilterKind;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.OpenMode;
import io.bloomstore.Pack;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.reliability.PackFrames;
import io.bloomstore.tools.FileForensics;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pack and unpack of growing and windowed files: bit for bit, checked as opening checks them
 * (container header, region table, each region's own header), a fixed filter's pack unchanged, and
 * a ring that rotates while it is packed gives a pack of the ring as it was, slot by slot.
 */
class SegmentedPackTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long E = 1000;
    private static final int L = 8;

    @TempDir
    Path dir;

    private Path growingAfterGrowths() throws IOException {
        Path file = dir.resolve("g.bloom");
        try (GrowingBloomFilter filter = GrowingBloomFilter.create(file, GrowingSpec.of(1000, 0.01))) {
            for (long key = 0; key < 20_000; key++) {
                filter.add(key);
            }
            assertEquals(5, filter.segmentCount());
        }
        return file;
    }

    private Path windowedWithSlotsInUse(TestClock clock) throws IOException {
        Path file = dir.resolve("w.bloom");
        WindowSpec spec = WindowSpec.of(8000, 0.01, Duration.ofMillis(L * E)).withEpochs(L);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, clock)) {
            for (int epoch = 0; epoch < 5; epoch++) {
                for (long key = 0; key < 500; key++) {
                    filter.add(epoch * 1_000_000L + key);
                }
                clock.advance(E);
            }
        }
        return file;
    }

    private FilterFileSummary roundTrip(Path file, Path restored) throws IOException {
        Path pack = dir.resolve(file.getFileName() + ".pack");
        assertEquals(Files.size(file), Pack.packTo(file, pack));
        try (InputStream in = Files.newInputStream(pack)) {
            FilterFileSummary result = Pack.unpack(in, pack.toString(), restored);
            assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(restored), "restored bit for bit");
            return result;
        }
    }

    @Test
    void aGrowingFileAfterSeveralGrowthsRoundTripsBitForBit() throws Exception {
        Path file = growingAfterGrowths();
        Path restored = dir.resolve("restored.bloom");
        FilterFileSummary result = roundTrip(file, restored);
        assertEquals(new FilterFileSummary(FilterKind.GROWING, 5, Files.size(file), java.util.Optional.empty()), result);
        try (GrowingBloomFilter copy = GrowingBloomFilter.open(restored, OpenMode.READ_WRITE)) {
            for (long key = 0; key < 20_000; key++) {
                if (!copy.mightContain(key)) {
                    fail("key " + key + " lost in the restored chain");
                }
            }
            for (long key = 20_000; key < 40_000; key++) {
                copy.add(key); // the copy grows on from where the original was
            }
            assertEquals(6, copy.segmentCount());
        }
    }

    @Test
    void aWindowedFileWithSeveralSlotsInUseRoundTripsBitForBit() throws Exception {
        TestClock clock = new TestClock(T0);
        Path file = windowedWithSlotsInUse(clock);
        Path restored = dir.resolve("restored.bloom");
        FilterFileSummary result = roundTrip(file, restored);
        assertEquals(FilterKind.WINDOWED, result.kind());
        assertEquals(L + 1, result.regions());
        try (WindowedBloomFilter copy = WindowedBloomFilter.open(restored, OpenMode.READ_ONLY, clock)) {
            for (int epoch = 0; epoch < 5; epoch++) {
                for (long key = 0; key < 500; key++) {
                    assertTrue(copy.mightContain(epoch * 1_000_000L + key), "epoch " + epoch + " key " + key);
                }
            }
        }
    }

    @Test
    void aFixedFilterStillPacksAsPackVersionOneAndUnpacks() throws Exception {
        Path file = dir.resolve("f.bloom");
        try (BloomFilter filter = BloomFilter.create(file, BloomSpec.forExpected(10_000, 0.01))) {
            filter.add("alpha");
        }
        byte[] content = content(Files.readAllBytes(dir.resolve(packOf(file))));
        ByteBuffer preamble = ByteBuffer.wrap(content).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(Pack.PACK_MAGIC, preamble.getLong());
        assertEquals(1, preamble.getInt(), "the pack version is still 1");
        Path restored = dir.resolve("restored.bloom");
        FilterFileSummary result = Pack.unpack(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("f.bloom.pack"))),
                "f.bloom.pack", restored);
        assertEquals(FilterKind.FIXED, result.kind());
        assertEquals(FileForensics.readInfo(file), result.info().orElseThrow());
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(restored));
    }

    private Path packOf(Path file) throws IOException {
        Path pack = dir.resolve(file.getFileName() + ".pack");
        Pack.packTo(file, pack);
        return pack;
    }

    /**
     * A pack whose region table or one region's own header is bad is refused with the problem
     * opening the file would report, and leaves nothing behind.
     */
    @Test
    void aPackedTableOrRegionHeaderThatOpeningWouldRefuseIsRefused() throws Exception {
        byte[] file = Files.readAllBytes(growingAfterGrowths());
        int entry3 = 256 + 3 * 32;
        long region3 = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong(entry3);

        byte[] longEntry = file.clone();
        ByteBuffer.wrap(longEntry).order(ByteOrder.LITTLE_ENDIAN).putLong(entry3 + 8, file.length);
        assertRefused(longEntry, Problem.LENGTH_MISMATCH);

        byte[] movedEntry = file.clone();
        ByteBuffer.wrap(movedEntry).order(ByteOrder.LITTLE_ENDIAN).putLong(entry3, region3 + 4096);
        assertRefused(movedEntry, Problem.BAD_FIELD);

        byte[] badCount = file.clone();
        ByteBuffer.wrap(badCount).order(ByteOrder.LITTLE_ENDIAN).putLong(128, 0);
        assertRefused(badCount, Problem.BAD_FIELD);

        byte[] damagedRegionHeader = file.clone();
        damagedRegionHeader[(int) region3 + 40] ^= 1; // the seed of segment 3's own header: its CRC fails
        assertRefused(damagedRegionHeader, Problem.HEADER_CHECKSUM);

        byte[] damagedContainer = file.clone();
        damagedContainer[24] ^= 1;
        assertRefused(damagedContainer, Problem.HEADER_CHECKSUM);

        byte[] truncated = java.util.Arrays.copyOf(file, (int) region3 + 4096);
        assertRefused(truncated, Problem.LENGTH_MISMATCH);

        // a file shorter than its container page, packed whole: the header check's TOO_SHORT, as opening
        // the file says, not BAD_PACK (the stream is not truncated: it holds every byte it announces)
        assertRefused(java.util.Arrays.copyOf(file, 2000), Problem.TOO_SHORT);
        assertRefused(java.util.Arrays.copyOf(file, 100), Problem.TOO_SHORT);
    }

    private void assertRefused(byte[] file, Problem problem) throws IOException {
        Path target = dir.resolve("refused.bloom");
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> Pack.unpack(new ByteArrayInputStream(frame(file)), "bad.pack", target));
        assertEquals(problem, e.problem(), e.getMessage());
        assertFalse(Files.exists(target));
    }

    /**
     * A ring that rotates while it is being packed (here: once the first MiB of slot 0 is packed,
     * the clock moves to the epoch that reuses it and an add rotates, reusing slot 0) still gives a pack, which
     * unpacks to a file that verifies: the pack's slot 0 keeps the epoch the pack began with, which
     * has left the window, and holds only what was read of it before the rotation, zero after; every
     * key of the epochs still in the window is there.
     */
    @Test
    void aRingThatRotatesWhileBeingPackedGivesAConsistentPack() throws Exception {
        TestClock clock = new TestClock(T0);
        Path file = dir.resolve("big.bloom");
        long first = T0 / E;
        // 1.5 M keys a slot: each slot is over 2 MiB, so the rotation lands inside slot 0
        WindowSpec spec = WindowSpec.of(6_000_000, 0.01, Duration.ofMillis(4 * E)).withEpochs(4);
        try (WindowedBloomFilter filter = WindowedBloomFilter.create(file, spec, clock)) {
            for (int epoch = 0; epoch < 4; epoch++) {
                for (long key = 0; key < 2_000; key++) {
                    filter.add(epoch * 1_000_000L + key);
                }
                clock.advance(E);
            }
        }
        assertEquals(0, first % 5, "the first epoch's keys are in slot 0, which the pack reads first");
        long slotEnd = 4096 + slotLength(Files.readAllBytes(file), 0);
        assertTrue(slotEnd > 4096 + (2L << 20), "slot 0 spans more than two reads: " + slotEnd);
        Path pack = dir.resolve("big.pack");
        try (WindowedBloomFilter writer = WindowedBloomFilter.open(file, OpenMode.READ_WRITE, clock)) {
            long[] reports = new long[1];
            Pack.packTo(file, pack, done -> {
                if (reports[0]++ == 0) {
                    clock.advance(E); // to epoch first + 5: slot 0 (epoch first) leaves the window and is reused
                    writer.add("rotates");
                }
            });
            assertEquals(first + 5, writer.currentEpoch());
        }
        Path restored = dir.resolve("restored.bloom");
        try (InputStream in = Files.newInputStream(pack)) {
            Pack.unpack(in, pack.toString(), restored);
        }
        byte[] bytes = Files.readAllBytes(restored);
        ByteBuffer table = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(first + 3, table.getLong(128), "the ring's epoch as the pack began");
        assertEquals(first, table.getLong(256 + 16), "slot 0 keeps the epoch it had as the pack began");
        long firstReportEnd = 4096 + (1L << 20);
        assertTrue(java.util.stream.IntStream.range(8192, (int) firstReportEnd).anyMatch(i -> bytes[i] != 0),
                "slot 0's first MiB was read before the rotation, with its keys");
        for (int i = (int) firstReportEnd; i < slotEnd; i++) {
            assertEquals(0, bytes[i], "slot 0 after the rotation reads as the rotation left it: byte " + i);
        }
        try (WindowedBloomFilter copy = WindowedBloomFilter.open(restored, OpenMode.READ_ONLY, clock)) {
            copy.verify();
            for (int epoch = 1; epoch < 4; epoch++) {
                for (long key = 0; key < 2_000; key++) {
                    assertTrue(copy.mightContain(epoch * 1_000_000L + key), "epoch " + epoch + " key " + key);
                }
            }
        }
    }

    private static long slotLength(byte[] file, int slot) {
        return ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getLong(256 + 32 * slot + 8);
    }

    private List<String> filesIn() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] frame(byte[] file) {
        return PackFrames.frame(PackFrames.content(file));
    }

    private static byte[] content(byte[] pack) throws IOException {
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(pack))) {
            return in.readAllBytes();
        }
    }
}
