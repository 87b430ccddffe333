package io.bloomstore.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class ThroughputChartTest {
    private static final String HEADER = "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\","
            + "\"Unit\",\"Param: impl\",\"Param: keyType\",\"Param: n\"";

    @TempDir
    Path dir;

    @Test
    void aBarPerKindAndCallInAPanelPerSizeEachScaledToItsPanel() throws Exception {
        List<Element> bars = bars(
                "\"x.AddBenchmark.add\",\"thrpt\",1,8,10.0,1.0,\"ops/us\",GUAVA,LONG,1000000",
                "\"x.AddBenchmark.add\",\"thrpt\",1,8,40.0,1.0,\"ops/us\",BLOCKED,LONG,1000000",
                "\"x.AddBenchmark.add:cpuNanosPerOp\",\"thrpt\",1,8,25.0,NaN,\"ns/op\",BLOCKED,LONG,1000000",
                "\"x.MightContainBenchmark.mightContainAbsent\",\"thrpt\",1,8,20.0,1.0,\"ops/us\",BLOCKED,LONG,1000000",
                "\"x.AddBenchmark.add\",\"thrpt\",1,8,1.0,0.1,\"ops/us\",GUAVA,LONG,200000000",
                "\"x.AddBenchmark.addBatch\",\"thrpt\",1,8,5.0,0.1,\"ops/us\",BLOCKED,LONG,200000000",
                "\"x.AddBenchmark.add\",\"thrpt\",1,8,99.0,0.1,\"ops/us\",BLOCKED,BYTES16,200000000");
        // 1 M: Guava's add, blocked add and absent query; 200 M: Guava's add and the blocked batch add.
        // The CPU-time row and the 16-byte keys draw nothing.
        assertEquals(5, bars.size());
        // Each panel's top is its largest bar rounded up (40 -> 50, 5 -> 5): bars in proportion to it.
        assertEquals(190 * 40 / 50, height(bars, "bloomstore blocked, add, n = 1 M"));
        assertEquals(190 * 10 / 50, height(bars, "guava, add, n = 1 M"));
        assertEquals(190, height(bars, "bloomstore blocked, batch, add, n = 200 M"));
        assertEquals(190 / 5, height(bars, "guava, add, n = 200 M"));
    }

    @Test
    void panelsEndAtARoundNumber() {
        assertEquals(50, ThroughputChart.niceCeiling(40), 1e-9);
        assertEquals(20, ThroughputChart.niceCeiling(19.3), 1e-9);
        assertEquals(2.5, ThroughputChart.niceCeiling(2.1), 1e-9);
        assertEquals(100, ThroughputChart.niceCeiling(100), 1e-9);
    }

    private static int height(List<Element> bars, String titlePrefix) {
        return bars.stream().filter(b -> b.getTextContent().startsWith(titlePrefix))
                .mapToInt(b -> Integer.parseInt(b.getAttribute("height"))).findFirst().orElseThrow(() -> new AssertionError("no bar " + titlePrefix));
    }

    /** The bars of the chart drawn from a JMH CSV file holding {@code rows}, parsed as XML. */
    private List<Element> bars(String... rows) throws Exception {
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, HEADER + "\n" + String.join("\n", rows) + "\n");
        Path svg = dir.resolve("chart.svg");
        BenchReport.main(new String[] {"--svg", svg.toString(), csv.toString()});
        NodeList rects = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(Files.readAllBytes(svg))).getElementsByTagName("rect");
        List<Element> bars = new ArrayList<>();
        for (int i = 0; i < rects.getLength(); i++) {
            Element rect = (Element) rects.item(i);
            if (rect.getAttribute("class").equals("bar")) {
                bars.add(rect);
            }
        }
        return bars;
    }
}
