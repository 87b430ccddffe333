package io.bloomstore.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PairedRatiosTest {
    private static final String HEADER = "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\","
            + "\"Unit\",\"Param: impl\",\"Param: keyType\",\"Param: n\"";

    @TempDir
    Path dir;

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, PairedRatios.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, PairedRatios.median(List.of(4.0, 1.0, 3.0, 2.0)));
    }

    @Test
    void eachPairGivesOneRatioPerComparisonAndTheMedianIsReported() throws IOException {
        List<JmhResult> first = read("p1.csv",
                "\"x.AddBenchmark.add\",\"thrpt\",1,4,6.0,0.1,\"ops/us\",GUAVA,BYTES16,1000000",
                "\"x.AddBenchmark.add:cpuNanosPerOp\",\"thrpt\",1,4,160.0,1.0,\"ns/op\",GUAVA,BYTES16,1000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,4,12.0,0.1,\"ops/us\",STANDARD,BYTES16,1000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,4,10.0,0.1,\"ops/us\",BLOCKED,LONG,200000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",2,4,18.0,0.1,\"ops/us\",BLOCKED,LONG,200000000");
        List<JmhResult> second = read("p2.csv",
                "\"x.AddBenchmark.add\",\"thrpt\",1,4,5.0,0.1,\"ops/us\",GUAVA,BYTES16,1000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,4,8.0,0.1,\"ops/us\",STANDARD,BYTES16,1000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,4,8.0,0.1,\"ops/us\",BLOCKED,LONG,200000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",2,4,12.0,0.1,\"ops/us\",BLOCKED,LONG,200000000");
        List<JmhResult> third = read("p3.csv", // a pair whose Guava run failed gives no Guava ratio
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,4,9.0,0.1,\"ops/us\",STANDARD,BYTES16,1000000");

        String table = new PairedRatios(List.of(first, second, third)).render();

        assertTrue(table.contains("| addBatch, standard, bytes16 keys, n = 1000000: bloomstore / Guava | 2 | **1.80** "
                + "| 1.60 | 2.00 | 2.00, 1.60 |"), table);
        assertTrue(table.contains("| addBatch, blocked, long keys, n = 200000000: 2 threads / 1 | 2 | **1.65** "
                + "| 1.50 | 1.80 | 1.80, 1.50 |"), table);
        assertEquals(4, table.lines().count(), "a header, its rule and two rows: " + table);
    }

    @Test
    void queriesOfPresentKeysAreSetAgainstTheLimitProbeOfTheirPair() throws IOException {
        List<JmhResult> pair = new ArrayList<>(read("queries.csv",
                "\"x.MightContainBenchmark.mightContainPresent\",\"thrpt\",1,4,2.0,0.1,\"ops/us\",GUAVA,LONG,200000000",
                "\"x.MightContainBenchmark.mightContainPresentBatch\",\"thrpt\",1,4,3.0,0.1,\"ops/us\",STANDARD,LONG,200000000",
                "\"x.MightContainBenchmark.mightContainPresentBatch\",\"thrpt\",1,4,15.0,0.1,\"ops/us\",BLOCKED,LONG,200000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,4,9.0,0.1,\"ops/us\",BLOCKED,LONG,200000000"));
        pair.addAll(readWithHeader("limits.csv", "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\","
                + "\"Unit\",\"Param: regionBytes\"",
                "\"x.MemoryLimitsBenchmark.independentLoads8\",\"avgt\",1,5,280.0,9.0,\"ns/op\",268435456"));

        String table = new PairedRatios(List.of(pair)).render();

        // 8 loads per 280 ns = 28.6 loads per µs; Guava: 2 keys per µs x 7 lines = 14 lines per µs
        assertTrue(table.contains("| mightContainPresent, guava, long keys, n = 200000000: lines loaded / the limit "
                + "probe's loads | 1 | **0.49** |"), table);
        assertTrue(table.contains("| mightContainPresentBatch, standard, long keys, n = 200000000: lines loaded / the "
                + "limit probe's loads | 1 | **0.74** |"), table);
        assertTrue(table.contains("| mightContainPresentBatch, blocked, long keys, n = 200000000: lines loaded / the "
                + "limit probe's loads | 1 | **0.53** |"), table);
        assertEquals(2 + 2 + 3, table.lines().count(), "two Guava ratios and three shares: " + table);
    }

    private List<JmhResult> read(String name, String... rows) throws IOException {
        return readWithHeader(name, HEADER, rows);
    }

    private List<JmhResult> readWithHeader(String name, String header, String... rows) throws IOException {
        Path csv = dir.resolve(name);
        Files.write(csv, Stream.concat(Stream.of(header), Stream.of(rows)).toList());
        return JmhResult.read(csv);
    }
}
