package io.bloomstore.internal.format;

/**
 * What an add does to a key's w-bit cells and what a query reads from them, when it is not the
 * plain "set a bit / count" of format versions 1 and 3: the field of a version 4 header
 * (docs/FORMAT.md, "Cell rules").
 *
 * @param kind the rule
 * @param valueBits a valued filter's W (values 0 to 2^W - 1, held as value + 1 in cells of
 *     {@link #cellBitsFor} bits); 0 otherwise
 * @param decrements a stable filter's P, the cells each add decrements first; 0 otherwise
 */
public record CellRule(Kind kind, int valueBits, long decrements) {
    /** The rules, by the id stored at {@link FilterFileDescriptor#CELL_RULE_OFFSET}. */
    public enum Kind {
        /** Versions 1 and 3: set a bit, or count; never stored in a version 4 header. */
        PLAIN(0),
        /** Deng &amp; Rafiei's stable filter: P decrements, then the key's cells to the maximum. */
        STABLE(1),
        /** A key's cells rise to max(cell, value + 1); a read is the minimum of its cells, minus one. */
        MAX(2),
        /** A key's cells fall to min(cell, value + 1), an empty cell taking it; a read is the maximum, minus one. */
        MIN(3);

        private final int id;

        Kind(int id) {
            this.id = id;
        }

        public int id() {
            return id;
        }

        /** The rule stored under {@code id}, or null for one this release does not know. */
        static Kind ofId(int id) {
            for (Kind kind : values()) {
                if (kind.id == id && kind != PLAIN) {
                    return kind;
                }
            }
            return null;
        }
    }

    /** The rule of every version 1 and version 3 file. */
    public static final CellRule PLAIN = new CellRule(Kind.PLAIN, 0, 0);
    /** The widest value a valued filter holds: its cells, value + 1, must fit 32 bits. */
    public static final int MAX_VALUE_BITS = 31;

    /** A stable filter's rule: {@code decrements} (at least 1) cells lowered before each add. */
    public static CellRule stable(long decrements) {
        if (decrements < 1) {
            throw new IllegalArgumentException("a stable filter decrements at least 1 cell per add, not " + decrements);
        }
        return new CellRule(Kind.STABLE, 0, decrements);
    }

    /** A valued filter's rule: the largest value of a key wins if {@code max}, else the smallest. */
    public static CellRule valued(boolean max, int valueBits) {
        cellBitsFor(valueBits);
        return new CellRule(max ? Kind.MAX : Kind.MIN, valueBits, 0);
    }

    /**
     * The cell width of a valued filter of W value bits: the narrowest cell (2, 4, 8, 16 or 32 bits)
     * holding value + 1 for every W-bit value, so that 0 stays free to mean "empty".
     */
    public static int cellBitsFor(int valueBits) {
        if (valueBits < 1 || valueBits > MAX_VALUE_BITS) {
            throw new IllegalArgumentException("value bits must be 1 to " + MAX_VALUE_BITS + ", not " + valueBits);
        }
        int w = 2;
        while (w <= valueBits) {
            w <<= 1;
        }
        return w;
    }

    /** Whether this is the rule of versions 1 and 3: set a bit, or count. */
    public boolean isPlain() {
        return kind == Kind.PLAIN;
    }

    /** Whether cells hold values (max or min rule). */
    public boolean isValued() {
        return kind == Kind.MAX || kind == Kind.MIN;
    }

    /** How commands and messages name the kind of file: "stable", "valued (max)", "valued (min)". */
    public String label() {
        return switch (kind) {
            case PLAIN -> "plain";
            case STABLE -> "stable";
            case MAX -> "valued (max)";
            case MIN -> "valued (min)";
        };
    }
}
