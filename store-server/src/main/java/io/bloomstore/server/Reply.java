package io.bloomstore.server;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Writes replies in the connection's protocol, RESP2 or RESP3 (chosen by HELLO): the encoder
 * at the end of the pipeline. The types RESP3 adds fall back to RESP2's as Redis does: a map is
 * an array of keys and values, a null a null bulk string, a double a bulk string.
 */
final class Reply {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] OK = "+OK\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL2 = "$-1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL3 = "_\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ZERO = ":0\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ONE = ":1\r\n".getBytes(StandardCharsets.US_ASCII);

    private ByteBuf out;
    private int protocol = 2;

    void target(ByteBuf buffer) {
        out = buffer;
    }

    ByteBuf buffer() {
        return out;
    }

    int protocol() {
        return protocol;
    }

    void protocol(int version) {
        protocol = version;
    }

    void ok() {
        out.writeBytes(OK);
    }

    void simple(String text) {
        out.writeByte('+');
        out.writeCharSequence(text, StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }

    void error(String text) {
        out.writeByte('-');
        // a line break inside an error would end it early and desynchronise the client
        out.writeCharSequence(text.replace('\r', ' ').replace('\n', ' '), StandardCharsets.UTF_8);
        out.writeBytes(CRLF);
    }

    void integer(long value) {
        if (value == 0) {
            out.writeBytes(ZERO);
        } else if (value == 1) {
            out.writeBytes(ONE);
        } else {
            out.writeByte(':');
            writeDecimal(value);
            out.writeBytes(CRLF);
        }
    }

    void bulk(byte[] value) {
        bulk(value, 0, value.length);
    }

    void bulk(byte[] value, int offset, int length) {
        header('$', length);
        out.writeBytes(value, offset, length);
        out.writeBytes(CRLF);
    }

    void bulk(String value) {
        bulk(value.getBytes(StandardCharsets.UTF_8));
    }

    void nullValue() {
        out.writeBytes(protocol == 3 ? NULL3 : NULL2);
    }

    /** A null array in RESP2 ({@code *-1}), a null in RESP3. */
    void nullArray() {
        if (protocol == 3) {
            out.writeBytes(NULL3);
        } else {
            out.writeCharSequence("*-1\r\n", StandardCharsets.US_ASCII);
        }
    }

    void array(int length) {
        header('*', length);
    }

    /** A map of {@code pairs} keys and values: RESP3's map, or a flat array of 2 x pairs in RESP2. */
    void map(int pairs) {
        header(protocol == 3 ? '%' : '*', protocol == 3 ? pairs : 2L * pairs);
    }

    /** A set: RESP3's set, an array in RESP2. */
    void set(int length) {
        header(protocol == 3 ? '~' : '*', length);
    }

    /** An aggregate's first line: its type byte and its length. */
    private void header(char type, long length) {
        out.writeByte(type);
        writeDecimal(length);
        out.writeBytes(CRLF);
    }

    void doubleValue(double value) {
        String text = Double.isNaN(value) ? "nan" : Double.isInfinite(value) ? (value > 0 ? "inf" : "-inf")
                : Double.toString(value);
        if (protocol == 3) {
            out.writeByte(',');
            out.writeCharSequence(text, StandardCharsets.US_ASCII);
            out.writeBytes(CRLF);
        } else {
            bulk(text);
        }
    }

    /** A verbatim text (INFO's): RESP3's verbatim string of format txt, a bulk string in RESP2. */
    void verbatim(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (protocol == 3) {
            header('=', bytes.length + 4);
            out.writeCharSequence("txt:", StandardCharsets.US_ASCII);
            out.writeBytes(bytes);
            out.writeBytes(CRLF);
        } else {
            bulk(bytes);
        }
    }

    private void writeDecimal(long value) {
        if (value >= 0 && value < 10) {
            out.writeByte('0' + (int) value);
        } else {
            out.writeCharSequence(Long.toString(value), StandardCharsets.US_ASCII);
        }
    }
}
