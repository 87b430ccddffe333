package io.bloomstore.cli;

import io.bloomstore.BloomSpec;
import io.bloomstore.tools.Display;
import java.util.Locale;

/** Numbers as people read them in bloomstore's output: 1,234,567 keys, 1.5 MiB, 0.81%. */
final class Human {
    private static final String[] BINARY_UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Human() {
    }

    /**
     * 1234567 as "1,234,567". Grouped here rather than by {@code String.format("%,d")}, whose first
     * call in a JVM loads the locale data for the separator: a one-key {@code bloomstore add}, which
     * prints counts where {@code contains} prints none, would start measurably slower than
     * {@code contains} (docs/BENCHMARKS-HISTORY.md, "CLI start-up", step 12).
     */
    static String count(long n) {
        String digits = Long.toString(n);
        int sign = n < 0 ? 1 : 0;
        int firstGroup = (digits.length() - sign - 1) % 3 + 1;
        StringBuilder grouped = new StringBuilder(digits.length() + digits.length() / 3);
        grouped.append(digits, 0, sign + firstGroup);
        for (int i = sign + firstGroup; i < digits.length(); i += 3) {
            grouped.append(',').append(digits, i, i + 3);
        }
        return grouped.toString();
    }

    /** An estimated count, rounded: "1,234,567"; the infinite estimate of a filter whose every cell is set as "unknown (every cell is set)". */
    static String estimate(double n) {
        return Double.isFinite(n) ? count(Math.round(n)) : "unknown (every cell is set)";
    }

    /** 1572864 as "1.5 MiB"; below 1 KiB as "512 bytes". */
    static String bytes(long n) {
        if (n < 1024) {
            return n + " bytes";
        }
        double value = n;
        int unit = 0;
        while (value >= 1024 && unit < BINARY_UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, BINARY_UNITS[unit]);
    }

    /** A rate as a percentage with significant digits kept for small ones: 1%, 0.0123%, 1.00e-08%. */
    static String percent(double rate) {
        double p = rate * 100;
        if (p == 0 || p >= 0.01) {
            return String.format(Locale.ROOT, "%.4g%%", p).replaceAll("\\.?0+%$", "%");
        }
        return String.format(Locale.ROOT, "%.2e%%", p);
    }

    /**
     * A layout or a filter kind as the output names it: the constant's name in lower case, which is
     * also how an option takes a layout ({@code --layout blocked}; picocli reads it back case-insensitively).
     */
    static String name(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** A seed as 0x-hex, the way --seed takes it and every message shows it. */
    static String seed(long seed) {
        return Display.seedText(seed);
    }

    /** "9,585,059 cells of 1 bit, 7 hashes, standard layout (1.1 MiB)". */
    static String shape(BloomSpec spec, long fileBytes) {
        return count(spec.cells()) + " cells of " + spec.counterBits() + (spec.counterBits() == 1 ? " bit" : " bits")
                + ", " + spec.hashes() + (spec.hashes() == 1 ? " hash" : " hashes") + ", " + name(spec.layout())
                + " layout (" + bytes(fileBytes) + ")";
    }

    /** A duration in its largest whole units: "7d", "1h30m", "2s", "1500ms". */
    static String duration(java.time.Duration d) {
        long millis = d.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        StringBuilder text = new StringBuilder();
        long[] sizes = {86_400, 3_600, 60, 1};
        String[] units = {"d", "h", "m", "s"};
        for (int i = 0; i < sizes.length; i++) {
            if (seconds >= sizes[i]) {
                text.append(seconds / sizes[i]).append(units[i]);
                seconds %= sizes[i];
            }
        }
        return text.length() == 0 ? "0s" : text.toString();
    }

    /** A growth factor: "2x", "1.5x". */
    static String factor(double s) {
        return String.format(Locale.ROOT, "%.4g", s).replaceAll("\\.?0+$", "") + "x";
    }
}
