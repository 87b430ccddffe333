package io.bloomstore.server;

import java.nio.charset.StandardCharsets;

/** Reads a request's words as numbers and options, with Redis's error texts. */
final class Args {
    private Args() {
    }

    static String text(byte[] word) {
        return new String(word, StandardCharsets.UTF_8);
    }

    static boolean is(byte[] word, String upperAscii) {
        if (word.length != upperAscii.length()) {
            return false;
        }
        for (int i = 0; i < word.length; i++) {
            int b = word[i] & 0xFF;
            if ((b >= 'a' && b <= 'z' ? b - 32 : b) != upperAscii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** A whole number, or null if the word is not one (Redis's strict reading: no sign but '-', no spaces). */
    static Long longOrNull(byte[] word) {
        if (word.length == 0 || word.length > 20) {
            return null;
        }
        try {
            String text = text(word);
            if (text.startsWith("+") || (text.length() > 1 && text.startsWith("0")) || text.startsWith("-0")) {
                return null;
            }
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static long integer(byte[] word) throws RespError {
        Long value = longOrNull(word);
        if (value == null) {
            throw RespError.notInteger();
        }
        return value;
    }

    /** A finite decimal number, or NaN if the word is not one. */
    static double decimal(byte[] word) {
        if (word.length == 0 || word.length > 64) {
            return Double.NaN;
        }
        try {
            double value = Double.parseDouble(text(word));
            return Double.isFinite(value) ? value : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
