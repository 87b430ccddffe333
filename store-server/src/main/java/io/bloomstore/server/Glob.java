package io.bloomstore.server;

/** Redis's glob patterns (KEYS, SCAN MATCH, CONFIG GET): {@code * ? [abc] [^a-z] \x}, on bytes. */
final class Glob {
    private Glob() {
    }

    static boolean matches(byte[] pattern, byte[] text, boolean ignoreCase) {
        return match(pattern, 0, text, 0, ignoreCase, 0);
    }

    private static boolean match(byte[] p, int pi, byte[] s, int si, boolean nocase, int depth) {
        if (depth > 1000) {
            return false; // a pattern of thousands of stars: refuse rather than recurse without end
        }
        while (pi < p.length) {
            byte c = p[pi];
            switch (c) {
                case '*' -> {
                    while (pi + 1 < p.length && p[pi + 1] == '*') {
                        pi++;
                    }
                    if (pi + 1 == p.length) {
                        return true;
                    }
                    for (int k = si; k <= s.length; k++) {
                        if (match(p, pi + 1, s, k, nocase, depth + 1)) {
                            return true;
                        }
                    }
                    return false;
                }
                case '?' -> {
                    if (si >= s.length) {
                        return false;
                    }
                    si++;
                    pi++;
                }
                case '[' -> {
                    if (si >= s.length) {
                        return false;
                    }
                    pi++;
                    boolean not = pi < p.length && p[pi] == '^';
                    if (not) {
                        pi++;
                    }
                    boolean found = false;
                    while (pi < p.length && p[pi] != ']') {
                        if (p[pi] == '\\' && pi + 1 < p.length) {
                            pi++;
                            found |= same(p[pi], s[si], nocase);
                        } else if (pi + 2 < p.length && p[pi + 1] == '-') {
                            int lo = p[pi] & 0xFF;
                            int hi = p[pi + 2] & 0xFF;
                            if (lo > hi) {
                                int t = lo;
                                lo = hi;
                                hi = t;
                            }
                            int ch = s[si] & 0xFF;
                            if (nocase) {
                                ch = Character.toLowerCase(ch);
                                lo = Character.toLowerCase(lo);
                                hi = Character.toLowerCase(hi);
                            }
                            found |= ch >= lo && ch <= hi;
                            pi += 2;
                        } else {
                            found |= same(p[pi], s[si], nocase);
                        }
                        pi++;
                    }
                    if (found == not) {
                        return false;
                    }
                    pi++; // past ']'
                    si++;
                }
                case '\\' -> {
                    if (pi + 1 < p.length) {
                        pi++;
                    }
                    if (si >= s.length || !same(p[pi], s[si], nocase)) {
                        return false;
                    }
                    pi++;
                    si++;
                }
                default -> {
                    if (si >= s.length || !same(c, s[si], nocase)) {
                        return false;
                    }
                    pi++;
                    si++;
                }
            }
        }
        return si == s.length;
    }

    private static boolean same(byte a, byte b, boolean nocase) {
        return a == b || nocase && Character.toLowerCase(a & 0xFF) == Character.toLowerCase(b & 0xFF);
    }
}
