package io.bloomstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.bloomstore.BloomFilter;
import io.bloomstore.OpenMode;
import io.bloomstore.BloomSpec;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Picocli-level tests: parsing, help, messages and output, run in-process. The jar is tested end to end by the *IT classes. */
class CommandLineTest {
    @TempDir
    Path dir;

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    static Stream<String> verbs() {
        return BloomstoreCli.VERBS.stream();
    }

    @ParameterizedTest
    @MethodSource("verbs")
    void everyVerbTeachesWithExamples(String name) {
        InProcess.Result help = InProcess.run(name, "--help");
        assertEquals(0, help.exit());
        assertTrue(help.stdout().startsWith("Usage: bloomstore " + name), help.stdout());
        String examples = help.stdout().substring(help.stdout().indexOf("\nExamples:\n"));
        assertTrue(examples.contains("bloomstore " + name + " "), help.stdout());
        assertEquals("", help.err());
    }

    @Test
    void topLevelHelpListsEveryVerbAndVersionNamesTheFormat() {
        InProcess.Result help = InProcess.run("--help");
        assertEquals(0, help.exit());
        for (String verb : BloomstoreCli.VERBS) {
            assertTrue(help.stdout().contains("\n  " + verb + " "), verb);
        }
        InProcess.Result version = InProcess.run("--version");
        assertEquals(0, version.exit());
        assertTrue(version.stdout().startsWith("bloomstore "), version.stdout());
        assertTrue(version.stdout().contains("file format 3 (also reads 1; growing and windowed: 2)"), version.stdout());
    }

    @Test
    void usageErrorsAreOneLineWithExitStatusTwo() {
        List<String[]> mistakes = List.of(
                new String[] {},
                new String[] {"frobnicate"},
                new String[] {"contains"},
                new String[] {"contains", file("x.bloom"), "--bogus"},
                new String[] {"create", file("x.bloom")},
                new String[] {"create", file("x.bloom"), "--expected", "10"},
                new String[] {"create", file("x.bloom"), "--expected", "ten", "--fpp", "0.1"},
                new String[] {"create", file("x.bloom"), "--expected", "10", "--fpp", "0.1", "--cells", "100", "--hashes", "3"},
                new String[] {"create", file("x.bloom"), "--expected", "10", "--fpp", "0.1", "--layout", "diagonal"},
                new String[] {"merge", file("out.bloom"), file("only-one.bloom")},
                new String[] {"--progress", "sometimes", "contains", file("x.bloom"), "k"});
        for (String[] args : mistakes) {
            InProcess.Result result = InProcess.run(args);
            assertEquals(2, result.exit(), String.join(" ", args));
            assertEquals(1, result.errLines().size(), result.err());
            assertTrue(result.err().startsWith("bloomstore: "), result.err());
            assertEquals("", result.stdout());
        }
        assertFalse(Files.exists(dir.resolve("x.bloom")));
        assertFalse(Files.exists(dir.resolve("out.bloom")));
    }

    @Test
    void badValuesNameTheValueAndTheRange() {
        assertEquals("bloomstore: expected keys must be at least 1, got 0\n",
                InProcess.run("create", file("x.bloom"), "--expected", "0", "--fpp", "0.01").err());
        assertEquals("bloomstore: false-positive rate must be in (0, 1) exclusive, got 1.5\n",
                InProcess.run("create", file("x.bloom"), "--expected", "10", "--fpp", "1.5").err());
        assertEquals("bloomstore: Invalid value for option '--fpp': false-positive rate must be in (0, 1) exclusive, got"
                + " 1e-400 (0.0 in a double) (see 'bloomstore create --help')\n",
                InProcess.run("create", file("x.bloom"), "--expected", "10", "--fpp", "1e-400").err());
        assertEquals("bloomstore: counter bits must be one of 1, 2, 4, 8, 16, 32, got 3\n",
                InProcess.run("create", file("x.bloom"), "--expected", "10", "--fpp", "0.1", "--counter-bits", "3").err());
        assertEquals("bloomstore: hashes must be in [1, 64], got 65\n",
                InProcess.run("create", file("x.bloom"), "--cells", "1000", "--hashes", "65").err());
    }

    /** FORMAT.md, "Sizing": k given with n and p sizes the fewest cells reaching p with that k; create and build take it. */
    @Test
    void hashesWithExpectedAndFppFixK() throws IOException {
        for (String layout : List.of("standard", "blocked")) {
            InProcess.Result created = InProcess.run("create", file(layout + ".bloom"), "--expected", "1000", "--fpp", "0.01",
                    "--hashes", "4", "--layout", layout);
            assertEquals(0, created.exit(), created.err());
            BloomSpec expected = BloomSpec.builder().expectedKeys(1000).fpp(0.01).hashes(4)
                    .layout(io.bloomstore.Layout.valueOf(layout.toUpperCase(java.util.Locale.ROOT))).build();
            assertEquals(expected, FileForensics.readInfo(dir.resolve(layout + ".bloom")).spec());
            assertEquals(4, expected.hashes());
        }
        Files.writeString(dir.resolve("keys.txt"), "a\nb\nc\n");
        InProcess.Result built = InProcess.run("build", file("built.bloom"), "--from", file("keys.txt"), "--fpp", "0.01",
                "--hashes", "3");
        assertEquals(0, built.exit(), built.err());
        assertEquals(BloomSpec.builder().expectedKeys(3).fpp(0.01).hashes(3).build(),
                FileForensics.readInfo(dir.resolve("built.bloom")).spec());
    }

    @Test
    void stacktraceIsShownOnlyWhenAskedForBeforeOrAfterTheVerb() {
        InProcess.Result plain = InProcess.run("contains", file("missing.bloom"), "k");
        assertEquals(List.of("bloomstore: " + file("missing.bloom")
                + ": no such filter file; make one with 'bloomstore create' or 'bloomstore build'"), plain.errLines());
        for (String[] args : List.of(new String[] {"--stacktrace", "contains", file("missing.bloom"), "k"},
                new String[] {"contains", "--stacktrace", file("missing.bloom"), "k"})) {
            InProcess.Result traced = InProcess.run(args);
            assertEquals(2, traced.exit());
            assertEquals(plain.errLines().get(0), traced.errLines().get(0));
            assertTrue(traced.errLines().size() > 3, traced.err());
            assertTrue(traced.err().contains("java.nio.file.NoSuchFileException"), traced.err());
        }
    }

    @Test
    void containsReportsEachKeyAndExitsOneWhenAnyIsAbsent() {
        assertEquals(0, InProcess.run("create", file("f.bloom"), "--expected", "1000", "--fpp", "0.001").exit());
        assertEquals(0, InProcess.run("add", file("f.bloom"), "alice", "bob").exit());
        InProcess.Result mixed = InProcess.run("contains", file("f.bloom"), "alice", "carol", "bob");
        assertEquals(1, mixed.exit());
        assertEquals("alice\tpresent\ncarol\tabsent\nbob\tpresent\n", mixed.stdout());
        InProcess.Result present = InProcess.run("contains", "-q", file("f.bloom"), "alice", "bob");
        assertEquals(0, present.exit());
        assertEquals("", present.stdout());
        byte[] stream = "alice\r\ncarol\n\ndave\nbob".getBytes(StandardCharsets.UTF_8);
        assertEquals("carol\ndave\n", InProcess.runWithInput(stream, "contains", file("f.bloom"), "--from", "-",
                "--print", "absent").stdout());
        assertEquals("alice\nbob\n", InProcess.runWithInput(stream, "contains", file("f.bloom"), "--from", "-",
                "--print", "PRESENT").stdout());
    }

    @Test
    void aKeyIsTheSameBytesFromTheJavaApiTheCommandLineAndAFile() throws IOException {
        String key = "naïve café 🌍";
        try (BloomFilter filter = BloomFilter.create(dir.resolve("api.bloom"), BloomSpec.forExpected(1000, 1e-6))) {
            filter.add(key);
        }
        assertEquals(0, InProcess.run("contains", "-q", file("api.bloom"), key).exit());
        Files.write(dir.resolve("keys.txt"), (key + "\r\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(0, InProcess.run("contains", "-q", file("api.bloom"), "--from", file("keys.txt")).exit());
        assertEquals(0, InProcess.run("create", file("cli.bloom"), "--expected", "1000", "--fpp", "1e-6").exit());
        assertEquals(0, InProcess.run("add", file("cli.bloom"), "--from", file("keys.txt")).exit());
        try (BloomFilter filter = BloomFilter.open(dir.resolve("cli.bloom"), OpenMode.READ_ONLY)) {
            assertTrue(filter.mightContain(key));
            assertTrue(filter.mightContain(new StringBuilder(key)));
            assertFalse(filter.mightContain(key + "\r"));
        }
    }

    @Test
    void addSaysHowManyKeysWereNew() {
        InProcess.run("create", file("f.bloom"), "--expected", "1000", "--fpp", "0.001");
        assertEquals("added 2 keys to " + file("f.bloom") + ": 2 new, 0 possibly present already\n",
                InProcess.run("add", file("f.bloom"), "a", "b").stdout());
        assertEquals("added 1 key to " + file("f.bloom") + ": 0 new, 1 possibly present already\n",
                InProcess.run("add", file("f.bloom"), "a").stdout());
    }

    @Test
    void emptyArgumentIsRefusedNotSkipped() {
        InProcess.run("create", file("f.bloom"), "--expected", "1000", "--fpp", "0.001");
        InProcess.Result result = InProcess.run("add", file("f.bloom"), "a", "");
        assertEquals(2, result.exit());
        assertEquals("bloomstore: an empty argument is not a key (a key has at least one byte)\n", result.err());
    }

    @Test
    void inspectJsonHasEveryHeaderFieldAndTheStatistics() throws IOException {
        InProcess.run("create", file("f.bloom"), "--expected", "1000", "--fpp", "0.01", "--layout", "blocked",
                "--counter-bits", "4", "--seed", "0x2a");
        InProcess.run("add", file("f.bloom"), "a", "b", "c");
        InProcess.Result result = InProcess.run("inspect", file("f.bloom"), "--json");
        assertEquals(0, result.exit());
        JsonNode json = new ObjectMapper().readTree(result.out());
        for (String field : List.of("file", "fileBytes", "magic", "formatVersion", "headerBytes", "headerCrc32c",
                "fileIdentity", "layout", "hashAlgorithm", "seed", "cells", "counterBits", "hashes", "expectedKeys", "targetFpp",
                "created", "createdMillis", "sparse", "cellsOffset", "cellsBytes", "approximateInsertions",
                "openWriters", "sealed", "cellsChecksum", "setCells", "fillRatio", "estimatedKeys", "currentFpp",
                "pastCapacity")) {
            assertTrue(json.has(field), field);
        }
        assertEquals("blocked", json.get("layout").asText());
        assertEquals("0x000000000000002a", json.get("seed").asText());
        assertEquals(4, json.get("counterBits").asInt());
        assertEquals(1000, json.get("expectedKeys").asLong());
        assertEquals(3, json.get("approximateInsertions").asLong());
        assertEquals(3.0, json.get("estimatedKeys").asDouble(), 0.5);
        assertFalse(json.get("pastCapacity").asBoolean(), "3 keys of 1,000");
        assertEquals(Files.size(dir.resolve("f.bloom")), json.get("fileBytes").asLong());
        assertTrue(json.get("cellsChecksum").isNull());
        assertFalse(json.get("sealed").asBoolean());
        assertEquals(3, json.get("formatVersion").asInt());
        assertEquals(String.format(java.util.Locale.ROOT, "0x%016x",
                FileForensics.readInfo(dir.resolve("f.bloom")).fileIdentity().getAsLong()), json.get("fileIdentity").asText());
    }

    @Test
    void progressIsDrawnOnlyOnATerminalUnlessForced() throws IOException {
        InProcess.run("create", file("f.bloom"), "--expected", "100000", "--fpp", "0.01");
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            keys.append("key-").append(i).append('\n');
        }
        Files.writeString(dir.resolve("keys.txt"), keys);
        assertEquals("", InProcess.run(new byte[0], false, "add", file("f.bloom"), "--from", file("keys.txt")).err());
        assertEquals("", InProcess.run(new byte[0], true, "--progress", "never", "add", file("f.bloom"), "--from",
                file("keys.txt")).err());
        String drawn = InProcess.run(new byte[0], false, "add", file("f.bloom"), "--from", file("keys.txt"),
                "--progress", "always").err();
        assertTrue(drawn.startsWith("\radd"), drawn);
        assertTrue(drawn.contains("100%"), drawn);
    }

    /** The options every command shares, given before or after the verb: the synopsis names them once, on its first line. */
    private static final List<String> SHARED_OPTIONS = List.of("--help", "--stacktrace", "--progress");

    /**
     * The synopsis in README.md and docs/CLI.md (the same block in both) names, on each verb's
     * lines, every option that verb's --help lists, and no option it does not: a new option cannot
     * go unmentioned, nor one that is refused (build's --window) be offered.
     */
    @ParameterizedTest
    @MethodSource("verbs")
    void theSynopsisNamesEveryOptionOfEachVerbAndNoOther(String verb) throws IOException {
        String synopsis = synopsisIn(Path.of("..", "README.md"), "## The command line");
        assertEquals(synopsis, synopsisIn(Path.of("..", "docs", "CLI.md"), "## Synopsis"), "README.md and docs/CLI.md differ");
        String help = InProcess.run(verb, "--help").stdout();
        List<String> listed = optionsListedIn(help);
        String entry = synopsis.substring(synopsis.indexOf("\nbloomstore " + verb + " ") + 1);
        entry = entry.substring(0, entry.indexOf("\nbloomstore ") < 0 ? entry.length() : entry.indexOf("\nbloomstore "));
        List<String> named = optionNames(entry);
        for (String option : listed) {
            assertTrue(SHARED_OPTIONS.contains(option) || named.contains(option), verb + "'s " + option + " is not in: " + entry);
        }
        for (String option : named) {
            assertTrue(listed.contains(option), verb + "'s --help does not list " + option + ", named in: " + entry);
        }
        String first = synopsis.lines().findFirst().orElseThrow();
        for (String option : SHARED_OPTIONS) {
            assertTrue(first.contains(option), option + " in " + first);
        }
    }

    /** The long options a --help lists, one a line, each at the start of its line. */
    private static List<String> optionsListedIn(String help) {
        return java.util.regex.Pattern.compile("(?m)^ {2,8}(?:-\\w, )?(--[a-z][a-z-]*)").matcher(help).results()
                .map(option -> option.group(1)).toList();
    }

    /** The long options ({@code --name}) named in {@code text}, each once, in order. */
    private static List<String> optionNames(String text) {
        return java.util.regex.Pattern.compile("(?<![\\w-])--[a-z][a-z-]*").matcher(text).results()
                .map(java.util.regex.MatchResult::group).distinct().toList();
    }

    /** The first fenced block after {@code heading} in {@code file}. */
    private static String synopsisIn(Path file, String heading) throws IOException {
        String text = Files.readString(file);
        int start = text.indexOf("```\n", text.indexOf(heading)) + 4;
        return text.substring(start, text.indexOf("```", start));
    }

    @Test
    void buildsHelpDoesNotOfferTheWindowItRefuses() {
        List<String> listed = optionsListedIn(InProcess.run("build", "--help").stdout());
        assertTrue(listed.contains("--grow") && !listed.contains("--window") && !listed.contains("--epochs"), listed.toString());
        assertTrue(optionsListedIn(InProcess.run("create", "--help").stdout()).containsAll(List.of("--window", "--epochs")));
        InProcess.Result refused = InProcess.run("build", file("w.bloom"), "--from", file("keys.txt"), "--fpp", "0.01",
                "--window", "1h");
        assertEquals(2, refused.exit());
        assertTrue(refused.err().contains("create it with --window, then fill it with 'add' or 'dedup'"), refused.err());
        String mistyped = InProcess.run("build", file("w.bloom"), "--from", file("keys.txt"), "--windo", "1h").err();
        assertTrue(mistyped.startsWith("bloomstore: Unknown options: '--windo', '1h' (see"), "no guess of a hidden option: " + mistyped);
        String offered = InProcess.run("create", file("w.bloom"), "--windo", "1h").err();
        assertTrue(offered.contains("did you mean '--window'?"), offered);
    }

    @Test
    void removesHelpSaysWhatAConcurrentDoubleRemoveDoes() {
        String help = InProcess.run("remove", "--help").stdout().replaceAll("\\s+", " ");
        assertTrue(help.contains("two processes that remove a key added once, at the same moment, both find it present "
                + "and both take it"), help);
    }
}
