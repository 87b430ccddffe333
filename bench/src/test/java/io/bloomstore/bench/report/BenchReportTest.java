package io.bloomstore.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchReportTest {
    private static final String HEADER = "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\","
            + "\"Unit\",\"Param: impl\",\"Param: keyType\",\"Param: n\"";

    @TempDir
    Path dir;

    @Test
    void ratiosCarryTheRelativeErrors() {
        Ratio ratio = new Ratio(30, 3).over(new Ratio(10, 0.4));
        assertEquals(3.0, ratio.value(), 1e-12);
        assertEquals(3.0 * Math.sqrt(0.1 * 0.1 + 0.04 * 0.04), ratio.error(), 1e-12);
    }

    @Test
    void batchResultsAreComparedWithGuavasSingleCalls() throws IOException {
        String table = render(
                "\"x.MightContainBenchmark.mightContainPresent\",\"thrpt\",1,8,10.0,1.0,\"ops/us\",GUAVA,LONG,1000000",
                "\"x.MightContainBenchmark.mightContainPresentBatch\",\"thrpt\",1,8,40.0,2.0,\"ops/us\",BLOCKED,LONG,1000000");
        assertTrue(table.contains("| mightContainPresentBatch | long | 1 | 10.00 ± 1.00 | - | - | 40.00 ± 2.00 | **4.00 ± 0.45** |"),
                table);
    }

    @Test
    void cpuTimeIsComparedAsASpeedUp() throws IOException {
        String table = render(
                "\"x.AddBenchmark.add\",\"thrpt\",1,8,1.0,0.1,\"ops/us\",GUAVA,LONG,1000000",
                "\"x.AddBenchmark.add:cpuNanosPerOp\",\"thrpt\",1,8,300.0,NaN,\"ns/op\",GUAVA,LONG,1000000",
                "\"x.AddBenchmark.add\",\"thrpt\",1,8,2.0,0.1,\"ops/us\",STANDARD,LONG,1000000",
                "\"x.AddBenchmark.add:cpuNanosPerOp\",\"thrpt\",1,8,100.0,NaN,\"ns/op\",STANDARD,LONG,1000000");
        assertTrue(table.contains("| add | long | 1 | 300.00 | 100.00 | **3.00** | - | - |"), table);
    }

    @Test
    void everyKindSideBySideWithBloomstoresLeadOverTheFastestPeer() throws IOException {
        String table = render(
                "\"x.MightContainBenchmark.mightContainPresent\",\"thrpt\",1,8,10.0,1.0,\"ops/us\",GUAVA,LONG,1000000",
                "\"x.MightContainBenchmark.mightContainPresent\",\"thrpt\",1,8,20.0,1.0,\"ops/us\",FASTFILTER_BLOCKED,LONG,1000000",
                "\"x.MightContainBenchmark.mightContainPresent\",\"thrpt\",1,8,30.0,3.0,\"ops/us\",BLOCKED,LONG,1000000");
        assertTrue(table.contains("| operation | key | threads | guava | blocked | fastfilter_blocked | bloomstore / fastest peer |"), table);
        assertTrue(table.contains("| mightContainPresent | long | 1 | 10.00 ± 1.00 | 30.00 ± 3.00 | 20.00 ± 1.00 | **1.50 ± 0.17** |"), table);
        assertTrue(table.contains("| fastfilter_blocked | no | no | no (heap) |"), table);
        assertFalse(table.contains("| mightContainPresentBatch | long | 1 | 10.00"), "a row without bloomstore is left out: " + table);
    }

    /** The report of a JMH CSV file holding {@code rows}. */
    private String render(String... rows) throws IOException {
        Path csv = dir.resolve("r.csv");
        Files.write(csv, Stream.concat(Stream.of(HEADER), Stream.of(rows)).toList());
        return new BenchReport(JmhResult.read(csv)).render();
    }
}
