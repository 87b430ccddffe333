package io.bloomstore.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A raw RESP connection for tests that send what no client library would: bytes in, reply lines out. */
public final class Resp implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    public Resp(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
        socket.setSoTimeout(60_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    public static byte[] command(String... words) {
        StringBuilder text = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            text.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(word).append("\r\n");
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    public Resp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    public Resp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** One reply line (without its CRLF), or null at the end of the stream. */
    public String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1
                        : bytes.length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * One whole reply, nested aggregates included, as its lines joined by a space (a bulk string's
     * bytes are one line): {@code "*2 :0 :1"} for RESP's {@code *2\r\n:0\r\n:1\r\n}.
     *
     * @throws IOException if the stream ends inside the reply
     */
    public String reply() throws IOException {
        StringBuilder text = new StringBuilder();
        reply(text);
        return text.toString();
    }

    private void reply(StringBuilder text) throws IOException {
        String line = line();
        if (line == null || line.isEmpty()) {
            throw new IOException("the stream ended inside a reply" + (text.length() > 0 ? " after: " + text : ""));
        }
        text.append(text.length() > 0 ? " " : "").append(line);
        char type = line.charAt(0);
        long length = "*%~>$=!".indexOf(type) >= 0 ? Long.parseLong(line.substring(1)) : -1;
        switch (type) {
            case '*', '~', '>' -> {
                for (long i = 0; i < length; i++) {
                    reply(text);
                }
            }
            case '%' -> {
                for (long i = 0; i < 2 * length; i++) {
                    reply(text);
                }
            }
            case '$', '=', '!' -> {
                if (length >= 0) {
                    text.append(' ').append(line()); // bulk strings of these tests hold no line break
                }
            }
            default -> {
                // a line is the whole reply
            }
        }
    }

    /** A bulk string reply read whole, line breaks and all (INFO's text), or null for a nil one. */
    public String bulk() throws IOException {
        String header = line();
        if (header == null || !header.startsWith("$")) {
            throw new IOException("not a bulk string reply: " + header);
        }
        int length = Integer.parseInt(header.substring(1));
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length + 2);
        if (bytes.length < length + 2) {
            throw new IOException("the stream ended inside a bulk string of " + length + " bytes");
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    /** Whether the server closed the connection: the next read finds the end of the stream. */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (java.net.SocketException e) {
            return true; // reset: closed with our unread bytes still in its buffer
        }
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
