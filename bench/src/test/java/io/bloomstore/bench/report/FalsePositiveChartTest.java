package io.bloomstore.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class FalsePositiveChartTest {
    private static final String TABLE = """
            | bits/key | layout | k | bloomstore, measured | model | RocksDB FastLocalBloom probing, measured |
            | --- | --- | --- | --- | --- | --- |
            | 6 | standard | 4 | 5.6096% ± 0.0029% | 5.6057% |  |
            | 6 | blocked | 4 | 5.7737% ± 0.0029% | 5.7739% | 5.7733% ± 0.0029% |
            | 10 | standard | 7 | 0.8210% ± 0.0011% | 0.8194% |  |
            | 10 | blocked | 6 | 0.9680% ± 0.0012% | 0.9663% | 0.9666% ± 0.0012% |
            | 20 | standard | 14 | 0.0068% ± 0.0001% | 0.0067% |  |
            | 20 | blocked | 11 | 0.0197% ± 0.0002% | 0.0198% | 0.0199% ± 0.0002% |
            """;

    @Test
    void readsEveryRowOfTheAccuracyTableAsFractions() {
        List<FalsePositiveChart.Point> points = FalsePositiveChart.parse("# a note line\n" + TABLE);
        assertEquals(6, points.size());
        FalsePositiveChart.Point blocked10 = points.get(3);
        assertEquals(10, blocked10.bitsPerKey());
        assertEquals("blocked", blocked10.layout());
        assertEquals(6, blocked10.hashes());
        assertEquals(0.009680, blocked10.measured(), 1e-12);
        assertEquals(0.009663, blocked10.model(), 1e-12);
        assertEquals(0.009666, blocked10.rocksDb(), 1e-12);
        assertTrue(Double.isNaN(points.get(2).rocksDb()), "a standard row has no RocksDB rate");
    }

    @Test
    void aDotPerMeasuredRateOnALogScaleAndARingPerRocksDbRate() throws Exception {
        Element svg = svg(new FalsePositiveChart(FalsePositiveChart.parse(TABLE)).render());
        List<Element> measured = circles(svg, "measured");
        assertEquals(6, measured.size());
        assertEquals(3, circles(svg, "rocksdb").size());
        // log scale: 5.6 % -> 0.82 % -> 0.0068 % are equal steps in log10 only if the y distances are
        // in the ratio of their logs, whatever the pixel origin
        double y6 = cy(measured, "standard, 6 bits"), y10 = cy(measured, "standard, 10 bits"), y20 = cy(measured, "standard, 20 bits");
        double expected = Math.log10(0.056096 / 0.008210) / Math.log10(0.008210 / 0.000068);
        assertEquals(expected, (y10 - y6) / (y20 - y10), 0.02);
        assertTrue(cy(measured, "blocked, 20 bits") < y20, "blocked's higher rate at 20 bits is drawn higher");
    }

    @Test
    void anInputWithoutTheTableIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new FalsePositiveChart(FalsePositiveChart.parse("no table here\n")));
    }

    private static Element svg(String text) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
    }

    private static List<Element> circles(Element svg, String cls) {
        List<Element> found = new ArrayList<>();
        NodeList all = svg.getElementsByTagName("circle");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (e.getAttribute("class").equals(cls)) {
                found.add(e);
            }
        }
        return found;
    }

    private static double cy(List<Element> circles, String titleStart) {
        return circles.stream().filter(e -> e.getTextContent().startsWith(titleStart)).findFirst()
                .map(e -> Double.parseDouble(e.getAttribute("cy"))).orElseThrow(() -> new AssertionError("no dot " + titleStart));
    }
}
