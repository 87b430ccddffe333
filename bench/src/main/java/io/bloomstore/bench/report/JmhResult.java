package io.bloomstore.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One row of a JMH CSV result file ({@code -rf csv}): the benchmark method, the metric (empty for
 * the primary result, else a profiler's secondary result such as
 * {@link io.bloomstore.bench.micro.CpuTimeProfiler#METRIC}), threads, score and its 99.9% error,
 * unit, and the {@code @Param} values.
 */
record JmhResult(String method, String metric, int threads, double score, double error, String unit,
        Map<String, String> params) {

    String param(String name) {
        return params.getOrDefault(name, "");
    }

    /** Reads every row of a JMH CSV file (none from an empty file: a run still going or failed). */
    static List<JmhResult> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            return List.of();
        }
        List<String> header = fields(lines.get(0));
        List<JmhResult> results = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            List<String> values = fields(line);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.size() && i < values.size(); i++) {
                row.put(header.get(i), values.get(i));
            }
            Map<String, String> params = new HashMap<>();
            row.forEach((key, value) -> {
                if (key.startsWith("Param: ") && !value.isEmpty()) {
                    params.put(key.substring("Param: ".length()), value);
                }
            });
            String benchmark = row.get("Benchmark");
            int colon = benchmark.indexOf(':');
            String metric = colon < 0 ? "" : benchmark.substring(colon + 1);
            String name = colon < 0 ? benchmark : benchmark.substring(0, colon);
            String error = row.getOrDefault("Score Error (99.9%)", "");
            results.add(new JmhResult(name.substring(name.lastIndexOf('.') + 1), metric,
                    Integer.parseInt(row.get("Threads")), number(row.get("Score")),
                    error.isEmpty() || error.equals("NaN") ? Double.NaN : number(error), row.get("Unit"), params));
        }
        return results;
    }

    private static double number(String value) {
        return Double.parseDouble(value.replace(',', '.'));
    }

    /** Splits one CSV line; fields may be double-quoted (JMH quotes strings, not numbers). */
    static List<String> fields(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == ',' && !quoted) {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        fields.add(field.toString());
        return fields;
    }
}
