package io.bloomstore.internal.format;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * docs/FORMAT.md as data: the tables and blocks that follow a {@code <!-- format-test:NAME -->}
 * marker. The marker is an HTML comment, invisible where the document is rendered, so the
 * document stays written for people while its numbers stay machine-checked.
 */
final class FormatDocument {
    /** Surefire runs with the module directory as working directory; the docs sit beside it. */
    static final Path LOCATION = Path.of("..", "docs", "FORMAT.md");

    private final List<String> lines;
    private final String text;

    private FormatDocument(String text) {
        this.text = text;
        this.lines = Arrays.asList(text.split("\r?\n", -1));
    }

    static FormatDocument load() {
        try {
            return new FormatDocument(Files.readString(LOCATION, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LOCATION.toAbsolutePath(), e);
        }
    }

    String text() {
        return text;
    }

    /** The markdown table after the marker, one map per body row, keyed by the header cells. */
    List<Map<String, String>> table(String marker) {
        int at = lineAfterMarker(marker);
        List<String> tableLines = new ArrayList<>();
        for (int i = at; i < lines.size() && lines.get(i).trim().startsWith("|"); i++) {
            tableLines.add(lines.get(i));
        }
        if (tableLines.size() < 3) {
            throw new AssertionError("FORMAT.md: no table with rows after marker " + marker);
        }
        List<String> header = cells(tableLines.get(0));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : tableLines.subList(2, tableLines.size())) {
            List<String> values = cells(line);
            if (values.size() != header.size()) {
                throw new AssertionError("FORMAT.md table " + marker + ": row has " + values.size()
                        + " cells, header " + header.size() + ": " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int c = 0; c < header.size(); c++) {
                row.put(header.get(c), values.get(c));
            }
            rows.add(row);
        }
        return rows;
    }

    /** The lines inside the fenced code block after the marker. */
    List<String> codeBlock(String marker) {
        int at = lineAfterMarker(marker);
        if (at >= lines.size() || !lines.get(at).startsWith("```")) {
            throw new AssertionError("FORMAT.md: no code block right after marker " + marker);
        }
        List<String> block = new ArrayList<>();
        for (int i = at + 1; !lines.get(i).startsWith("```"); i++) {
            block.add(lines.get(i));
        }
        return block;
    }

    /** Strips the backticks of an inline code span. */
    static String code(String cell) {
        return cell.replace("`", "").trim();
    }

    /** A u64 written as 0x-prefixed hex (unsigned) or as decimal. */
    static long parseU64(String cell) {
        String value = code(cell);
        return value.startsWith("0x") ? Long.parseUnsignedLong(value.substring(2), 16) : Long.parseLong(value);
    }

    private int lineAfterMarker(String marker) {
        String comment = "<!-- format-test:" + marker + " -->";
        int index = lines.indexOf(comment);
        if (index < 0) {
            throw new AssertionError("FORMAT.md has no marker " + comment);
        }
        return index + 1;
    }

    private static List<String> cells(String line) {
        String trimmed = line.trim();
        String inner = trimmed.substring(1, trimmed.endsWith("|") ? trimmed.length() - 1 : trimmed.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("(?<!\\\\)\\|", -1)) { // GFM: an escaped pipe stays in its cell
            cells.add(cell.replace("\\|", "|").trim());
        }
        return cells;
    }
}
