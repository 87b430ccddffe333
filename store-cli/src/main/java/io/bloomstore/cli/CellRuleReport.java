package io.bloomstore.cli;

import io.bloomstore.BloomFilter;
import io.bloomstore.StableSpec;
import io.bloomstore.ValuedFilter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code inspect} adds for a stable or valued filter (docs/FORMAT.md, "Cell rules"); the
 * {@code cellRule} object of its JSON, null for a plain filter. Components that do not apply to
 * the rule are null.
 *
 * @param rule "stable", "max" or "min"
 * @param decrements a stable filter's P, the cells each add lowers first
 * @param stableFpp the false-positive rate a stable filter converges to
 * @param stableZeroFraction P0, the fraction of zero cells at the stable point
 * @param zeroFraction the fraction of zero cells now
 * @param expectedLifetime the later adds a key survives on average
 * @param valueBits a valued filter's W
 * @param errorPerValue per value held in some cell, the probability that a key holding it reads
 *     another (larger under max, smaller under min)
 */
record CellRuleReport(String rule, Long decrements, Double stableFpp, Double stableZeroFraction, double zeroFraction,
        Double expectedLifetime, Integer valueBits, Map<String, Double> errorPerValue) {

    /** The report of {@code filter}'s rule, from its fill ratio (already scanned); null for a plain filter. */
    static CellRuleReport of(BloomFilter filter, double fillRatio) {
        double zeros = 1 - fillRatio;
        if (filter.stableSpec().isPresent()) {
            return stable(filter.stableSpec().get(), zeros);
        }
        return ValuedFilter.of(filter).map(valued -> {
            Map<String, Double> errors = new LinkedHashMap<>();
            valued.errorRates().forEach((value, rate) -> errors.put(Long.toString(value), rate));
            return valued(valued.keepsMax(), valued.valueBits(), zeros, errors);
        }).orElse(null);
    }

    /** A stable filter's report, with {@code zeros} of its cells zero (1 for a new file). */
    static CellRuleReport stable(StableSpec spec, double zeros) {
        return new CellRuleReport("stable", spec.decrements(), spec.stableFpp(), spec.stableZeroFraction(), zeros,
                spec.expectedLifetime(), null, null);
    }

    /** A valued filter's report, with {@code zeros} of its cells empty (1 for a new file, with no errors). */
    static CellRuleReport valued(boolean keepsMax, int valueBits, double zeros, Map<String, Double> errorPerValue) {
        return new CellRuleReport(keepsMax ? "max" : "min", null, null, null, zeros, null, valueBits, errorPerValue);
    }

    /** The one line create prints of a new stable filter's model. */
    static String summary(StableSpec spec) {
        return spec.decrements() + " decrements per add; false positives converge to " + Human.percent(spec.stableFpp())
                + "; a key survives " + Human.estimate(spec.expectedLifetime()) + " later adds on average";
    }

    /** inspect's text rows for the rule. */
    void addRows(Table table) {
        if (rule.equals("stable")) {
            table.row("cell rule", "stable (Deng & Rafiei): each add lowers " + Human.count(decrements)
                            + " cells, then sets the key's to the maximum")
                    .row("stable point", Human.percent(stableFpp) + " false positives, " + Human.percent(stableZeroFraction)
                            + " of cells zero; now " + Human.percent(zeroFraction) + " zero")
                    .row("expected lifetime", Human.estimate(expectedLifetime) + " later adds: how long a key is "
                            + "remembered on average");
            return;
        }
        StringBuilder errors = new StringBuilder();
        errorPerValue.forEach((value, rate) -> errors.append(errors.length() == 0 ? "" : ", ").append(value).append(": ")
                .append(Human.percent(rate)));
        table.row("cell rule", "valued, keeps the " + (rule.equals("max") ? "largest" : "smallest") + " value of a key; "
                        + valueBits + (valueBits == 1 ? " value bit" : " value bits"))
                .row("error per value", errors.length() == 0 ? "none (empty)" : errors + " (a key holding the value reads "
                        + (rule.equals("max") ? "a larger" : "a smaller") + " one)");
    }
}
