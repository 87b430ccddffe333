package io.bloomstore.bench.report;

import java.util.Locale;

/** The opening every chart of the report shares: a white canvas, a bold title and a grey line saying how to read it. */
final class SvgCanvas {
    private SvgCanvas() {
    }

    /** A new SVG text of {@code width} by {@code height}, its title and subtitle at {@code left}; the caller closes it with {@code </svg>}. */
    static StringBuilder open(int width, int height, int left, String title, String subtitle) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
        svg.append("<text x=\"").append(left).append("\" y=\"22\" font-size=\"14\" font-weight=\"bold\">").append(title)
                .append("</text>\n");
        svg.append("<text x=\"").append(left).append("\" y=\"40\" fill=\"#555\">").append(subtitle).append("</text>\n");
        return svg;
    }
}
