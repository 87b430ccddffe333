package io.bloomstore.bench.report;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measured false-positive rate against bits per key, as an SVG chart drawn from the accuracy table
 * that {@code FppTable} prints (its first table, kept in a result set): for each layout, a line
 * through the model's rates and a dot per measured rate, and RocksDB's probing beside the blocked
 * layout where the table has it. The rate axis is logarithmic, as the rates fall by a factor of
 * about 1.6 with every bit a key; a measured dot on its layout's line is a model confirmed.
 *
 * <pre>java -cp bench/target/benchmarks.jar io.bloomstore.bench.report.FalsePositiveChart fpp-table.md out.svg</pre>
 */
public final class FalsePositiveChart {
    /** A row: "| bits | layout | k | 0.9680% ± 0.0012% | 0.9663% | 0.9666% ± 0.0012% |" (the last cell may be empty). */
    private static final Pattern ROW = Pattern.compile(
            "\\|\\s*(\\d+)\\s*\\|\\s*(\\w+)\\s*\\|\\s*(\\d+)\\s*\\|\\s*([\\d.]+)%\\s*±\\s*[\\d.]+%\\s*\\|\\s*([\\d.]+)%\\s*\\|\\s*(?:([\\d.]+)%[^|]*)?\\|");
    private static final Map<String, String> COLOURS = Map.of("standard", "#1f77b4", "blocked", "#d62728",
            "sectorized", "#2ca02c");
    private static final int LEFT = 70;
    private static final int TOP = 50;
    private static final int WIDTH = 520;
    private static final int HEIGHT = 340;
    private static final int LEGEND = 200;

    /** One row of the table: rates as fractions. {@code rocksDb} is NaN where the table has none. */
    record Point(int bitsPerKey, String layout, int hashes, double measured, double model, double rocksDb) {
    }

    private final List<Point> points;

    FalsePositiveChart(List<Point> points) {
        if (points.isEmpty()) {
            throw new IllegalArgumentException("no rows of FppTable's accuracy table found");
        }
        this.points = points;
    }

    /** The rows of FppTable's accuracy table in {@code text}; other lines are skipped. */
    static List<Point> parse(String text) {
        List<Point> points = new ArrayList<>();
        for (String line : text.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.find()) {
                points.add(new Point(Integer.parseInt(m.group(1)), m.group(2), Integer.parseInt(m.group(3)),
                        Double.parseDouble(m.group(4)) / 100, Double.parseDouble(m.group(5)) / 100,
                        m.group(6) == null ? Double.NaN : Double.parseDouble(m.group(6)) / 100));
            }
        }
        return points;
    }

    String render() {
        int minBits = points.stream().mapToInt(Point::bitsPerKey).min().orElseThrow();
        int maxBits = points.stream().mapToInt(Point::bitsPerKey).max().orElseThrow();
        double low = Math.floor(Math.log10(points.stream().mapToDouble(p -> Math.min(p.measured(), p.model())).min().orElseThrow()));
        double high = Math.ceil(Math.log10(points.stream().mapToDouble(p -> Math.max(p.measured(), p.model())).max().orElseThrow()));
        Axes axes = new Axes(minBits, maxBits, low, high);
        int width = LEFT + WIDTH + LEGEND;
        int height = TOP + HEIGHT + 50;
        StringBuilder svg = SvgCanvas.open(width, height, LEFT, "False-positive rate against bits per key (lower is better)",
                "Lines: each layout's model; dots: measured (1 M keys a filter); rings: RocksDB's probing on the same blocks.");
        for (double decade = low; decade <= high; decade++) {
            int y = axes.y(Math.pow(10, decade));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%s</text>\n",
                    LEFT, y, LEFT + WIDTH, y, LEFT - 6, y + 4, percent(Math.pow(10, decade))));
        }
        for (int bits = minBits; bits <= maxBits; bits += 2) {
            int x = axes.x(bits);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%d</text>\n",
                    x, TOP, x, TOP + HEIGHT, x, TOP + HEIGHT + 16, bits));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">bits per key</text>\n",
                LEFT + WIDTH / 2, TOP + HEIGHT + 36));
        int legendY = TOP + 20;
        for (Map.Entry<String, List<Point>> layout : byLayout().entrySet()) {
            String colour = COLOURS.getOrDefault(layout.getKey(), "#555555");
            StringBuilder line = new StringBuilder();
            for (Point p : layout.getValue()) {
                line.append(line.length() == 0 ? "" : " ").append(axes.x(p.bitsPerKey())).append(',').append(axes.y(p.model()));
            }
            // dashed, so that a layout whose rates lie on another's (sectorized on blocked) leaves that one visible
            String dash = layout.getKey().equals("sectorized") ? " stroke-dasharray=\"6,4\"" : "";
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s/>\n",
                    line, colour, dash));
            for (Point p : layout.getValue()) {
                svg.append(String.format(Locale.ROOT, "<circle class=\"measured\" cx=\"%d\" cy=\"%d\" r=\"3.5\" fill=\"%s\">"
                        + "<title>%s, %d bits a key, k = %d: measured %s, model %s</title></circle>\n",
                        axes.x(p.bitsPerKey()), axes.y(p.measured()), colour, p.layout(), p.bitsPerKey(), p.hashes(),
                        percent(p.measured()), percent(p.model())));
                if (!Double.isNaN(p.rocksDb())) {
                    svg.append(String.format(Locale.ROOT, "<circle class=\"rocksdb\" cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"none\" "
                            + "stroke=\"#555\"><title>RocksDB's probing, %d bits a key: %s</title></circle>\n",
                            axes.x(p.bitsPerKey()), axes.y(p.rocksDb()), p.bitsPerKey(), percent(p.rocksDb())));
                }
            }
            int x = LEFT + WIDTH + 20;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">bloomstore %s</text>\n", x, legendY - 10, colour, x + 18, legendY, layout.getKey()));
            legendY += 18;
        }
        return svg.append("</svg>\n").toString();
    }

    private Map<String, List<Point>> byLayout() {
        Map<String, List<Point>> layouts = new LinkedHashMap<>();
        for (Point p : points) {
            layouts.computeIfAbsent(p.layout(), l -> new ArrayList<>()).add(p);
        }
        return layouts;
    }

    /** Bits per key across, log10 of the rate down, from decade {@code low} to {@code high}. */
    private record Axes(int minBits, int maxBits, double low, double high) {
        int x(int bits) {
            return LEFT + (int) Math.round(WIDTH * (bits - minBits) / (double) Math.max(1, maxBits - minBits));
        }

        int y(double rate) {
            return TOP + (int) Math.round(HEIGHT * (high - Math.log10(rate)) / (high - low));
        }
    }

    private static String percent(double rate) {
        return new BigDecimal(rate * 100).round(new MathContext(3)).stripTrailingZeros().toPlainString() + " %";
    }

    /**
     * Draws the chart of an accuracy table.
     *
     * @param args the table (FppTable's output, Markdown) and the SVG file to write
     * @throws IOException if a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: FalsePositiveChart FPP-TABLE.md OUT.svg  (the table FppTable prints)");
            System.exit(2);
        }
        Files.writeString(Path.of(args[1]), new FalsePositiveChart(parse(Files.readString(Path.of(args[0])))).render());
    }
}
