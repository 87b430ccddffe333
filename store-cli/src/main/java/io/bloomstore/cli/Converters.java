package io.bloomstore.cli;

import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** How option values people type are read: sizes (10M, 1e6), rates (0.1%), seeds, durations (90s, 24h). Enums are read case-insensitively by picocli. */
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
            BigDecimal count;
            try {
                count = new BigDecimal(s).multiply(BigDecimal.valueOf(multiplier)).stripTrailingZeros();
            } catch (NumberFormatException e) {
                throw notAWholeNumber(value);
            } catch (ArithmeticException e) { // a scale past an int's, as 1e2147483647k's once its zeros are stripped
                throw outOfRange(value);
            }
            if (count.scale() > 0) {
                throw notAWholeNumber(value);
            }
            try {
                return count.longValueExact();
            } catch (ArithmeticException e) { // whole, so only past a long's range
                throw outOfRange(value);
            }
        }

        private static TypeConversionException notAWholeNumber(String value) {
            return new TypeConversionException("'" + value + "' is not a whole number (write e.g. 1000000, 1_000_000, 10M or 1e6)");
        }

        private static TypeConversionException outOfRange(String value) {
            return new TypeConversionException("'" + value + "' is out of range: a count is at most "
                    + "9,223,372,036,854,775,807 (about 9.2e18)");
        }
    }

    /** A false-positive rate: 0.01, 1e-6 or 1%. */
    static final class Rate implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            String s = value.trim();
            boolean percent = s.endsWith("%");
            String number = percent ? s.substring(0, s.length() - 1) : s;
            try {
                double rate = Double.parseDouble(number) / (percent ? 100 : 1);
                if (rate == 0 && new BigDecimal(number).signum() != 0 || Double.isInfinite(rate)) {
                    // said here, as typed: 1e-400 parses as 0.0, which the range check would print
                    throw new TypeConversionException("false-positive rate must be in (0, 1) exclusive, got " + value
                            + " (" + rate + " in a double)");
                }
                return rate;
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a rate (write e.g. 0.01, 1e-6 or 1%)");
            }
        }
    }

    /** A growth factor: a plain number such as 2 or 1.5 (its range is the core's to check). */
    static final class Growth implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                return Double.parseDouble(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a growth factor (write a number from 1 to 16, "
                        + "e.g. 2 or 1.5: each new segment holds that many times the keys of the one before)");
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

    /**
     * A positive duration: whole numbers with a unit, ms, s, m, h or d, one or several (90s, 30m,
     * 24h, 7d, 1h30m), or what {@link Duration#parse} reads (PT90S, P7D).
     */
    static final class Window implements ITypeConverter<Duration> {
        private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

        @Override
        public Duration convert(String value) {
            String s = value.trim().toLowerCase(java.util.Locale.ROOT);
            Duration duration = s.startsWith("p") || s.startsWith("-p") ? iso(s) : units(s);
            if (duration == null || duration.isZero() || duration.isNegative()) {
                throw new TypeConversionException("'" + value + "' is not a duration (write e.g. 90s, 30m, 24h, 7d, "
                        + "1h30m or PT90S; units ms, s, m, h, d; more than zero)");
            }
            return duration;
        }

        private static Duration iso(String s) {
            try {
                return Duration.parse(s);
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        private static Duration units(String s) {
            Matcher part = PART.matcher(s);
            Duration total = Duration.ZERO;
            int end = 0;
            while (part.lookingAt()) {
                long n;
                try {
                    n = Long.parseLong(part.group(1));
                    total = total.plus(switch (part.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        case "h" -> Duration.ofHours(n);
                        default -> Duration.ofDays(n);
                    });
                } catch (NumberFormatException | ArithmeticException e) {
                    return null;
                }
                end = part.end();
                part.region(end, s.length());
            }
            return end == s.length() && end > 0 ? total : null;
        }
    }
}
