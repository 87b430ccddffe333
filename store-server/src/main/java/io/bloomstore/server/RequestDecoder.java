package io.bloomstore.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ReferenceCountUtil;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a connection's requests from its bytes straight into each request's words, the
 * {@code byte[][]} that {@link CommandHandler} runs: an array of bulk strings (what every client
 * sends), or an inline line (what a person types into telnet: the line, trimmed, split at runs of
 * spaces and tabs, ended by {@code \n} with or without {@code \r}). As Redis does, a request that
 * does not begin with {@code *} is an inline one.
 *
 * <p>A request is bounded before anything is allocated for it: at most {@link #MAX_ARGS} words,
 * {@link #MAX_BULK} bytes each and {@link #MAX_REQUEST} bytes in all (each word counted with
 * {@link #ARG_OVERHEAD} more for its array), an inline line at most {@link #MAX_INLINE} bytes;
 * before AUTH, Redis's own bounds (10 words, 16 KiB each). Memory follows the bytes that arrive,
 * never the lengths announced: a word's buffer starts at most {@link #FIRST_STEP} bytes and doubles
 * as its bytes come, so a bulk length of 2^62, an array of a billion elements or a 1 GB key costs
 * nothing until sent, and is refused at its header. A request past a bound, or not RESP, is
 * answered with Redis's protocol error and the connection closed, as Redis does; what follows it
 * on the connection is dropped unread.
 *
 * <p>It also notes when the bytes of a request begin to arrive: the server's tick closes a
 * connection whose request has not arrived whole within the request timeout (a slow-loris client
 * holds a connection, and its partial request's memory, no longer than that).
 *
 * <p>Why not netty-codec-redis's decoder and aggregators: they make a message object, a slice and a
 * pipeline event per array header and per argument, and a copy afterwards; under pipelined
 * single-key commands that cost twice the Bloom filter's own work (docs/SERVER.md, "Measured").
 */
final class RequestDecoder extends ByteToMessageDecoder {
    /** Inline requests (a line typed into telnet) longer than this are refused, as Redis does. */
    static final int MAX_INLINE = 64 << 10;
    static final int MAX_ARGS = 1 << 20;
    static final long MAX_BULK = 64L << 20;
    static final long MAX_REQUEST = 128L << 20;
    static final int ARG_OVERHEAD = 48;
    /** The most a word's buffer takes before its bytes have arrived. */
    static final int FIRST_STEP = 64 << 10;
    private static final int UNAUTHENTICATED_ARGS = 10;
    private static final long UNAUTHENTICATED_BULK = 16 << 10;
    /** A length has at most this many digits: more would pass every bound anyway. */
    private static final int MAX_DIGITS = 18;
    private static final long INCOMPLETE = Long.MIN_VALUE;
    private static final long INVALID = Long.MIN_VALUE + 1;
    private static final byte[][] NONE = new byte[0][];

    private final Session session;
    /** The words so far and how many are still to come; words == null between requests. */
    private byte[][] words;
    private int count;
    private int remaining;
    private long bytes;
    /** The bulk string being read, null while its header is awaited: its bytes so far, and its length. */
    private byte[] bulk;
    private int bulkFilled;
    private int bulkLength;
    /** How far past the reader index an inline line was searched for its end without finding it. */
    private int lineSearched;
    /** Set once a request is refused: what follows it on the connection is dropped unread. */
    private boolean refused;

    RequestDecoder(Session session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (refused) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (session.requestStarted == 0) {
            session.requestStarted = System.nanoTime() | 1; // never 0, which means "between requests"
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        boolean progress = true;
        while (progress && in.isReadable()) {
            if (words == null) {
                progress = in.getByte(in.readerIndex()) == '*' ? arrayHeader(in, out) : inline(in, out);
            } else if (bulk == null) {
                progress = bulkHeader(in);
            } else {
                progress = bulkContent(in, out);
            }
        }
    }

    /** {@code *N\r\n}: begins a request of N words. False if its line has not arrived whole. */
    private boolean arrayHeader(ByteBuf in, List<Object> out) {
        long length = lengthLine(in);
        if (length == INCOMPLETE) {
            return false;
        }
        if (length == INVALID || length > (session.authenticated ? MAX_ARGS : UNAUTHENTICATED_ARGS)) {
            throw refuse("ERR Protocol error: invalid multibulk length");
        }
        if (length <= 0) {
            out.add(NONE); // an empty request: nothing to run, nothing to answer
        } else {
            words = new byte[(int) Math.min(length, 16)][]; // grows as the words arrive
            count = 0;
            remaining = (int) length;
            bytes = 0;
        }
        return true;
    }

    /** {@code $N\r\n}: begins the next word. False if its line has not arrived whole. */
    private boolean bulkHeader(ByteBuf in) {
        byte first = in.getByte(in.readerIndex());
        if (first != '$') {
            throw refuse("ERR Protocol error: expected '$', got '" + (char) (first & 0xFF) + "'");
        }
        long length = lengthLine(in);
        if (length == INCOMPLETE) {
            return false;
        }
        if (length != INVALID) {
            bytes += length + ARG_OVERHEAD;
        }
        if (length == INVALID || length < 0 || length > (session.authenticated ? MAX_BULK : UNAUTHENTICATED_BULK)
                || bytes > MAX_REQUEST) {
            throw refuse("ERR Protocol error: invalid bulk length");
        }
        bulkLength = (int) length;
        // the whole word and its CRLF already read (the common case): its buffer at its size at once
        bulk = new byte[in.readableBytes() >= bulkLength + 2 ? bulkLength : Math.min(bulkLength, FIRST_STEP)];
        bulkFilled = 0;
        return true;
    }

    /** The bytes of the word begun, then its CRLF. False if they have not all arrived. */
    private boolean bulkContent(ByteBuf in, List<Object> out) {
        int n = Math.min(bulkLength - bulkFilled, in.readableBytes());
        if (bulkFilled + n > bulk.length) {
            bulk = Arrays.copyOf(bulk, Math.max(Math.min(bulkLength, bulk.length * 2), bulkFilled + n));
        }
        in.readBytes(bulk, bulkFilled, n);
        bulkFilled += n;
        if (bulkFilled < bulkLength || in.readableBytes() < 2) {
            return false;
        }
        int at = in.readerIndex();
        if (in.getByte(at) != '\r' || in.getByte(at + 1) != '\n') {
            throw refuse("ERR Protocol error: a bulk string of " + bulkLength + " bytes is not followed by CRLF");
        }
        in.skipBytes(2);
        byte[] word = bulk;
        bulk = null;
        if (count == words.length) {
            words = Arrays.copyOf(words, Math.min(words.length * 2, count + remaining));
        }
        words[count++] = word;
        if (--remaining == 0) {
            out.add(words);
            words = null;
        }
        return true;
    }

    /**
     * The number of a length line ({@code *N\r\n} or {@code $N\r\n}) at the reader index, which it
     * then passes; {@link #INCOMPLETE} (nothing read) while the line has not arrived whole, or
     * {@link #INVALID} if it is no number: a sign, at most {@link #MAX_DIGITS} digits, CRLF.
     */
    private static long lengthLine(ByteBuf in) {
        int end = in.writerIndex();
        int i = in.readerIndex() + 1;
        boolean negative = i < end && in.getByte(i) == '-';
        if (negative) {
            i++;
        }
        int digitsFrom = i;
        long value = 0;
        for (; i < end; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                break;
            }
            if (i - digitsFrom == MAX_DIGITS) {
                return INVALID;
            }
            value = value * 10 + (b - '0');
        }
        if (i + 1 >= end) {
            return i < end && in.getByte(i) != '\r' ? INVALID : INCOMPLETE;
        }
        if (i == digitsFrom || in.getByte(i) != '\r' || in.getByte(i + 1) != '\n') {
            return INVALID;
        }
        in.readerIndex(i + 2);
        return negative ? -value : value;
    }

    /** An inline request: one line. False if its end has not arrived. */
    private boolean inline(ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        int lf = in.indexOf(start + lineSearched, in.writerIndex(), (byte) '\n');
        if (lf < 0) {
            lineSearched = in.readableBytes();
            // a line still without its end: refused once it is past the bound, whatever its CR
            if (lineSearched > MAX_INLINE + 1) {
                throw refuse("ERR Protocol error: too big inline request");
            }
            return false;
        }
        lineSearched = 0;
        int end = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        if (end - start > MAX_INLINE) {
            throw refuse("ERR Protocol error: too big inline request");
        }
        // String.trim's ends (every byte up to a space), and runs of spaces and tabs between words
        while (start < end && (in.getByte(start) & 0xFF) <= ' ') {
            start++;
        }
        while (end > start && (in.getByte(end - 1) & 0xFF) <= ' ') {
            end--;
        }
        byte[][] request = NONE;
        int n = 0;
        for (int i = start; i < end; ) {
            int wordEnd = i;
            while (wordEnd < end && !isBlank(in.getByte(wordEnd))) {
                wordEnd++;
            }
            if (n == request.length) {
                request = Arrays.copyOf(request, Math.max(4, n * 2));
            }
            byte[] word = new byte[wordEnd - i];
            in.getBytes(i, word);
            request[n++] = word;
            i = wordEnd;
            while (i < end && isBlank(in.getByte(i))) {
                i++;
            }
        }
        in.readerIndex(lf + 1);
        out.add(n == request.length ? request : Arrays.copyOf(request, n));
        return true;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t';
    }

    /** The bytes held for the request being read: its words so far, the word being read, and the bytes not yet read. */
    long heldBytes() {
        long held = (bulk == null ? 0 : bulk.length) + internalBuffer().readableBytes();
        for (int i = 0; words != null && i < count; i++) {
            held += words[i].length;
        }
        return held;
    }

    private ProtocolViolation refuse(String error) {
        refused = true;
        words = null;
        bulk = null;
        return new ProtocolViolation(error);
    }

    /** A request the server will not read: answered with its text, then the connection is closed. */
    static final class ProtocolViolation extends DecoderException {
        private static final long serialVersionUID = 1L;

        ProtocolViolation(String text) {
            super(text);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // a client's mistake, not the server's: no stack to record
        }
    }
}
