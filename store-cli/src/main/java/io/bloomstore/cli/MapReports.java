package io.bloomstore.cli;

import io.bloomstore.BloomierMap;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.KeySource;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

/**
 * What the verbs that read any file do with a Bloomier map: {@code get} its values, {@code inspect}
 * it, {@code verify} it. Each verb asks {@link BloomierMap#isMap} first and hands a map here.
 */
final class MapReports {
    private static final byte[] ABSENT = "absent".getBytes(StandardCharsets.US_ASCII);

    private MapReports() {
    }

    /** "8 value bits + 8 fingerprint bits a slot, 20.3 bits a key". */
    static String shape(BloomierMap map) {
        return map.valueBits() + " value bits + " + map.fingerprintBits() + " fingerprint bits a slot, "
                + String.format("%.2f", map.bitsPerKey()) + " bits a key";
    }

    /** Prints KEY TAB VALUE, or KEY TAB absent, for each key. */
    static int get(CliCommand command, FileAndKeys operands) throws IOException {
        OutputStream out = command.streams().out();
        long[] absent = {0};
        try (KeySource source = operands.open(command.streams(), command.rawArguments(), out::flush);
                BloomierMap map = BloomierMap.open(operands.file)) {
            source.forEach(map.hasher(), (bytes, offset, length, hash) -> {
                long value = map.getHash(hash);
                out.write(bytes, offset, length);
                out.write('\t');
                out.write(value == BloomierMap.ABSENT ? ABSENT : Long.toString(value).getBytes(StandardCharsets.US_ASCII));
                out.write('\n');
                absent[0] += value == BloomierMap.ABSENT ? 1 : 0;
            });
        }
        return absent[0] == 0 ? ExitCode.OK : ExitCode.NEGATIVE;
    }

    /** What {@code inspect --json} prints of a map. */
    record MapReport(String file, String kind, long fileBytes, int formatVersion, long pairs, int valueBits,
            int fingerprintBits, long slots, int segmentLength, int segmentCount, double bitsPerKey,
            double absentKeyErrorRate, String seed, String constructionSeed, int attempts, String created,
            String tableChecksum) {
        static MapReport of(BloomierMap map) {
            return new MapReport(map.path().toString(), "bloomier map", map.fileLength(), 5, map.pairs(), map.valueBits(),
                    map.fingerprintBits(), map.slots(), map.segments()[0], map.segments()[1], map.bitsPerKey(),
                    map.absentKeyErrorRate(), hex(map.seed()), hex(map.constructionSeed()), map.attempts(),
                    Instant.ofEpochMilli(map.createdMillis()).toString(), hex(map.tableChecksum()));
        }
    }

    private static String hex(long value) {
        return String.format("0x%016x", value);
    }

    static int inspect(CliCommand command, Path file, boolean json) throws IOException {
        MapReport r;
        try (BloomierMap map = BloomierMap.open(file)) {
            r = MapReport.of(map);
        }
        PrintWriter out = command.streams().text();
        if (json) {
            JsonOutput.write(r, out);
            return ExitCode.OK;
        }
        new Table().row("file", r.file())
                .row("size on disk", Human.bytes(r.fileBytes()) + " (" + Human.count(r.fileBytes()) + " bytes)")
                .row("kind", "Bloomier map (format version 5): a static map from keys to values, read with 'get'")
                .row("pairs", Human.count(r.pairs()))
                .row("values", r.valueBits() + " bits (0 to " + ((1L << r.valueBits()) - 1) + ")")
                .row("fingerprint", r.fingerprintBits() + " bits: a key not in the map reads a value instead of absent at "
                        + Human.percent(r.absentKeyErrorRate()) + " (2^-" + r.fingerprintBits() + ")")
                .row("table", Human.count(r.slots()) + " slots of " + (r.valueBits() + r.fingerprintBits()) + " bits, "
                        + String.format("%.2f", r.bitsPerKey()) + " bits a key (3-wise binary fuse: " + r.segmentCount()
                        + " + 2 segments of " + r.segmentLength() + ")")
                .row("hash", "xxh3-64, seed " + r.seed() + "; peeled with seed " + r.constructionSeed() + " (attempt "
                        + r.attempts() + ")")
                .row("created", r.created())
                .row("table checksum", r.tableChecksum() + " (xxh3-64; 'verify' checks it)")
                .print(out);
        return ExitCode.OK;
    }

    /** Verifies a map: exit 0 intact, 1 damaged (the reason on stderr). */
    static int verify(CliCommand command, Path file) throws IOException {
        long pairs;
        try (BloomierMap map = BloomierMap.open(file);
                Progress progress = command.progress("verify", map.fileLength())) {
            map.verify();
            pairs = map.pairs();
        } catch (InvalidFilterFileException e) {
            if (e.problem() == InvalidFilterFileException.Problem.NOT_A_REGULAR_FILE) {
                throw e;
            }
            command.streams().err().println("bloomstore: " + ErrorMessages.describe(e));
            return ExitCode.NEGATIVE;
        }
        command.streams().text().println(file + ": ok (Bloomier map of " + Human.count(pairs)
                + " pairs: header, length and table checksum)");
        return ExitCode.OK;
    }
}
