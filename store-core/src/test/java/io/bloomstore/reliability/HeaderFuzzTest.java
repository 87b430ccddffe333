package io.bloomstore.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.InvalidFilterFileException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes the header parser: whatever the bytes and the file length, {@link FilterHeader#decode}
 * either returns a header consistent with them or throws {@link InvalidFilterFileException} — no
 * other exception, ever (a damaged or foreign file must get a clear error, never a crash).
 *
 * <p>In a normal {@code mvn test} this replays the committed corpus
 * ({@code src/test/resources/io/bloomstore/reliability/HeaderFuzzTestInputs/}); with
 * {@code JAZZER_FUZZ=1} it fuzzes (see docs/RELIABILITY.md).
 */
class HeaderFuzzTest {
    private static final Path PATH = Path.of("fuzzed.bloom");

    @BeforeAll
    static void configureJazzer() {
        JazzerSettings.noHooksWhenReplaying();
    }

    /** How the fuzz input is read; see {@link HeaderFuzzInput}. */
    @FuzzTest(maxDuration = "5m")
    void decodeAcceptsAConsistentHeaderOrRefusesWithAClearProblem(byte[] data) throws InvalidFilterFileException {
        HeaderFuzzInput input = HeaderFuzzInput.of(data);
        FilterHeader header;
        try {
            header = FilterHeader.decode(PATH, input.header(), input.fileLength());
        } catch (InvalidFilterFileException e) {
            assertNotNull(e.problem());
            assertTrue(e.getMessage().startsWith(PATH + ": "), e.getMessage());
            return;
        }
        assertEquals(input.fileLength(), header.fileLength(), "the header describes the file's length");
        assertEquals(FilterFileDescriptor.CELLS_START + header.spec().cellBytes(), header.fileLength());
        FilterHeader again = FilterHeader.decode(PATH, header.encode(), header.fileLength());
        assertEquals(header.spec(), again.spec(), "encode then decode keeps the shape");
        assertEquals(header.createdMillis(), again.createdMillis());
        assertEquals(header.sparse(), again.sparse());
    }

    /**
     * The fuzz input: a control byte, then (for an explicit length) 8 bytes of file length, then the
     * header bytes. Control bit 2 re-signs the header with a correct CRC32C, so the fuzzer gets past
     * the checksum to the field checks; bits 0-1 choose the file length: 0, the header bytes' own
     * count; 2, the explicit value; 1 or 3, the length the header's cells-length field implies.
     */
    record HeaderFuzzInput(byte[] header, long fileLength) {
        static final int LENGTH_OF_BYTES = 0;
        static final int LENGTH_FROM_FIELD = 1;
        static final int LENGTH_EXPLICIT = 2;
        static final int RESIGN = 4;

        static HeaderFuzzInput of(byte[] data) {
            int control = data.length == 0 ? 0 : data[0];
            int mode = control & 3;
            int from = mode == LENGTH_EXPLICIT ? 9 : 1;
            byte[] header = data.length > from ? Arrays.copyOfRange(data, from, data.length) : new byte[0];
            if ((control & RESIGN) != 0 && header.length >= FilterFileDescriptor.HEADER_LENGTH) {
                resign(header);
            }
            long length;
            if (mode == LENGTH_EXPLICIT && data.length >= 9) {
                length = ByteBuffer.wrap(data, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
            } else if ((mode & LENGTH_FROM_FIELD) != 0 && header.length >= FilterFileDescriptor.HEADER_LENGTH) {
                length = FilterFileDescriptor.CELLS_START + ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN)
                        .getLong(FilterFileDescriptor.CELLS_LENGTH_OFFSET);
            } else {
                length = header.length;
            }
            return new HeaderFuzzInput(header, length);
        }

        /** The input that feeds {@code header} with {@code control}; for the seed corpus. */
        static byte[] encode(int control, long explicitLength, byte[] header) {
            ByteBuffer b = ByteBuffer.allocate(header.length + 9).order(ByteOrder.LITTLE_ENDIAN).put((byte) control);
            if ((control & 3) == LENGTH_EXPLICIT) {
                b.putLong(explicitLength);
            }
            b.put(header);
            return Arrays.copyOf(b.array(), b.position());
        }

        static void resign(byte[] header) {
            CRC32C crc = new CRC32C();
            crc.update(header, 0, FilterFileDescriptor.HEADER_CRC_OFFSET);
            ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(FilterFileDescriptor.HEADER_CRC_OFFSET, (int) crc.getValue());
        }
    }
}
