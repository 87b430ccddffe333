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
    @ValueSource(strings = {"", "ten", "1.5", "10X", "1e-3", "99999999999T"})
    void countsThatAreNotWholeNumbersAreRefusedWithExamples(String text) {
        TypeConversionException e = assertThrows(TypeConversionException.class, () -> new Converters.Count().convert(text));
        assertTrue(e.getMessage().contains("1_000_000"), e.getMessage());
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
}
