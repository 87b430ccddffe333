package io.bloomstore.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Hands a stream to code that closes what it is given (Pack closes its output to end the LZ4
 * frame) when the stream must outlive it: stdout, or a channel its owner still forces to disk.
 * Closing it only flushes.
 */
final class UnclosableOutputStream extends FilterOutputStream {
    UnclosableOutputStream(OutputStream out) {
        super(out);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    @Override
    public void close() throws IOException {
        out.flush();
    }
}
