package io.bloomstore;

import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files of format version 1, written by bloomstore before the file identity (commit 2391b11, the
 * committed files under {@code io/bloomstore/version1}, named {@code *.v1} so that no rule for
 * {@code *.bloom} files ignores them), are read, answered, verified, sealed,
 * merged and packed as they always were (docs/FORMAT.md, "Versioning").
 *
 * <p>{@code sealed.v1}: {@code forExpected(1000, 0.01)}, the string keys key-0 .. key-999,
 * sealed. {@code unsealed-counting.v1}: n = 1000, p = 0.01, 4-bit blocked, key-500 ..
 * key-1499, not sealed.
 */
class Version1FilesTest {
    @TempDir
    Path dir;

    private static void assertHoldsKeys(BloomFilter filter, int from, int to) {
        IntStream.range(from, to).forEach(i -> assertTrue(filter.mightContain("key-" + i), "key-" + i));
    }

    @Test
    void aSealedVersion1FileOpensAnswersAndVerifiesWithItsSeedZeroChecksum() throws IOException {
        Path file = copy("sealed.v1", "sealed.bloom");
        FilterFileInfo info = FileForensics.readInfo(file);
        assertEquals(1, info.formatVersion());
        assertEquals(OptionalLong.empty(), info.fileIdentity());
        assertEquals(BloomSpec.forExpected(1000, 0.01), info.spec());
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            assertHoldsKeys(filter, 0, 1000);
            assertTrue(filter.isSealed());
            assertTrue((filter.verify() == CellsCheck.INTACT), "checked against its checksum");
        }
    }

    @Test
    void damageToAVersion1FilesCellsIsStillFound() throws IOException {
        Path file = copy("sealed.v1", "sealed.bloom");
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(FilterFileDescriptor.CELLS_START + 300);
            int value = raw.read();
            raw.seek(FilterFileDescriptor.CELLS_START + 300);
            raw.write(value ^ 0x10);
        }
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_ONLY)) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, filter::verify);
            assertEquals(Problem.CELLS_CHECKSUM, e.problem());
        }
    }

    @Test
    void aVersion1FileTakesAddsAndSealsAsVersion1() throws IOException {
        Path file = copy("unsealed-counting.v1", "counting.bloom");
        byte[] headerBefore = header(file);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertHoldsKeys(filter, 500, 1500);
            assertTrue(filter.count("key-700") >= 1);
            assertTrue(filter.remove("key-700"));
            filter.add("new-key");
            assertFalse((filter.verify() == CellsCheck.INTACT), "not sealed: no checksum");
            filter.seal();
            assertTrue((filter.verify() == CellsCheck.INTACT));
        }
        assertArrayEquals(headerBefore, header(file), "the header, version 1 included, is never rewritten");
        long stored = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN)
                .getLong(FilterFileDescriptor.CELLS_CHECKSUM_OFFSET);
        byte[] bytes = Files.readAllBytes(file);
        assertEquals(net.openhft.hashing.LongHashFunction.xx3(0).hashBytes(bytes, FilterFileDescriptor.CELLS_START,
                bytes.length - FilterFileDescriptor.CELLS_START), stored, "a version 1 seal uses seed 0");
    }

    @Test
    void version1FilesMergeIntoANewVersion3File() throws IOException {
        Path sealed = copy("sealed.v1", "sealed.bloom");
        Path other = dir.resolve("other.bloom");
        try (BloomFilter filter = BloomFilter.create(other, BloomSpec.forExpected(1000, 0.01))) {
            filter.add("other-key");
        }
        Path union = dir.resolve("union.bloom");
        Merge.toNewFile(union, List.of(sealed, other), MergeOp.OR);
        FilterFileInfo info = FileForensics.readInfo(union);
        assertEquals(FilterFileDescriptor.FORMAT_VERSION, info.formatVersion());
        assertTrue(info.fileIdentity().isPresent());
        assertNotEquals(FileForensics.readInfo(other).fileIdentity(), info.fileIdentity(), "a merged file is a new file");
        try (BloomFilter filter = BloomFilter.open(union, OpenMode.READ_ONLY)) {
            assertHoldsKeys(filter, 0, 1000);
            assertTrue(filter.mightContain("other-key"));
            assertTrue((filter.verify() == CellsCheck.INTACT), "sealed before it was published");
        }
        Path both = dir.resolve("both.bloom");
        Merge.toNewFile(both, List.of(sealed, copy("sealed.v1", "again.bloom")),
                MergeOp.AND);
        try (BloomFilter filter = BloomFilter.open(both, OpenMode.READ_ONLY)) {
            assertHoldsKeys(filter, 0, 1000);
        }
    }

    /**
     * A file written before the count of lowerings holds 0 there: it is checkpointed as before, its
     * removes are counted from 0 on, and a checkpoint of its copy back over it after one is refused.
     */
    @Test
    void aVersion1CountingFileIsCheckpointedAndItsRemovesCountedFromZero() throws IOException {
        Path file = copy("unsealed-counting.v1", "counting.bloom");
        assertEquals(0, lowerings(file), "written before the count existed");
        Path checkpoint = dir.resolve("copy.bloom");
        Checkpoint.write(file, checkpoint);
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            assertTrue(filter.remove("key-600"));
        }
        assertEquals(1, lowerings(file));
        assertEquals(1, FileForensics.readInfo(file).formatVersion(), "still version 1");
        assertThrows(Checkpoint.BackwardsException.class, () -> Checkpoint.write(checkpoint, file));
        Checkpoint.write(file, checkpoint);
        try (BloomFilter copied = BloomFilter.open(checkpoint, OpenMode.READ_ONLY)) {
            assertHoldsKeys(copied, 500, 600);
            assertHoldsKeys(copied, 601, 1500);
        }
    }

    private static long lowerings(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN)
                .getLong(FilterFileDescriptor.LOWERINGS_OFFSET);
    }

    private Path copy(String resource, String as) throws IOException {
        Path file = dir.resolve(as);
        try (InputStream in = Version1FilesTest.class.getResourceAsStream("version1/" + resource)) {
            Files.copy(in, file);
        }
        return file;
    }

    @Test
    void aVersion1FilePacksAndUnpacksBitForBit() throws IOException {
        for (String name : List.of("sealed.v1", "unsealed-counting.v1")) {
            Path file = copy(name, name + ".bloom");
            Path pack = dir.resolve(name + ".pack");
            Pack.packTo(file, pack);
            Path restored = dir.resolve("restored-" + name);
            try (InputStream in = Files.newInputStream(pack)) {
                assertEquals(1, Pack.unpack(in, pack.toString(), restored).info().orElseThrow().formatVersion());
            }
            assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(restored));
        }
    }

    private static byte[] header(Path file) throws IOException {
        byte[] header = new byte[FilterFileDescriptor.HEADER_LENGTH];
        try (InputStream in = Files.newInputStream(file)) {
            assertEquals(header.length, in.readNBytes(header, 0, header.length));
        }
        return header;
    }
}
