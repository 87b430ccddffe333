package io.bloomstore.cli;

import static io.bloomstore.cli.JarProcess.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bloomstore.GrowingSpec;
import io.bloomstore.Layout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code bloomstore size} through the jar: the bytes it reports are the length of the file
 * {@code create} then makes with the same options, for every kind, layout and counter width; --json
 * holds the numbers the text shows; and what makes no sense is refused with exit 2.
 */
class SizeIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<Arguments> layoutsAndWidths() {
        return Stream.of(Layout.values()).filter(layout -> !layout.isImported())
                .flatMap(layout -> (layout == Layout.SECTORIZED || layout == Layout.SBBF ? IntStream.of(1) // 1-bit cells only
                        : IntStream.of(1, 2, 8, 32)).mapToObj(width -> Arguments.of(name(layout), width)));
    }

    /** The layouts of growing and windowed files: not Parquet's, whose filters have one size. */
    static Stream<String> layouts() {
        return Stream.of(Layout.values()).filter(layout -> !layout.isImported() && layout != Layout.SBBF).map(SizeIT::name);
    }

    private static String name(Layout layout) {
        return layout.name().toLowerCase(Locale.ROOT);
    }

    @ParameterizedTest
    @MethodSource("layoutsAndWidths")
    void aFixedFileIsAsLongAsSizeSays(String layout, int width) throws IOException {
        String[] shape = {"--expected", "20k", "--fpp", "0.01", "--layout", layout, "--counter-bits", Integer.toString(width)};
        JsonNode size = sizeJson(shape);
        assertEquals("fixed", size.get("kind").asText());
        assertEquals(layout, size.get("layout").asText());
        assertEquals(width, size.get("counterBits").asInt());
        assertEquals(size.get("fileBytes").asLong(), size.get("createdBytes").asLong());
        assertEquals(created("f.bloom", shape), size.get("fileBytes").asLong(), String.join(" ", shape));
        JsonNode inspect = JSON.readTree(run(dir, "inspect", "f.bloom", "--json").assertOk().stdout());
        assertEquals(inspect.get("cells").asLong(), size.get("cells").asLong());
        assertEquals(inspect.get("hashes").asInt(), size.get("hashes").asInt());
        assertEquals((double) size.get("cells").asLong() * width / 20_000, size.get("bitsPerKey").asDouble(), 1e-9);
        double rate = size.get("expectedFpp").asDouble();
        assertTrue(rate > 0.005 && rate <= 0.0101, "expected rate " + rate);
    }

    @Test
    void aFilterGivenByCellsAndHashesHasNoRateWithoutKeys() throws IOException {
        String[] shape = {"--cells", "1M", "--hashes", "5"};
        JsonNode size = sizeJson(shape);
        assertEquals(1_000_000, size.get("cells").asLong());
        assertEquals(5, size.get("hashes").asInt());
        assertTrue(size.get("expectedFpp").isNull() && size.get("bitsPerKey").isNull(), size.toString());
        assertEquals(created("f.bloom", shape), size.get("fileBytes").asLong());
    }

    /** A growing file is created with its first segment: what size reports for 0 keys, and as createdBytes for any. */
    @ParameterizedTest
    @MethodSource("layouts")
    void aNewGrowingFileIsAsLongAsSizeSays(String layout) throws IOException {
        String[] shape = {"--expected", "50k", "--fpp", "0.001", "--grow", "--layout", layout};
        JsonNode size = sizeJson(concat(shape, "--keys", "0"));
        assertEquals(1, size.get("segments").asInt());
        assertEquals(1, size.get("parts").size());
        assertEquals(size.get("fileBytes").asLong(), size.get("createdBytes").asLong());
        assertEquals(created("g.bloom", shape), size.get("fileBytes").asLong());
        assertEquals(size.get("createdBytes").asLong(), sizeJson(concat(shape, "--keys", "10M")).get("createdBytes").asLong());
    }

    /**
     * Filled past its first segment's 1,000 keys (but short of the second's half, when a third
     * would be prepared), the file has two segments and the length size gives for that many keys.
     */
    @Test
    void aGrowingFileFilledPastItsFirstSegmentIsAsLongAsSizeSays() throws IOException {
        String[] shape = {"--expected", "1000", "--fpp", "0.01", "--grow"};
        JsonNode size = sizeJson(concat(shape, "--keys", "1500"));
        assertEquals(2, size.get("segments").asInt());
        long created = created("g.bloom", shape);
        assertTrue(size.get("fileBytes").asLong() > created, size.toString());
        Files.write(dir.resolve("keys.txt"), keys(1_500));
        run(dir, "add", "g.bloom", "--from", "keys.txt").assertOk();
        assertEquals(size.get("fileBytes").asLong(), Files.size(dir.resolve("g.bloom")));
        JsonNode inspect = JSON.readTree(run(dir, "inspect", "g.bloom", "--json").assertOk().stdout());
        for (int i = 0; i < 2; i++) {
            JsonNode said = size.get("parts").get(i);
            JsonNode found = inspect.get("parts").get(i);
            assertEquals(found.get("cells").asLong(), said.get("cells").asLong());
            assertEquals(found.get("hashes").asInt(), said.get("hashes").asInt());
            assertEquals(found.get("capacity").asLong(), said.get("keys").asLong());
        }
    }

    /**
     * With --max-size, size says how far the file grows: filled past that, it holds the segments
     * and bytes said, and the add that needs one more segment fails; asked for more keys, size
     * itself refuses.
     */
    @Test
    void aGrowingFileStopsWhereSizeSays() throws IOException {
        String[] shape = {"--expected", "1000", "--fpp", "0.01", "--grow", "--max-size", "100000"};
        JsonNode limit = sizeJson(concat(shape, "--keys", "0")).get("limit");
        assertEquals("max-size", limit.get("reason").asText());
        long bytes = limit.get("bytes").asLong();
        assertTrue(bytes <= 100_000, limit.toString());
        created("g.bloom", shape);
        Files.write(dir.resolve("keys.txt"), keys(2 * limit.get("keys").asInt()));
        run(dir, "add", "g.bloom", "--from", "keys.txt").assertError(ExitCode.ERROR);
        assertEquals(bytes, Files.size(dir.resolve("g.bloom")));
        JsonNode inspect = JSON.readTree(run(dir, "inspect", "g.bloom", "--json").assertOk().stdout());
        assertEquals(limit.get("segments").asInt(), inspect.get("parts").size());
        String refused = run(dir, concat(new String[] {"size"}, concat(shape, "--keys", Long.toString(limit.get("keys").asLong()))))
                .assertError(ExitCode.ERROR).err();
        assertTrue(refused.contains("holds at most " + Human.count(limit.get("keys").asLong()) + " keys")
                && refused.contains("raise --max-size"), refused);
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aWindowedFileIsAsLongAsSizeSays(String layout) throws IOException {
        String[] shape = {"--expected", "40k", "--fpp", "0.01", "--window", "1h", "--epochs", "4", "--layout", layout};
        JsonNode size = sizeJson(shape);
        assertEquals(5, size.get("parts").size());
        assertEquals(created("w.bloom", shape), size.get("fileBytes").asLong());
        JsonNode inspect = JSON.readTree(run(dir, "inspect", "w.bloom", "--json").assertOk().stdout());
        for (int i = 0; i < 5; i++) {
            assertEquals(inspect.get("parts").get(i).get("cells").asLong(), size.get("parts").get(i).get("cells").asLong());
            assertEquals(10_000, size.get("parts").get(i).get("keys").asLong());
        }
    }

    /** The text a person reads shows the numbers of --json: bytes, cells and hashes, for each kind. */
    static Stream<Arguments> growingShapes() {
        return Stream.of(Layout.BLOCKED, Layout.SECTORIZED).flatMap(layout -> Stream.of("1.5", "2", "4")
                .flatMap(growth -> Stream.of("0.01", "1e-6").map(fpp -> Arguments.of(name(layout), growth, fpp))));
    }

    /**
     * How far a chain of a one-line layout grows: where sizing its segments in its own layout first
     * fails, walked segment by segment here, as size finds it by a shortcut (SizeCommand's
     * sizesInOwnLayout).
     */
    @ParameterizedTest(name = "{0}, growth {1}, P {2}")
    @MethodSource("growingShapes")
    void aChainGrowsAsFarAsItsOwnLayoutSizesItsSegments(String layout, String growth, String fpp) throws IOException {
        JsonNode limit = sizeJson("--expected", "1000", "--fpp", fpp, "--grow", "--growth", growth, "--layout", layout,
                "--keys", "1000").get("limit");
        GrowingSpec spec = GrowingSpec.of(1000, Double.parseDouble(fpp)).withGrowthFactor(Double.parseDouble(growth))
                .withLayout(Layout.valueOf(layout.toUpperCase(Locale.ROOT)));
        int sized = 0;
        while (sized < GrowingSpec.maxSegments() && sizes(spec, sized)) {
            sized++;
        }
        assertEquals(sized, limit.get("segments").asInt(), limit.toString());
        assertEquals(sized < GrowingSpec.maxSegments() ? "cells" : "table", limit.get("reason").asText());
    }

    private static boolean sizes(GrowingSpec spec, int segment) {
        try {
            spec.segmentSpec(segment);
            return true;
        } catch (IllegalArgumentException tooLarge) {
            return false;
        }
    }

    @Test
    void theTextShowsTheNumbersOfTheJson() throws IOException {
        List<String[]> shapes = List.of(new String[] {"--expected", "1M", "--fpp", "1%", "--counter-bits", "4"},
                new String[] {"--expected", "1M", "--fpp", "1%", "--grow", "--keys", "5M"},
                new String[] {"--expected", "1M", "--fpp", "1%", "--window", "24h"});
        for (String[] shape : shapes) {
            JsonNode size = sizeJson(shape);
            String text = run(dir, concat(new String[] {"size"}, shape)).assertOk().stdout();
            Matcher fileSize = Pattern.compile("(?m)^file size +\\S+ \\S+ \\(([0-9,]+) bytes\\)").matcher(text);
            assertTrue(fileSize.find(), text);
            assertEquals(Human.count(size.get("fileBytes").asLong()), fileSize.group(1), text);
            List<String> numbers = new ArrayList<>();
            if (size.get("cells").isNull()) {
                size.get("parts").forEach(part -> numbers.add(Human.count(part.get("cells").asLong())));
            } else {
                numbers.add(Human.count(size.get("cells").asLong()));
            }
            for (String cells : numbers) {
                assertTrue(text.contains(cells), cells + " in " + text);
            }
        }
    }

    @Test
    void whatMakesNoSenseIsRefusedWithExit2() {
        String[][] refusals = {
            {"--cells", "1M"},
            {"--expected", "1M"},
            {"--expected", "1M", "--fpp", "0.01", "--cells", "1M", "--hashes", "3"},
            {"--expected", "1M", "--fpp", "0.01", "--keys", "5"},
            {"--expected", "1M", "--fpp", "0.01", "--grow"},
            {"--expected", "1M", "--fpp", "0.01", "--grow", "--keys=-1"},
            {"--expected", "1M", "--fpp", "0.01", "--grow", "--window", "1h", "--keys", "5"},
            {"--cells", "1M", "--hashes", "3", "--grow", "--keys", "5"},
            {"--expected", "1M", "--fpp", "0.01", "--epochs", "4"},
            {"--expected", "1M", "--fpp", "0.01", "--max-size", "1G"},
            {"--expected", "1M", "--fpp", "0.01", "--grow", "--keys", "5", "--max-size", "1000"},
            {"--expected", "1M", "--fpp", "0.01", "--layout", "diagonal"},
            {"--expected", "1M", "--fpp", "2"},
            {"--expected", "1M", "--fpp", "0.01", "--seed", "7"},
            {"--expected", "1M", "--fpp", "0.01", "--window", "1h", "--epochs", "65"},
        };
        for (String[] args : refusals) {
            run(dir, concat(new String[] {"size"}, args)).assertError(ExitCode.ERROR);
        }
        String err = run(dir, "size", "--cells", "1M").err();
        assertEquals("bloomstore: --cells needs --hashes K", err.strip());
    }

    @Test
    void helpTeachesByExample() {
        String help = run(dir, "size", "--help").assertOk().stdout();
        assertTrue(help.contains("Examples:") && help.contains("bloomstore size --expected 10M --fpp 0.001"), help);
    }

    private JsonNode sizeJson(String... shape) throws IOException {
        return JSON.readTree(run(dir, concat(concat(new String[] {"size"}, shape), "--json")).assertOk().stdout());
    }

    /** Creates {@code file} with the options and returns its length. */
    private long created(String file, String... shape) throws IOException {
        run(dir, concat(new String[] {"create", file}, shape)).assertOk();
        return Files.size(dir.resolve(file));
    }

    private static String[] concat(String[] first, String... more) {
        return Stream.concat(Stream.of(first), Stream.of(more)).toArray(String[]::new);
    }

    private static byte[] keys(int count) {
        return IntStream.range(0, count).mapToObj(i -> "key-" + i).collect(Collectors.joining("\n", "", "\n")).getBytes();
    }
}
