package io.bloomstore.cli;

import io.bloomstore.BloomierMap;
import io.bloomstore.MapShape;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;

/**
 * What the verbs that read any file do with a Bloomier map: {@code inspect} it and say what
 * {@code verify} checked of it (handed the map by {@link io.bloomstore.StoredFile#match}).
 */
final class MapReports {
    private MapReports() {
    }

    /** "8 value bits + 8 fingerprint bits a slot, 20.3 bits a key". */
    static String shape(MapShape map) {
        return map.valueBits() + " value bits + " + map.fingerprintBits() + " fingerprint bits a slot, "
                + String.format("%.2f", map.bitsPerKey()) + " bits a key";
    }

    /** What {@code inspect --json} prints of a map. */
    record MapReport(String file, String kind, long fileBytes, int formatVersion, long pairs, int valueBits,
            int fingerprintBits, long slots, int segmentLength, int segmentCount, double bitsPerKey,
            double absentKeyErrorRate, String seed, String constructionSeed, int attempts, String created,
            String tableChecksum) {
        static MapReport of(Path file, MapShape map) {
            return new MapReport(file.toString(), "bloomier map", map.fileBytes(), 5, map.pairs(), map.valueBits(),
                    map.fingerprintBits(), map.slots(), map.segmentLength(), map.segmentCount(), map.bitsPerKey(),
                    map.absentKeyErrorRate(), hex(map.seed()), hex(map.constructionSeed()), map.attempts(),
                    Instant.ofEpochMilli(map.createdMillis()).toString(), hex(map.tableChecksum()));
        }
    }

    private static String hex(long value) {
        return String.format("0x%016x", value);
    }

    /** Prints what {@code inspect} tells of a map. */
    static int inspect(CliCommand command, BloomierMap map, boolean json) throws IOException {
        MapReport r = MapReport.of(map.path(), map.shape());
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

    /** What {@code verify} checked of a map it found intact. */
    static String checked(MapShape map) {
        return "Bloomier map of " + Human.count(map.pairs()) + " pairs: header, length and table checksum";
    }
}
