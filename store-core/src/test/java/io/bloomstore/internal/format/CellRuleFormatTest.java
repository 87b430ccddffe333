package io.bloomstore.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.bloomstore.BloomSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.InvalidFilterFileException.Problem;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The version 4 header (docs/FORMAT.md, "Cell rules"): its bytes, the vector in FORMAT.md, the
 * checks a reader makes, and that plain files keep version 3 (and version 1 files are still read
 * as plain).
 */
class CellRuleFormatTest {
    private static final Path PATH = Path.of("f.bloom");
    private static final FormatDocument DOC = FormatDocument.load();

    @Test
    void theDocumentedStableHeaderIsTheBytesTheCodeWrites() throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(65536).hashes(4).counterBits(2).expectedKeys(1000).fpp(0.01).build();
        FilterHeader header = FilterHeader.withIdentity(spec, CellRule.stable(30), 1700000000000L, 0x0123456789abcdefL);
        StringBuilder documented = new StringBuilder();
        for (String line : DOC.codeBlock("stable-header")) {
            documented.append(line.substring(6).replace(" ", "")); // "0000  42 4c ...": the offset, then bytes
        }
        assertEquals(documented.toString(), HexFormat.of().formatHex(header.encode()), "FORMAT.md's version 4 example header");
        FilterHeader read = FilterHeader.decode(PATH, header.encode(), header.fileLength());
        assertEquals(CellRule.stable(30), read.rule());
        assertEquals(4, read.version());
    }

    @Test
    void valuedHeadersRoundTripAndPlainFilesStayVersion3() throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(1000).hashes(7).counterBits(8).build();
        FilterHeader valued = FilterHeader.newFile(spec, CellRule.valued(false, 7), 0, false);
        assertEquals(CellRule.valued(false, 7), FilterHeader.decode(PATH, valued.encode(), valued.fileLength()).rule());
        FilterHeader plain = FilterHeader.newFile(spec, 0, false);
        assertEquals(3, plain.version());
        assertEquals(CellRule.PLAIN, FilterHeader.decode(PATH, plain.encode(), plain.fileLength()).rule());
        FilterHeader old = FilterHeader.unbound(spec, 0, false);
        assertEquals(CellRule.PLAIN, FilterHeader.decode(PATH, old.encode(), old.fileLength()).rule());
        assertThrows(IllegalArgumentException.class,
                () -> FilterHeader.newFile(spec, CellRule.valued(true, 8), 0, false), "8 value bits need 16-bit cells");
    }

    @Test
    void aReaderRefusesWhatItCannotReadWithAClearProblem() throws Exception {
        BloomSpec spec = BloomSpec.builder().cells(1000).hashes(3).counterBits(2).build();
        FilterHeader header = FilterHeader.newFile(spec, CellRule.stable(5), 0, false);
        assertProblem(Problem.BAD_FIELD, "cell rule", withByte(header, FilterFileDescriptor.CELL_RULE_OFFSET, 9), header);
        assertProblem(Problem.BAD_FIELD, "cell rule", withByte(header, FilterFileDescriptor.CELL_RULE_OFFSET, 0), header);
        assertProblem(Problem.BAD_FIELD, "decrements", withByte(header, FilterFileDescriptor.DECREMENTS_OFFSET, 0), header);
        assertProblem(Problem.BAD_FIELD, "1, 2 or 4 bits", withByte(header, FilterFileDescriptor.COUNTER_BITS_OFFSET, 8), header);
        assertProblem(Problem.BAD_FIELD, "value bits", withByte(header, FilterFileDescriptor.VALUE_BITS_OFFSET, 3), header);
        // the rule a release before cell rules would meet: version 4 is not among the versions it reads,
        // as version 5 is not among this release's
        assertProblem(Problem.UNSUPPORTED_VERSION, "use the bloomstore release that wrote it",
                withByte(header, FilterFileDescriptor.VERSION_OFFSET, 5), header);
        // a region of a segmented file is version 1 only
        InvalidFilterFileException region = assertThrows(InvalidFilterFileException.class,
                () -> FilterHeader.decodeRegion(PATH, header.encode(), header.fileLength()));
        assertEquals(Problem.UNSUPPORTED_VERSION, region.problem());
    }

    private static byte[] withByte(FilterHeader header, int offset, int value) {
        byte[] bytes = header.encode();
        bytes[offset] = (byte) value;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(FilterFileDescriptor.HEADER_CRC_OFFSET, FilterHeader.crc(bytes));
        return bytes;
    }

    private static void assertProblem(Problem problem, String words, byte[] bytes, FilterHeader header) {
        InvalidFilterFileException e = assertThrows(InvalidFilterFileException.class,
                () -> FilterHeader.decode(PATH, bytes, header.fileLength()));
        assertEquals(problem, e.problem(), e.getMessage());
        assertTrue(e.getMessage().contains(words), e.getMessage());
    }
}
