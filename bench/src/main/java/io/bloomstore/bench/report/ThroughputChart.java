package io.bloomstore.bench.report;

import io.bloomstore.bench.ComparedFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The throughput of every filter kind as an SVG bar chart, drawn from the same JMH results as the
 * tables: one panel per n, in each a group of bars per call (add, present query, absent query), a
 * bar per filter kind, with bloomstore's batch calls beside the single calls where the results hold
 * them. Wall-clock Mops/s of one thread and long keys; each panel has its own scale, since the
 * throughput at 1 M keys is ten times that at 200 M. Plain SVG text, no dependency: the chart is
 * meant to sit in docs/ next to the tables it illustrates.
 */
final class ThroughputChart {
    private static final List<String> CALLS = List.of("add", "mightContainPresent", "mightContainAbsent");
    private static final List<String> CALL_LABELS = List.of("add", "query, present key", "query, absent key");
    private static final String KEY = "LONG";
    private static final int BAR = 14;
    private static final int GROUP_GAP = 26;
    private static final int PANEL_HEIGHT = 190;
    private static final int PANEL_GAP = 70;
    private static final int LEFT = 60;
    private static final int TOP = 56;
    private static final int LEGEND = 190;

    /** A bar series: a filter kind's single calls, or a bloomstore layout's batch calls. */
    private record Series(ComparedFilter kind, boolean batch, String label, String colour) {
    }

    private final List<JmhResult> results;

    ThroughputChart(List<JmhResult> results) {
        this.results = results;
    }

    String render() {
        TreeSet<Long> sizes = new TreeSet<>();
        results.stream().filter(r -> r.metric().isEmpty() && r.param("keyType").equals(KEY) && !r.param("n").isEmpty())
                .forEach(r -> sizes.add(Long.parseLong(r.param("n"))));
        List<Series> series = series();
        int groupWidth = series.size() * BAR + GROUP_GAP;
        int width = LEFT + CALLS.size() * groupWidth + LEGEND;
        int height = TOP + sizes.size() * (PANEL_HEIGHT + PANEL_GAP);
        StringBuilder svg = SvgCanvas.open(width, height, LEFT,
                "Throughput per thread, long keys, p = 1 % (Mops/s, wall clock; higher is better)",
                "One JMH run per bar; read ratios within a panel. Batch bars: bloomstore's batch calls, where measured (peers have none).");
        int top = TOP;
        for (long n : sizes) {
            panel(svg, n, series, top, groupWidth);
            top += PANEL_HEIGHT + PANEL_GAP;
        }
        int x = LEFT + CALLS.size() * groupWidth + 20;
        int y = TOP + 20;
        for (Series s : series) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>\n", x, y - 10, s.colour(), x + 18, y, s.label()));
            y += 18;
        }
        return svg.append("</svg>\n").toString();
    }

    private void panel(StringBuilder svg, long n, List<Series> series, int top, int groupWidth) {
        double max = 0;
        for (String call : CALLS) {
            for (Series s : series) {
                max = Math.max(max, score(s, call, n).orElse(0.0));
            }
        }
        double scale = niceCeiling(max);
        int bottom = top + PANEL_HEIGHT;
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">n = %s keys</text>\n",
                LEFT, top - 8, millions(n)));
        for (int tick = 0; tick <= 4; tick++) {
            double value = scale * tick / 4;
            int y = bottom - (int) Math.round(PANEL_HEIGHT * tick / 4.0);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">%s</text>\n",
                    LEFT, y, LEFT + CALLS.size() * groupWidth, y, LEFT - 6, y + 4, number(value)));
        }
        for (int c = 0; c < CALLS.size(); c++) {
            int x = LEFT + c * groupWidth + GROUP_GAP / 2;
            for (Series s : series) {
                Optional<Double> score = score(s, CALLS.get(c), n);
                if (score.isPresent()) {
                    int h = (int) Math.round(PANEL_HEIGHT * score.get() / scale);
                    svg.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                            + "fill=\"%s\"><title>%s, %s, n = %s: %s Mops/s</title></rect>\n", x, bottom - h, BAR - 2, h,
                            s.colour(), s.label(), CALLS.get(c), millions(n), number(score.get())));
                }
                x += BAR;
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                    LEFT + c * groupWidth + groupWidth / 2, bottom + 16, CALL_LABELS.get(c)));
        }
    }

    /** The kinds and batch calls the results hold, in {@link ComparedFilter}'s order, batch calls after the peers. */
    private List<Series> series() {
        String[] colours = {"#888888", "#1f77b4", "#0b3d91", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd", "#8c564b"};
        List<Series> series = new ArrayList<>();
        List<Series> batches = new ArrayList<>();
        for (ComparedFilter kind : ComparedFilter.values()) {
            String colour = colours[kind.ordinal() % colours.length];
            String name = kind.name().toLowerCase(Locale.ROOT);
            if (present(kind, false)) {
                series.add(new Series(kind, false, kind.isBloomstore() ? "bloomstore " + name : name, colour));
            }
            if (kind.isBloomstore() && present(kind, true)) {
                batches.add(new Series(kind, true, "bloomstore " + name + ", batch", kind == ComparedFilter.BLOCKED
                        ? "#17becf" : "#aec7e8"));
            }
        }
        series.addAll(batches);
        return series;
    }

    private boolean present(ComparedFilter kind, boolean batch) {
        return results.stream().anyMatch(r -> r.metric().isEmpty() && r.param("impl").equals(kind.name())
                && r.param("keyType").equals(KEY) && r.method().endsWith("Batch") == batch
                && CALLS.contains(r.method().replace("Batch", "")));
    }

    private Optional<Double> score(Series s, String call, long n) {
        String method = s.batch() ? call + "Batch" : call;
        return results.stream().filter(r -> r.metric().isEmpty() && r.threads() == 1 && r.method().equals(method)
                        && r.param("impl").equals(s.kind().name()) && r.param("keyType").equals(KEY)
                        && r.param("n").equals(Long.toString(n)))
                .map(JmhResult::score).findFirst();
    }

    /** The smallest of 1, 2, 2.5, 5 times a power of ten at or above {@code max}: the panel's top. */
    static double niceCeiling(double max) {
        if (max <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= max) {
                return step * power;
            }
        }
        return 10 * power;
    }

    private static String millions(long n) {
        return n % 1_000_000 == 0 ? n / 1_000_000 + " M" : String.format(Locale.ROOT, "%,d", n);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }
}
