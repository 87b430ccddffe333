package io.bloomstore.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.bloomstore.Layout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ContainerHeader#keysBeforeTableFull} answers "the segment after the table's last entry
 * cannot exist" from a bound on its cells, without sizing it; the answer must be the one sizing
 * that segment gives (refused, or a spec), for every layout a growing file takes and growth factors
 * on both sides of the border.
 */
class TableEndSizingTest {
    @Test
    void theBoundAgreesWithSizingTheSegmentAfterTheTable() {
        List<String> expected = new ArrayList<>();
        List<String> actual = new ArrayList<>();
        for (Layout layout : List.of(Layout.STANDARD, Layout.BLOCKED, Layout.SECTORIZED)) {
            // sizing that segment is the slow search the bound spares: a few cases, on both sides of the border
            for (double growth : new double[] {1.2, 2}) {
                ContainerHeader header = ContainerHeader.growing(layout, 0, 1_000, 0.01, growth, 0.5, 0, 0);
                String sized;
                try {
                    header.regionSpec(header.tableCapacity());
                    sized = "a segment after the table";
                } catch (IllegalArgumentException refused) {
                    sized = "none after the table";
                }
                String fast = header.keysBeforeTableFull() == Long.MAX_VALUE ? "none after the table" : "a segment after the table";
                expected.add(layout + " growth " + growth + ": " + sized);
                actual.add(layout + " growth " + growth + ": " + fast);
            }
        }
        assertEquals(expected, actual);
    }
}
