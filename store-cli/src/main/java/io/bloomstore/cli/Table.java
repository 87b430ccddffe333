package io.bloomstore.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Human output as aligned columns: label and value, or a header row over rows of values. */
final class Table {
    private final List<String[]> rows = new ArrayList<>();

    Table row(String label, String value) {
        rows.add(new String[] {label, value});
        return this;
    }

    /** Adds a row of any number of cells (after a header row of as many): see {@link #print}. */
    Table cells(String... values) {
        rows.add(values);
        return this;
    }

    /** Prints the rows, each column as wide as its widest cell, two spaces apart; the last column is not padded. */
    void print(PrintWriter out) {
        int columns = 0;
        for (String[] row : rows) {
            columns = Math.max(columns, row.length);
        }
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                line.append(row[c]);
                if (c < row.length - 1) {
                    line.append(" ".repeat(widths[c] + 2 - row[c].length()));
                }
            }
            out.println(line);
        }
    }
}
