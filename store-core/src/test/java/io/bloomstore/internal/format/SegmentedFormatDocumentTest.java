package io.bloomstore.internal.format;

import static io.bloomstore.internal.format.FormatDocumentTest.hexDump;
import static io.bloomstore.internal.format.FormatDocumentTest.hexDumpOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.bloomstore.BloomSpec;
import io.bloomstore.Layout;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/FORMAT.md's "Segmented files" section against the code: the field offsets, the example
 * container headers byte for byte (and decoded back), and the sizing tables recomputed.
 */
class SegmentedFormatDocumentTest {
    private static final FormatDocument DOC = FormatDocument.load();
    private static final long CREATED = 1_700_000_000_000L;

    @Test
    void containerFieldOffsetsAreTheDescriptors() {
        Map<String, Integer> constants = Map.of("kind", ContainerDescriptor.KIND_OFFSET,
                "table capacity", ContainerDescriptor.TABLE_CAPACITY_OFFSET, "flags", ContainerDescriptor.FLAGS_OFFSET,
                "expected keys n", ContainerDescriptor.EXPECTED_KEYS_OFFSET,
                "target rate P", ContainerDescriptor.TARGET_FPP_OFFSET, "seed", ContainerDescriptor.SEED_OFFSET,
                "created", ContainerDescriptor.CREATED_MILLIS_OFFSET,
                "parameter 1", ContainerDescriptor.PARAMETER_1_OFFSET,
                "parameter 2", ContainerDescriptor.PARAMETER_2_OFFSET,
                "parameter 3", ContainerDescriptor.PARAMETER_3_OFFSET);
        int checked = 0;
        for (Map<String, String> row : DOC.table("container-fields")) {
            Integer constant = constants.get(row.get("field"));
            if (constant != null) {
                assertEquals(constant.intValue(), Integer.parseInt(row.get("offset")), row.get("field"));
                checked++;
            }
        }
        assertEquals(constants.size(), checked, "every container field is documented");
        List<Map<String, String>> state = DOC.table("container-state");
        assertEquals(ContainerDescriptor.COUNT_OFFSET, Integer.parseInt(state.get(0).get("offset")));
        assertEquals(ContainerDescriptor.LOCK_OFFSET, Integer.parseInt(state.get(1).get("offset")));
        Map<String, Integer> words = Map.of("clock offset", ContainerDescriptor.CLOCK_OFFSET_OFFSET,
                "clock owner", ContainerDescriptor.CLOCK_OWNER_OFFSET);
        for (Map<String, String> row : state) {
            Integer constant = words.get(row.get("field"));
            if (constant != null) {
                assertEquals(constant.intValue(), Integer.parseInt(row.get("offset")), row.get("field"));
            }
        }
        assertEquals(words.keySet(), state.stream().map(row -> row.get("field")).filter(words::containsKey)
                .collect(java.util.stream.Collectors.toSet()), "every windowed state word is documented");
    }

    @Test
    void regionEntryOffsetsAreTheDescriptors() throws ReflectiveOperationException {
        int next = 0;
        int named = 0;
        for (Map<String, String> row : DOC.table("region-entry")) {
            int offset = Integer.parseInt(row.get("entry offset"));
            assertEquals(next, offset, "entry field " + row.get("field") + " does not follow the one before it");
            String constant = FormatDocument.code(row.get("constant"));
            if (!constant.equals("—")) {
                assertEquals(offset, ContainerDescriptor.class.getField(constant).getInt(null), constant);
                named++;
            }
            next = offset + Integer.parseInt(row.get("size"));
        }
        assertEquals(ContainerDescriptor.ENTRY_LENGTH, next, "the entry's fields fill ENTRY_LENGTH");
        assertEquals(3, named, "entry fields named by a constant");
    }

    @Test
    void exampleHeadersAreWhatTheCodeWritesAndReads() throws Exception {
        ContainerHeader growing = ContainerHeader.growing(Layout.STANDARD, BloomSpec.DEFAULT_SEED, 1000, 0.01, 2, 0.85,
                0, CREATED);
        ContainerHeader windowed = ContainerHeader.windowed(Layout.STANDARD, BloomSpec.DEFAULT_SEED, 80_000, 0.01,
                86_400_000L, 8, CREATED);
        for (var example : Map.of("example-growing-header", growing, "example-windowed-header", windowed).entrySet()) {
            byte[] documented = hexDump(DOC.codeBlock(example.getKey()));
            assertEquals(hexDumpOf(example.getValue().encode()), hexDumpOf(documented), example.getKey());
            assertEquals(example.getValue(), ContainerHeader.decode(Path.of("example"), documented), example.getKey());
        }
    }

    @Test
    void sizingTablesAreTheCodes() {
        ContainerHeader growing = ContainerHeader.growing(Layout.STANDARD, BloomSpec.DEFAULT_SEED, 1000, 0.01, 2, 0.85,
                0, CREATED);
        long offset = ContainerDescriptor.FIRST_REGION;
        for (Map<String, String> row : DOC.table("growing-sizes")) {
            int i = Integer.parseInt(row.get("segment"));
            BloomSpec spec = growing.regionSpec(i);
            assertEquals(row.get("n_i"), Long.toString(spec.expectedKeys()), "segment " + i);
            assertEquals(row.get("p_i"), Double.toString(spec.targetFpp()), "segment " + i);
            assertEquals(row.get("m"), Long.toString(spec.cells()), "segment " + i);
            assertEquals(row.get("k"), Integer.toString(spec.hashes()), "segment " + i);
            assertEquals(row.get("cells length"), Long.toString(spec.cellBytes()), "segment " + i);
            assertEquals(row.get("region offset"), Long.toString(offset), "segment " + i);
            offset += ContainerHeader.regionLength(spec);
        }
        Set<Layout> layouts = new HashSet<>();
        for (Map<String, String> row : DOC.table("windowed-sizes")) {
            ContainerHeader windowed = ContainerHeader.windowed(Layout.valueOf(row.get("layout").toUpperCase(Locale.ROOT)),
                    BloomSpec.DEFAULT_SEED,
                    Long.parseLong(row.get("n")), Double.parseDouble(row.get("P")), 86_400_000L,
                    Integer.parseInt(row.get("L")), CREATED);
            BloomSpec slot = windowed.regionSpec(0);
            assertEquals(row.get("n_slot"), Long.toString(slot.expectedKeys()));
            assertEquals(row.get("p_slot"), Double.toString(slot.targetFpp()));
            assertEquals(row.get("m"), Long.toString(slot.cells()));
            assertEquals(row.get("k"), Integer.toString(slot.hashes()));
            assertEquals(row.get("cells length"), Long.toString(slot.cellBytes()));
            layouts.add(windowed.layout());
        }
        assertEquals(Stream.of(Layout.values()).filter(layout -> !layout.isImported() && layout != Layout.SBBF)
                .collect(Collectors.toSet()), layouts, "a ring's slots in every layout they take, the default (blocked) included");
    }

    @Test
    void theSizingOfAllRegionsAtOnceIsEachRegionsOwn() {
        for (Layout layout : Layout.values()) {
            if (layout.isImported() || layout == Layout.SBBF) {
                continue; // never a region's layout
            }
            ContainerHeader growing = ContainerHeader.growing(layout, 7, 1000, 0.01, 2, 0.85, 0, CREATED);
            ContainerHeader windowed = ContainerHeader.windowed(layout, 7, 64_000, 0.01, 86_400_000L, 8, CREATED);
            for (ContainerHeader header : List.of(growing, windowed)) {
                List<BloomSpec> specs = header.regionSpecs(9);
                assertEquals(9, specs.size());
                for (int i = 0; i < specs.size(); i++) {
                    assertEquals(header.regionSpec(i), specs.get(i), layout + " " + header.kind() + " region " + i);
                }
            }
            assertNotEquals(growing.regionSpecs(2).get(0), growing.regionSpecs(2).get(1), "a chain's segments differ");
        }
    }
}
