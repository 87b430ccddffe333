package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine.TypeConversionException;

class ConvertersTest {
    @ParameterizedTest
    @CsvSource({"1000000,1000000", "1_000_000,1000000", "10k,10000", "10M,10000000", "2G,2000000000",
            "1T,1000000000000", "1e6,1000000", "1.5M,1500000", "-5,-5"})
    void countsAsPeopleWriteThem(String text, long expected) {
        assertEquals(expected, new Converters.Count().convert(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ten", "1.5", "10X", "1e-3", "1.0000001k"})
    void countsThatAreNotWholeNumbersAreRefusedWithExamples(String text) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> new Converters.Count().convert(text));
        assertTrue(e.getMessage().contains("is not a whole number") && e.getMessage().contains("1_000_000"),
                e.getMessage());
    }

    /** A whole number past a long is not called "not a whole number": the message says what is wrong with it. */
    @ParameterizedTest
    @ValueSource(strings = {"99999999999T", "1e20", "9223372036854775808", "-9223372036854775809", "1e2147483647k"})
    void countsPastALongSaySo(String text) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> new Converters.Count().convert(text));
        assertEquals("'" + text + "' is out of range: a count is at most 9,223,372,036,854,775,807 (about 9.2e18)",
                e.getMessage());
    }

    @Test
    void theLargestCountIsRead() {
        assertEquals(Long.MAX_VALUE, new Converters.Count().convert("9223372036854775807"));
        assertEquals(1000, new Converters.Count().convert("1.000k"));
    }

    @ParameterizedTest
    @CsvSource({"0.01,0.01", "1e-6,0.000001", "1%,0.01", "0.1%,0.001"})
    void ratesAsFractionsOrPercentages(String text, double expected) {
        assertEquals(expected, new Converters.Rate().convert(text), 1e-15);
    }

    @Test
    void badRateIsRefused() {
        assertThrows(TypeConversionException.class, () -> new Converters.Rate().convert("often"));
    }

    /**
     * A rate that a double cannot hold is refused as typed: 1e-400 was reported as "got 0.0", the
     * double it rounds to; other rates out of range are the core's to refuse (it prints them as typed).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1e-400|false-positive rate must be in (0, 1) exclusive, got 1e-400 (0.0 in a double)",
        "1e-400%|false-positive rate must be in (0, 1) exclusive, got 1e-400% (0.0 in a double)",
        "1e400|false-positive rate must be in (0, 1) exclusive, got 1e400 (Infinity in a double)"})
    void aRateADoubleCannotHoldIsReportedAsTyped(String text, String message) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> new Converters.Rate().convert(text));
        assertEquals(message, e.getMessage());
    }

    @Test
    void zeroAndOtherRatesOutOfRangeAreLeftToTheRangeCheck() {
        assertEquals(0.0, new Converters.Rate().convert("0.0e5"));
        assertEquals(1.5, new Converters.Rate().convert("1.5"));
    }

    @Test
    void seedsInDecimalHexOrRandom() {
        Converters.Seed seeds = new Converters.Seed();
        assertEquals(42L, seeds.convert("42"));
        assertEquals(-1L, seeds.convert("18446744073709551615"));
        assertEquals(-1L, seeds.convert("-1"));
        assertEquals(0x626c6f6f6d737472L, seeds.convert("0x626c6f6f6d737472"));
        assertNotEquals(seeds.convert("random"), seeds.convert("random"));
        assertThrows(TypeConversionException.class, () -> seeds.convert("0xZZ"));
    }

    @ParameterizedTest
    @CsvSource({"90s,90000", "30m,1800000", "24h,86400000", "7d,604800000", "1h30m,5400000", "1500ms,1500",
            "2s,2000", "PT90S,90000", "pt1h,3600000", "P7D,604800000", " 10S ,10000"})
    void durationsWithUnitsOrIso8601(String text, long millis) {
        assertEquals(java.time.Duration.ofMillis(millis), new Converters.Window().convert(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "90", "1.5h", "h", "24hours", "1w", "0s", "PT0S", "-PT5S", "PT", "5s3", "99999999999999999999d"})
    void durationsWithoutAUnitOrNotPositiveAreRefusedWithExamples(String text) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> new Converters.Window().convert(text));
        assertTrue(e.getMessage().contains("90s, 30m, 24h, 7d"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"7d,604800000", "1h30m,5400000", "2s,2000", "1500ms,1500", "1d1s,86401000"})
    void durationsPrintInTheirLargestWholeUnits(String text, long millis) {
        assertEquals(text, Human.duration(java.time.Duration.ofMillis(millis)));
    }

    @Test
    void growthFactorsAreNumbersAndOthersAreRefusedWithTheRange() {
        assertEquals(1.5, new Converters.Growth().convert("1.5"));
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> new Converters.Growth().convert("2x"));
        assertTrue(e.getMessage().contains("from 1 to 16"), e.getMessage());
    }
}
