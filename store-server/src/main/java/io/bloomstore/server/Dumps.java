package io.bloomstore.server;

import io.bloomstore.CreateOption;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.Pack;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * BF.SCANDUMP and BF.LOADCHUNK: a filter file shipped through any Redis client as chunks of
 * bloomstore's pack stream (docs/FORMAT.md, "Pack stream"). The dump is 8 bytes of the pack's
 * length (big-endian) and the pack; each chunk's iterator is the dump's length up to the chunk's
 * end, so LOADCHUNK knows where each chunk goes and when the last has come. The pack is written
 * to a hidden file in the served folder when SCANDUMP starts (iterator 0), and served from it;
 * LOADCHUNK gathers the chunks in another and restores the file from it, atomically, when whole.
 * A transfer belongs to its connection: it ends with the connection.
 */
final class Dumps {
    static final int CHUNK = 1 << 20;
    private static final String BAD_DATA = "ERR received bad data";

    /** One transfer in progress: its key's file name, the hidden file, the bytes so far and in all. */
    static final class Transfer {
        final String fileName;
        final Path temp;
        final boolean loading;
        long done;
        long total;

        Transfer(String fileName, Path temp, boolean loading) {
            this.fileName = fileName;
            this.temp = temp;
            this.loading = loading;
        }
    }

    private final ServerState server;
    private final Session session;

    Dumps(ServerState server, Session session) {
        this.server = server;
        this.session = session;
    }

    /** BF.SCANDUMP key iterator: [next iterator, chunk]; [0, ""] once done. */
    void scanDump(byte[][] args, Reply out) throws RespError, IOException {
        Long iterator = Args.longOrNull(args[2]);
        if (iterator == null || iterator < 0) {
            throw new RespError("Second argument must be numeric");
        }
        String name = KeyNames.fileName(args[1]);
        if (iterator == 0) {
            Handle handle = server.keyspace.find(args[1]);
            if (handle == null) {
                throw new RespError("ERR not found");
            }
            handle.release();
            abandon();
            Transfer transfer = new Transfer(name, hiddenFile("scandump"), false);
            session.transfer = transfer;
            try (OutputStream pack = new BufferedOutputStream(Files.newOutputStream(transfer.temp), 1 << 16)) {
                pack.write(new byte[8]); // the length, filled in below
                Pack.pack(server.keyspace.dir().resolve(name), pack); // closes it when whole
            } catch (IOException | RuntimeException e) {
                abandon();
                throw new RespError("ERR cannot dump " + Args.text(args[1]) + ": " + e.getMessage());
            }
            transfer.total = Files.size(transfer.temp);
            try (FileChannel channel = FileChannel.open(transfer.temp, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate(8).putLong(0, transfer.total - 8), 0);
            }
        }
        Transfer transfer = session.transfer;
        if (transfer == null || transfer.loading || !transfer.fileName.equals(name) || iterator != transfer.done) {
            throw new RespError("ERR no dump of this key at iterator " + iterator
                    + " on this connection: start with iterator 0 and pass each reply's iterator on");
        }
        if (transfer.done == transfer.total) {
            abandon();
            out.array(2);
            out.integer(0);
            out.bulk(new byte[0]);
            return;
        }
        int length = (int) Math.min(CHUNK, transfer.total - transfer.done);
        ByteBuffer chunk = ByteBuffer.allocate(length);
        try (FileChannel channel = FileChannel.open(transfer.temp, StandardOpenOption.READ)) {
            while (chunk.hasRemaining()) {
                if (channel.read(chunk, transfer.done + chunk.position()) < 0) {
                    throw new IOException("the dump file ended early");
                }
            }
        }
        transfer.done += length;
        out.array(2);
        out.integer(transfer.done);
        out.bulk(chunk.array());
    }

    /** BF.LOADCHUNK key iterator data: appends a chunk; restores the file when the last one is in. */
    void loadChunk(byte[][] args, Reply out) throws RespError, IOException {
        Long iterator = Args.longOrNull(args[2]);
        byte[] data = args[3];
        if (iterator == null || iterator < data.length) {
            throw new RespError(BAD_DATA);
        }
        String name = KeyNames.fileName(args[1]);
        long offset = iterator - data.length;
        if (offset == 0) {
            if (data.length < 8) {
                throw new RespError(BAD_DATA);
            }
            abandon();
            Transfer transfer = new Transfer(name, hiddenFile("loadchunk"), true);
            transfer.total = 8 + ByteBuffer.wrap(data, 0, 8).getLong();
            if (transfer.total < 8) {
                throw new RespError(BAD_DATA);
            }
            session.transfer = transfer;
        }
        Transfer transfer = session.transfer;
        if (transfer == null || !transfer.loading || !transfer.fileName.equals(name) || offset != transfer.done
                || iterator > transfer.total) {
            throw new RespError(BAD_DATA);
        }
        Files.write(transfer.temp, offset == 0 ? Arrays.copyOfRange(data, 8, data.length) : data,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        transfer.done = iterator;
        if (transfer.done == transfer.total) {
            Path target = server.keyspace.dir().resolve(name);
            try (InputStream in = Files.newInputStream(transfer.temp)) {
                Pack.unpack(in, "BF.LOADCHUNK " + Args.text(args[1]), target, CreateOption.REPLACE_EXISTING);
            } catch (InvalidFilterFileException e) {
                throw new RespError(BAD_DATA + ": " + e.getMessage());
            } finally {
                abandon();
            }
            server.keyspace.forget(args[1]);
        }
        out.ok();
    }

    private Path hiddenFile(String what) throws IOException {
        return Files.createTempFile(server.keyspace.dir(), "." + what + "-" + session.id + "-", ".tmp");
    }

    /** Drops the connection's transfer, if any, and its hidden file. */
    void abandon() {
        Transfer transfer = session.transfer;
        session.transfer = null;
        if (transfer != null) {
            try {
                Files.deleteIfExists(transfer.temp);
            } catch (IOException e) {
                System.err.println("bloomstore serve: cannot delete " + transfer.temp + ": " + e.getMessage());
            }
        }
    }
}
