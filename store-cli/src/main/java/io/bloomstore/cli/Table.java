package io.bloomstore.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Human output as two aligned columns, label and value. */
final class Table {
    private final List<String[]> rows = new ArrayList<>();

    Table row(String label, String value) {
        rows.add(new String[] {label, value});
        return this;
    }

    void print(PrintWriter out) {
        int width = 0;
        for (String[] row : rows) {
            width = Math.max(width, row[0].length());
        }
        for (String[] row : rows) {
            out.println(row[0] + " ".repeat(width + 2 - row[0].length()) + row[1]);
        }
    }
}
