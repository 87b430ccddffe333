package io.bloomstore.internal.hashing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The scratch encoder must give exactly {@code String.getBytes(UTF_8)}: it decides which cells a string key sets. */
class Utf8Test {
    static Stream<String> strings() {
        return Stream.of(
                "", "a", "hello, world", "\u0000\u007f",                 // ASCII, its edges included
                "\u0080", "é", "Grüße", "\u07ff",                         // 2 bytes
                "\u0800", "世界", "\uffff", "\ufeff", "€",                   // 3 bytes
                "🌍", "\ud800\udc00", "\udbff\udfff", "a🌍b😀c",           // 4 bytes: surrogate pairs
                "\ud800", "\udc00", "x\ud83dy", "x\ude00y",              // unpaired surrogates become '?'
                "\udc00\ud800", "\ud83d\ud83d\ude00", "end\ud83d",        // reversed pair, high high low, high at end
                "ascii then é then 世 then 🌍 then ascii again",
                "a".repeat(10_000), "é".repeat(5_000), "🌍".repeat(3_000), // longer than the first scratch array
                "x".repeat(255) + "🌍");                                   // a pair across the scratch size
    }

    @ParameterizedTest
    @MethodSource("strings")
    void encodingIsStringGetBytes(String s) {
        assertEncodesLikeTheJdk(s);
        assertEncodesLikeTheJdk(new StringBuilder(s));
        assertEncodesLikeTheJdk(CharBuffer.wrap(s));
    }

    /** Random strings over every kind of char, surrogates unpaired and paired, in every order. */
    @Test
    void randomStringsEncodeLikeTheJdk() {
        SplittableRandom random = new SplittableRandom(20240601);
        char[] interesting = {'a', '\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff', '\ud800', '\udbff', '\udc00',
                '\udfff', '\ue000', '\uffff'};
        for (int n = 0; n < 2_000; n++) {
            char[] chars = new char[random.nextInt(40)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = random.nextBoolean() ? interesting[random.nextInt(interesting.length)] : (char) random.nextInt(0x10000);
            }
            assertEncodesLikeTheJdk(new String(chars));
        }
    }

    /** The scratch array is reused per thread: a short string after a long one must not keep the long one's tail. */
    @Test
    void reusedScratchGivesOnlyTheNewBytes() {
        assertEncodesLikeTheJdk("🌍".repeat(1_000));
        assertEncodesLikeTheJdk("ab");
        assertEncodesLikeTheJdk("");
    }

    private static void assertEncodesLikeTheJdk(CharSequence s) {
        Utf8.Scratch scratch = Utf8.scratch();
        int length = Utf8.encode(s, scratch);
        assertArrayEquals(s.toString().getBytes(StandardCharsets.UTF_8), Arrays.copyOf(scratch.bytes, length),
                () -> "UTF-8 of " + s.toString().chars().mapToObj(c -> String.format("%04x", c)).toList());
    }
}
