package io.bloomstore.internal.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Holds the picture in {@link FilterFileDescriptor}'s Javadoc to the constants it describes and to
 * docs/FORMAT.md's header and state tables: a reader trusts the picture, so a field moved in the
 * code or the document and not in the picture (or drawn at a wrong column) fails here.
 */
class FilterFileDescriptorPictureTest {
    /** Surefire runs with the module directory as working directory. */
    private static final Path SOURCE = Path.of("src/main/java/io/bloomstore/internal/format/FilterFileDescriptor.java");
    private static final int ROW_BYTES = 8;
    private static final int BYTE_COLUMNS = 8;
    private static final int ROW_COLUMNS = ROW_BYTES * BYTE_COLUMNS + 1;
    /** The fixed-size part the picture draws byte by byte: the header and the state area. */
    private static final int DRAWN_END = FilterFileDescriptor.STATE_OFFSET + FilterFileDescriptor.STATE_LENGTH;
    private static final Pattern ROW = Pattern.compile("^ \\*   (\\|.*\\|) +(\\d+)\\b.*$");
    private static final Pattern SEPARATOR = Pattern.compile("^ \\*   ([-=+]+)$");
    private static final Pattern TYPE = Pattern.compile("\\((u8|u16|u32|u64|i64|f64)\\b");

    private record Drawn(int offset, int length, String label) {
    }

    @Test
    void picturedFieldsAreTheDocumentedFields() throws IOException {
        Picture picture = parse();
        FormatDocument document = FormatDocument.load();
        List<Map<String, String>> rows = new ArrayList<>(document.table("header-fields"));
        rows.addAll(document.table("state-fields"));
        assertEquals(rows.size(), picture.fields.size(), "fields drawn " + picture.fields.values() + " vs FORMAT.md's tables");
        for (Map<String, String> row : rows) {
            int offset = Integer.parseInt(row.get("offset"));
            Drawn drawn = picture.fields.get(offset);
            String name = "FORMAT.md's " + row.get("field") + " at " + offset;
            if (drawn == null) {
                fail(name + " is not a field of the picture, which has " + picture.fields.values());
            }
            assertEquals(Integer.parseInt(row.get("size")), drawn.length, name + ": its size in the picture");
            boolean reserved = row.get("field").equals("reserved");
            assertEquals(reserved, drawn.label.equals("rsv") || drawn.label.startsWith("reserved"),
                    name + " is drawn as \"" + drawn.label + "\"");
            Matcher type = TYPE.matcher(drawn.label);
            if (type.find()) {
                assertEquals(row.get("type"), type.group(1), name + ": the type the picture gives");
            }
        }
    }

    @Test
    void everyOffsetConstantStartsAPicturedField() throws Exception {
        Picture picture = parse();
        int checked = 0;
        for (Field field : FilterFileDescriptor.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class && field.getName().endsWith("_OFFSET")) {
                int offset = field.getInt(null);
                if (offset < DRAWN_END) {
                    assertTrue(picture.fields.containsKey(offset), field.getName() + " = " + offset + " starts no field of the picture");
                    checked++;
                }
            }
        }
        assertTrue(checked >= 20, "only " + checked + " offset constants found");
        Drawn crc = picture.fields.get(FilterFileDescriptor.HEADER_CRC_OFFSET);
        assertEquals(FilterFileDescriptor.HEADER_LENGTH, crc.offset + crc.length, "the CRC ends the header");
    }

    @Test
    void doubleRulesFallWhereTheHeaderAndTheStateEnd() throws IOException {
        Picture picture = parse();
        assertEquals(List.of(FilterFileDescriptor.HEADER_LENGTH, DRAWN_END, FilterFileDescriptor.CELLS_START),
                picture.doubleRules, "offsets of the rows below each ==== rule");
        assertEquals(FilterFileDescriptor.CELLS_START, picture.lastRowOffset, "the cells' row");
    }

    /**
     * Reads the picture: 8-byte rows numbered by their offset, cells of whole bytes between bars,
     * a row starting with a blank cell continuing the field above.
     */
    private static Picture parse() throws IOException {
        List<String> lines = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
        int start = lines.indexOf(" * <pre>");
        int end = lines.indexOf(" * </pre>");
        assertTrue(start >= 0 && end > start, "no <pre> picture in " + SOURCE);
        Picture picture = new Picture();
        int nextRow = 0;
        boolean ruleAbove = false;
        for (String line : lines.subList(start + 1, end)) {
            Matcher separator = SEPARATOR.matcher(line);
            if (separator.matches()) {
                assertRule(separator.group(1));
                ruleAbove = separator.group(1).contains("=");
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (!row.matches()) {
                continue; // the byte ruler above the picture
            }
            int offset = Integer.parseInt(row.group(2));
            if (ruleAbove) {
                picture.doubleRules.add(offset);
                ruleAbove = false;
            }
            picture.lastRowOffset = offset;
            if (nextRow >= DRAWN_END) {
                continue; // the zero page and the cells, drawn one row each
            }
            assertEquals(nextRow, offset, "the row after the one at " + (nextRow - ROW_BYTES) + " is numbered " + offset);
            String drawn = row.group(1);
            assertEquals(ROW_COLUMNS, drawn.length(), "row " + offset + " is not " + ROW_BYTES + " bytes wide");
            int column = 0;
            for (String cell : drawn.substring(1, drawn.length() - 1).split("\\|", -1)) {
                assertEquals(0, (cell.length() + 1) % BYTE_COLUMNS, "row " + offset + ": \"" + cell + "\" is not whole bytes");
                int fieldOffset = offset + column / BYTE_COLUMNS;
                int length = (cell.length() + 1) / BYTE_COLUMNS;
                String label = cell.strip();
                if (label.isEmpty()) {
                    assertEquals(0, column, "row " + offset + ": only a row's first cell may continue the field above");
                    Drawn above = picture.last();
                    picture.fields.put(above.offset, new Drawn(above.offset, above.length + length, above.label));
                } else {
                    picture.fields.put(fieldOffset, new Drawn(fieldOffset, length, label));
                }
                column += cell.length() + 1;
            }
            nextRow = offset + ROW_BYTES;
        }
        assertEquals(DRAWN_END, nextRow, "the picture draws the bytes up to " + DRAWN_END);
        return picture;
    }

    /** A rule's corners sit on byte boundaries only. */
    private static void assertRule(String rule) {
        assertEquals(ROW_COLUMNS, rule.length(), "rule " + rule + " is not " + ROW_BYTES + " bytes wide");
        for (int column = 0; column < rule.length(); column++) {
            if (rule.charAt(column) == '+') {
                assertEquals(0, column % BYTE_COLUMNS, "rule " + rule + " has a corner inside a byte");
            }
        }
    }

    private static final class Picture {
        final Map<Integer, Drawn> fields = new LinkedHashMap<>();
        final List<Integer> doubleRules = new ArrayList<>();
        int lastRowOffset = -1;

        Drawn last() {
            Drawn last = null;
            for (Drawn field : fields.values()) {
                last = field;
            }
            return last;
        }
    }
}
