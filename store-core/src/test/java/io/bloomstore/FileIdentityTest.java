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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which operations give a file a new identity and which keep it (docs/FORMAT.md, "File identity"). */
class FileIdentityTest {
    private static final BloomSpec SPEC = BloomSpec.forExpected(1000, 0.01);

    @TempDir
    Path dir;

    private static long headerIdentity(Path file) throws IOException {
        return bytes(file).getLong(FilterFileDescriptor.FILE_IDENTITY_OFFSET);
    }

    private static long stateIdentity(Path file) throws IOException {
        return bytes(file).getLong(FilterFileDescriptor.IDENTITY_COPY_OFFSET);
    }

    private static ByteBuffer bytes(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private Path filterWith(String name, String key) throws IOException {
        Path file = dir.resolve(name);
        try (BloomFilter filter = BloomFilter.create(file, SPEC, CreateOption.REPLACE_EXISTING)) {
            filter.add(key);
        }
        return file;
    }

    @Test
    void createWritesOneNewIdentityIntoHeaderAndStateAndUsingTheFileKeepsIt() throws IOException {
        Path file = filterWith("a.bloom", "alice");
        long identity = headerIdentity(file);
        assertNotEquals(0, identity);
        assertEquals(identity, stateIdentity(file));
        assertEquals(identity, FileForensics.readInfo(file).fileIdentity().getAsLong());
        try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
            filter.add("bob");
            filter.seal();
        }
        assertEquals(identity, headerIdentity(file));
        assertEquals(identity, stateIdentity(file));
        filterWith("a.bloom", "carol");
        assertNotEquals(identity, headerIdentity(file), "a file created over another is a new file");
        assertEquals(headerIdentity(file), stateIdentity(file));
    }

    @Test
    void aMergeMakesANewIdentityAndAnInPlaceMergeKeepsTheTargets() throws IOException {
        Path a = filterWith("a.bloom", "alice");
        Path b = filterWith("b.bloom", "bob");
        Path union = dir.resolve("union.bloom");
        Merge.toNewFile(union, List.of(a, b), MergeOp.OR);
        long merged = headerIdentity(union);
        assertNotEquals(headerIdentity(a), merged);
        assertNotEquals(headerIdentity(b), merged);
        assertEquals(merged, stateIdentity(union));

        long target = headerIdentity(a);
        try (BloomFilter into = BloomFilter.open(a, OpenMode.READ_WRITE);
                BloomFilter from = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            Merge.inPlace(into, from, MergeOp.OR, null);
            into.seal();
            assertTrue((into.verify() == CellsCheck.INTACT));
        }
        assertEquals(target, headerIdentity(a));
    }

    @Test
    void unpackRestoresTheIdentityBitForBit() throws IOException {
        Path a = filterWith("a.bloom", "alice");
        Path pack = dir.resolve("a.pack");
        Pack.packTo(a, pack);
        Path restored = dir.resolve("restored.bloom");
        try (InputStream in = Files.newInputStream(pack)) {
            Pack.unpack(in, pack.toString(), restored);
        }
        assertEquals(headerIdentity(a), headerIdentity(restored));
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(restored));
    }

    @Test
    void theSameCellsUnderAnotherIdentityGiveAnotherChecksum() throws IOException {
        Path a = filterWith("a.bloom", "same");
        Path b = filterWith("b.bloom", "same");
        for (Path file : List.of(a, b)) {
            try (BloomFilter filter = BloomFilter.open(file, OpenMode.READ_WRITE)) {
                filter.seal();
            }
        }
        long checksumA;
        long checksumB;
        try (BloomFilter filterA = BloomFilter.open(a, OpenMode.READ_ONLY);
                BloomFilter filterB = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            checksumA = filterA.sealedChecksum().getAsLong();
            checksumB = filterB.sealedChecksum().getAsLong();
        }
        assertArrayEquals(cells(a), cells(b), "the same key in the same shape: the same cells");
        assertNotEquals(checksumA, checksumB);
        // a's whole header page (state, seal and checksum included) over b's cells
        byte[] page = new byte[FilterFileDescriptor.CELLS_START];
        try (RandomAccessFile from = new RandomAccessFile(a.toFile(), "r"); RandomAccessFile to = new RandomAccessFile(b.toFile(), "rw")) {
            from.readFully(page);
            to.write(page);
        }
        try (BloomFilter filter = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            assertTrue((filter.verify() == CellsCheck.INTACT), "identical cells are no damage, whichever header they carry");
        }
    }

    @Test
    void aHeaderFromAnotherFileIsAHeaderMismatch() throws IOException {
        Path a = filterWith("a.bloom", "alice");
        Path b = filterWith("b.bloom", "bob");
        byte[] header = new byte[FilterFileDescriptor.HEADER_LENGTH];
        try (RandomAccessFile from = new RandomAccessFile(a.toFile(), "r"); RandomAccessFile to = new RandomAccessFile(b.toFile(), "rw")) {
            from.readFully(header);
            to.write(header);
        }
        try (BloomFilter filter = BloomFilter.open(b, OpenMode.READ_ONLY)) {
            InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class, filter::verify);
            assertEquals(Problem.HEADER_MISMATCH, e.problem());
        }
    }

    private static byte[] cells(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return java.util.Arrays.copyOfRange(bytes, FilterFileDescriptor.CELLS_START, bytes.length);
    }
}
