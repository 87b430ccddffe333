package io.bloomstore.internal.format;

import io.bloomstore.InvalidFilterFileException;
import static org.junit.jupiter.api.Assertions.*;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FilterHeaderTest {
    private static final Path NAME = Path.of("header-test.bloom");

    /** Shapes that exercise every field: each layout and width, odd seeds, n and p given or not. */
    static Stream<Arguments> headers() {
        return Stream.of(
                Arguments.of(BloomSpec.forExpected(1000, 0.01), 0L, false),
                Arguments.of(BloomSpec.builder().cells(1).hashes(1).build(), Long.MIN_VALUE, false),
                Arguments.of(BloomSpec.builder().cells(1L << 40).hashes(64).counterBits(32).seed(-1).build(), -1L, true),
                Arguments.of(BloomSpec.builder().expectedKeys(5_000_000).fpp(1e-9).layout(Layout.BLOCKED).counterBits(4)
                        .seed(0x8000000000000000L).build(), 1_700_000_000_000L, true),
                Arguments.of(BloomSpec.builder().cells(BloomSpec.MAX_CELLS).hashes(3).counterBits(16)
                        .layout(Layout.BLOCKED).build(), Long.MAX_VALUE, false),
                Arguments.of(BloomSpec.builder().cells(777).hashes(5).counterBits(2).expectedKeys(42).build(), 1L, false));
    }

    @ParameterizedTest
    @MethodSource("headers")
    void encodeThenDecodeGivesTheSameHeader(BloomSpec spec, long created, boolean sparse) throws Exception {
        FilterHeader header = FilterHeader.newFile(spec, created, sparse);
        byte[] bytes = header.encode();
        assertEquals(FilterFileDescriptor.HEADER_LENGTH, bytes.length);

        FilterHeader decoded = FilterHeader.decode(NAME, bytes, header.fileLength());
        assertEquals(spec, decoded.spec());
        assertEquals(created, decoded.createdMillis());
        assertEquals(sparse, decoded.sparse());
        assertEquals(header.fileLength(), decoded.fileLength());
        assertArrayEquals(bytes, decoded.encode(), "re-encoding is byte for byte the same");
        assertEquals(FilterFileDescriptor.FORMAT_VERSION, decoded.version());
        assertEquals(header.identity(), decoded.identity());
    }

    @ParameterizedTest
    @MethodSource("headers")
    void aVersion1HeaderDecodesWithoutIdentityWhateverBytes80To87Hold(BloomSpec spec, long created, boolean sparse)
            throws Exception {
        byte[] bytes = FilterFixtures.forgeHeader(FilterHeader.unbound(spec, created, sparse).encode(),
                b -> b.putLong(FilterFileDescriptor.FILE_IDENTITY_OFFSET, 0x5555_5555_5555_5555L));
        FilterHeader decoded = FilterHeader.decode(NAME, bytes, spec.cellBytes() + FilterFileDescriptor.CELLS_START);
        assertEquals(FilterFileDescriptor.UNBOUND_FORMAT_VERSION, decoded.version());
        assertEquals(0, decoded.identity(), "reserved in version 1");
        assertEquals(spec, decoded.spec());
    }

    @Test
    void newFilesGetDistinctNonZeroIdentitiesAndAZeroIdentityIsRefused() throws Exception {
        BloomSpec spec = BloomSpec.forExpected(1000, 0.01);
        java.util.Set<Long> identities = new java.util.HashSet<>();
        for (int i = 0; i < 1000; i++) {
            long identity = FilterHeader.newFile(spec, 0, false).identity();
            assertNotEquals(0, identity);
            identities.add(identity);
        }
        assertEquals(1000, identities.size(), "a collision among 1000 random u64s has odds of 3e-14");
        byte[] zero = FilterFixtures.forgeHeader(FilterHeader.newFile(spec, 0, false).encode(),
                b -> b.putLong(FilterFileDescriptor.FILE_IDENTITY_OFFSET, 0));
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> FilterHeader.decode(NAME, zero, spec.cellBytes() + FilterFileDescriptor.CELLS_START));
        assertEquals(Problem.BAD_FIELD, e.problem());
        assertTrue(e.getMessage().contains("file identity"), e.getMessage());
    }

    @Test
    void aRegionMustBeVersion1() {
        BloomSpec spec = BloomSpec.forExpected(1000, 0.01);
        byte[] bound = FilterHeader.newFile(spec, 0, false).encode();
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> FilterHeader.decodeRegion(NAME, bound, spec.cellBytes() + FilterFileDescriptor.CELLS_START));
        assertEquals(Problem.UNSUPPORTED_VERSION, e.problem());
    }

    @ParameterizedTest
    @MethodSource("headers")
    void decodeReadsOnlyTheHeaderOfALongerBuffer(BloomSpec spec, long created, boolean sparse) throws Exception {
        FilterHeader header = FilterHeader.newFile(spec, created, sparse);
        byte[] page = Arrays.copyOf(header.encode(), FilterFileDescriptor.CELLS_START);
        Arrays.fill(page, FilterFileDescriptor.STATE_OFFSET, page.length, (byte) 0x77); // state is not the header's
        assertEquals(spec, FilterHeader.decode(NAME, page, header.fileLength()).spec());
    }

    @ParameterizedTest
    @MethodSource("headers")
    void fileLengthIsTheHeaderPagePlusWholePagesOfCells(BloomSpec spec, long created, boolean sparse) {
        long cellBytes = FormatReference.cellBytes(spec.cells(), spec.counterBits());
        assertEquals(cellBytes, spec.cellBytes());
        assertEquals(FilterFileDescriptor.CELLS_START + cellBytes, FilterHeader.newFile(spec, created, sparse).fileLength());
        assertEquals(0, cellBytes % 4096);
    }

    @ParameterizedTest
    @MethodSource("headers")
    void decodeRefusesABufferShorterThanTheHeader(BloomSpec spec, long created, boolean sparse) {
        byte[] bytes = Arrays.copyOf(FilterHeader.newFile(spec, created, sparse).encode(), FilterFileDescriptor.HEADER_LENGTH - 1);
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> FilterHeader.decode(NAME, bytes, 1L << 40));
        assertEquals(Problem.TOO_SHORT, e.problem());
    }
}
