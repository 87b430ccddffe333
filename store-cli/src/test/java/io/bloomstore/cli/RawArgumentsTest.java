package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RawArgumentsTest {
    private static final byte[] CAFE_UTF8 = "café".getBytes(StandardCharsets.UTF_8);
    private static final byte[] INVALID_UTF8 = {(byte) 0xff, (byte) 0xfe, 'x'};

    private static byte[] cmdline(byte[]... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] entry : entries) {
            out.writeBytes(entry);
            out.write(0);
        }
        return out.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void keysTypedUnderThePosixLocaleKeepTheirBytes() {
        Charset posix = StandardCharsets.US_ASCII;
        String[] args = {"contains", "f.bloom", new String(CAFE_UTF8, posix), new String(INVALID_UTF8, posix)};
        RawArguments raw = RawArguments.matching(args,
                cmdline(ascii("java"), ascii("-jar"), ascii("b.jar"), ascii("contains"), ascii("f.bloom"), CAFE_UTF8, INVALID_UTF8),
                posix);
        assertArrayEquals(CAFE_UTF8, raw.bytesOf(args[2]));
        assertArrayEquals(INVALID_UTF8, raw.bytesOf(args[3]));
        assertArrayEquals(ascii("f.bloom"), raw.bytesOf(args[1]));
    }

    @Test
    void anArgumentThatIsNotOneOfMainsIsItsUtf8() {
        String[] args = {"contains"};
        RawArguments raw = RawArguments.matching(args, cmdline(ascii("java"), ascii("contains")), StandardCharsets.UTF_8);
        assertArrayEquals(CAFE_UTF8, raw.bytesOf(new String("café")));
    }

    @Test
    void aCommandLineThatDoesNotMatchIsIgnored() {
        String[] args = {"contains", "café"};
        RawArguments raw = RawArguments.matching(args, cmdline(ascii("java"), ascii("other"), INVALID_UTF8), StandardCharsets.UTF_8);
        assertArrayEquals(CAFE_UTF8, raw.bytesOf(args[1]));
        RawArguments tooShort = RawArguments.matching(args, cmdline(CAFE_UTF8), StandardCharsets.UTF_8);
        assertArrayEquals(CAFE_UTF8, tooShort.bytesOf(args[1]));
    }
}
