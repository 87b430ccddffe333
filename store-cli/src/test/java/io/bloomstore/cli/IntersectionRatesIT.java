package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The false-positive rates {@code merge --op and} prints for its intersection, against the rates
 * measured by querying the result with keys no one added and with keys of one input only.
 *
 * <p>A has 80,000 keys of its own and B 80,000 of its own, and they share 20,000; both are sized for
 * 100,000 at 1%. A key of A alone is found in the intersection exactly when B finds it: at B's
 * rate, about 1%. A key of neither is found at the rate of the intersection's fill, about 0.016%,
 * the figure inspect shows for the result: the figure a user took for the whole story (issue 17
 * measured a 28x difference).
 */
class IntersectionRatesIT {
    private static final int OWN = 80_000;
    private static final int SHARED = 20_000;
    private static final int FRESH = 1_000_000;
    /** Standard deviations of the binomial count allowed, plus a relative model error. */
    private static final double SIGMAS = 5;
    private static final double MODEL_ERROR = 0.05;
    private static final Pattern RATES = Pattern.compile("false positives of the intersection: ([0-9.e+-]+)% for a key "
            + "in none of the inputs; up to ([0-9.e+-]+)% for a key in some of them but not all \\(it is found at the "
            + "rate of the inputs it is missing from; [ab]\\.bloom's is the highest\\)\n");

    @TempDir
    Path dir;

    /** Package-like names, as real key files hold: a word, a dash and a number in hex. */
    private static String key(String kind, int i) {
        return kind + "-" + Integer.toHexString(i * 0x9E3779B1) + "-pkg";
    }

    private Path keys(String name, String kind, int count) throws Exception {
        return Files.writeString(dir.resolve(name), IntStream.range(0, count).mapToObj(i -> key(kind, i))
                .collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    void mergeAndPrintsTheRatesThatQueriesMeasure() throws Exception {
        String shared = Files.readString(keys("shared.txt", "shared", SHARED));
        Files.writeString(dir.resolve("a.txt"), Files.readString(keys("a-only.txt", "alpha", OWN)) + shared);
        Files.writeString(dir.resolve("b.txt"), Files.readString(keys("b-only.txt", "beta", OWN)) + shared);
        keys("fresh.txt", "fresh", FRESH);
        for (String part : new String[] {"a", "b"}) {
            run(dir, "build", part + ".bloom", "--from", part + ".txt", "--expected", "100k", "--fpp", "0.01").assertOk();
        }

        String merged = run(dir, "merge", "and.bloom", "a.bloom", "b.bloom", "--op", "and").assertOk().stdout();
        Matcher rates = RATES.matcher(merged.substring(merged.indexOf('\n') + 1));
        assertTrue(rates.matches(), merged);
        double printedNone = Double.parseDouble(rates.group(1)) / 100;
        double printedSome = Double.parseDouble(rates.group(2)) / 100;

        double fresh = foundRate("fresh.txt", FRESH);
        double aOnly = foundRate("a-only.txt", OWN);
        String report = String.format(Locale.ROOT, "printed %.3e none, %.3e some; measured %.3e fresh, %.3e A only",
                printedNone, printedSome, fresh, aOnly);
        System.out.println("INTERSECTION " + report);
        assertWithin(printedNone, fresh, FRESH, report);
        assertWithin(printedSome, aOnly, OWN, report);
        assertTrue(aOnly > 20 * fresh, "the two rates differ by far, which is why both are printed: " + report);

        // inspect's figure for the result is the first, and says what it is for
        double inspected = new ObjectMapper().readTree(run(dir, "inspect", "and.bloom", "--json").assertOk().stdout())
                .get("currentFpp").asDouble();
        assertEquals(printedNone, inspected, printedNone * 0.01, report);
        String text = run(dir, "inspect", "and.bloom").assertOk().stdout();
        assertTrue(text.contains(" now, for a key never added (to any input, if it is an intersection made by merge "
                + "--op and)"), text);
        // every shared key is found: an intersection has no false negatives
        assertEquals(0, run(dir, "contains", "and.bloom", "--from", "shared.txt", "--print", "absent").exit());
    }

    /** The share of the keys of {@code file} that the intersection reports present. */
    private double foundRate(String file, int count) {
        JarProcess.Result found = run(dir, "contains", "and.bloom", "--from", file, "--print", "present");
        return (double) found.stdout().lines().count() / count;
    }

    private static void assertWithin(double expected, double measured, int queries, String report) {
        double sigma = Math.sqrt(expected * (1 - expected) / queries);
        assertTrue(Math.abs(measured - expected) <= SIGMAS * sigma + MODEL_ERROR * expected,
                "|" + measured + " - " + expected + "| beyond " + SIGMAS + " sigma: " + report);
    }
}
