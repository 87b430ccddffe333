package io.bloomstore.cli;

import java.math.BigDecimal;
import java.security.SecureRandom;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How option values people type are read: sizes (10M, 1e6), rates (0.1%), seeds. Enums are read case-insensitively by picocli. */
final class Converters {
    private Converters() {
    }

    /** A count: 1000000, 1_000_000, 10k, 10M, 2G, 1T (powers of 1000) or 1e6. */
    static final class Count implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String s = value.trim().replace("_", "");
            long multiplier = 1;
            if (!s.isEmpty()) {
                switch (Character.toUpperCase(s.charAt(s.length() - 1))) {
                    case 'K': multiplier = 1_000L; break;
                    case 'M': multiplier = 1_000_000L; break;
                    case 'G': multiplier = 1_000_000_000L; break;
                    case 'T': multiplier = 1_000_000_000_000L; break;
                    default: break;
                }
            }
            if (multiplier != 1) {
                s = s.substring(0, s.length() - 1);
            }
            try {
                return new BigDecimal(s).multiply(BigDecimal.valueOf(multiplier)).longValueExact();
            } catch (NumberFormatException | ArithmeticException e) {
                throw new TypeConversionException("'" + value + "' is not a whole number (write e.g. 1000000, 1_000_000, 10M or 1e6)");
            }
        }
    }

    /** A false-positive rate: 0.01, 1e-6 or 1%. */
    static final class Rate implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String s = value.trim();
            boolean percent = s.endsWith("%");
            try {
                double rate = Double.parseDouble(percent ? s.substring(0, s.length() - 1) : s);
                return percent ? rate / 100 : rate;
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a rate (write e.g. 0.01, 1e-6 or 1%)");
            }
        }
    }

    /** A hash seed: a decimal or 0x-hexadecimal 64-bit number, or {@code random}. */
    static final class Seed implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String s = value.trim();
            try {
                if (s.equalsIgnoreCase("random")) {
                    return new SecureRandom().nextLong();
                }
                if (s.startsWith("0x") || s.startsWith("0X")) {
                    return Long.parseUnsignedLong(s.substring(2), 16);
                }
                return s.startsWith("-") ? Long.parseLong(s) : Long.parseUnsignedLong(s);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a seed (a 64-bit number, decimal or 0x-hex, or 'random')");
            }
        }
    }
}
