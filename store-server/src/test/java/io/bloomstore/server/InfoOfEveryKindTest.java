package io.bloomstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * BF.INFO and BS.INFO of each kind of file, asked through the one management contract every kind
 * answers: each names its kind's own fields, in the order clients read them.
 */
class InfoOfEveryKindTest {
    private static final int ITEMS = 300;
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":");

    @TempDir
    Path dir;

    /** Creates the filter and adds {@link #ITEMS} items; returns how many were new (a false positive is not). */
    private static int reserveAndAdd(Resp resp, String... reserve) throws IOException {
        assertEquals("+OK", resp.send(Resp.command(reserve)).line());
        int added = 0;
        for (int i = 0; i < ITEMS; i++) {
            added += resp.send(Resp.command("BF.ADD", reserve[1], "item-" + i)).line().equals(":1") ? 1 : 0;
        }
        assertTrue(added > ITEMS * 9 / 10, added + " of " + ITEMS + " new");
        return added;
    }

    /** The reply of BF.INFO: its ten lines after the array header. */
    private static List<String> bfInfo(Resp resp, String key) throws IOException {
        assertEquals("*10", resp.send(Resp.command("BF.INFO", key)).line());
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add(resp.line());
        }
        return lines;
    }

    /** The top-level field names of BS.INFO's JSON, in order, up to its array of regions. */
    private static List<String> bsInfoFields(Resp resp, String key) throws IOException {
        assertTrue(resp.send(Resp.command("BS.INFO", key)).line().startsWith("$"));
        String json = resp.line();
        int parts = json.indexOf(":[");
        Matcher m = FIELD.matcher(parts < 0 ? json : json.substring(0, parts + 1));
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        assertTrue(json.contains("\"key\":\"" + key + "\""), json);
        return names;
    }

    @Test
    void eachKindTellsItsOwnFigures() throws IOException {
        try (ServedFolder server = ServedFolder.start(dir); Resp resp = new Resp(server.port)) {
            int newInFixed = reserveAndAdd(resp, "BF.RESERVE", "fixed", "0.01", "10000", "NONSCALING");
            int newInGrowing = reserveAndAdd(resp, "BF.RESERVE", "growing", "0.01", "100", "EXPANSION", "2");
            int newInWindowed = reserveAndAdd(resp, "BS.RESERVEWINDOW", "windowed", "0.01", "10000", "1h");

            List<String> fixed = bfInfo(resp, "fixed");
            assertEquals(List.of("+Capacity", ":10000"), fixed.subList(0, 2));
            assertEquals(List.of("+Number of filters", ":1", "+Number of items inserted", ":" + newInFixed,
                    "+Expansion rate", "$-1"), fixed.subList(4, 10));
            List<String> growing = bfInfo(resp, "growing");
            int segments = Integer.parseInt(growing.get(5).substring(1));
            assertTrue(segments > 1, "300 items grew a chain whose first segment holds 100: " + growing);
            assertEquals(List.of("+Number of items inserted", ":" + newInGrowing, "+Expansion rate", ":2"),
                    growing.subList(6, 10));
            List<String> windowed = bfInfo(resp, "windowed");
            assertEquals(List.of("+Capacity", ":10000"), windowed.subList(0, 2));
            assertEquals(List.of("+Number of filters", ":9", "+Number of items inserted", ":" + newInWindowed,
                    "+Expansion rate", "$-1"), windowed.subList(4, 10));

            assertEquals(List.of("key", "file", "kind", "formatVersion", "fileBytes", "created", "sparse", "sealed",
                    "readOnly", "cells", "hashes", "counterBits", "layout", "hashAlgorithm", "seed", "expectedKeys",
                    "targetFpp", "cellRule", "cellsSet", "fillRatio", "estimatedKeys", "currentFpp", "approximateInsertions",
                    "pastCapacity"), bsInfoFields(resp, "fixed"));
            assertEquals(List.of("key", "file", "kind", "fileBytes", "readOnly", "targetFpp", "compoundFpp",
                    "expectedKeys", "growthFactor", "tighteningRatio", "maxBytes", "layout", "seed", "segments"),
                    bsInfoFields(resp, "growing"));
            assertEquals(List.of("key", "file", "kind", "fileBytes", "readOnly", "targetFpp", "compoundFpp",
                    "expectedKeys", "windowMillis", "epochs", "currentEpoch", "layout", "seed", "slots"),
                    bsInfoFields(resp, "windowed"));
        }
    }
}
