package io.bloomstore.server;

import io.bloomstore.BloomierMap;
import io.bloomstore.FilterKind;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.MapShape;
import io.bloomstore.StoredFile;
import io.bloomstore.ValuedFilter;
import io.bloomstore.tools.FileForensics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * bloomstore's commands for files that hold a value per key (docs/CLI.md, "serve"):
 * {@code BS.ADDVALUE key item value} into a valued filter (the file keeps the larger or the
 * smaller value, by its rule), and {@code BS.GETVALUE key item} from a valued filter or a Bloomier
 * map: the value as an integer, or a null reply for an item the file does not hold.
 *
 * <p>A Bloomier map is not a filter, so the keyspace does not keep it open: each command on a map
 * opens it (a header read and a mapping, no scan) and closes it, so a map rebuilt behind the server
 * is read anew at once.
 */
final class ValueCommands {
    private final ServerState server;
    private final BloomCommands bloom;

    ValueCommands(ServerState server, BloomCommands bloom) {
        this.server = server;
        this.bloom = bloom;
    }

    /** BS.ADDVALUE key item value: 1 if a cell of the item changed, 0 if the file already read this value or a better one. */
    void addValue(byte[][] args, Reply out) throws RespError {
        Handle handle = server.keyspace.find(args[1]);
        if (handle == null) {
            throw new RespError("ERR no such key '" + Args.text(args[1]) + "': create a valued filter with 'bloomstore create "
                    + "FILE --values max|min --value-bits W --expected N --fpp P' in the served folder");
        }
        try {
            ValuedFilter valued = valuedOrRefuse(handle, args[1], "BS.ADDVALUE adds to valued filters");
            if (handle.filter.isReadOnly()) {
                throw new RespError("READONLY " + handle.path + " is read-only to the server");
            }
            Long value = Args.longOrNull(args[3]);
            if (value == null || value < 0 || value > valued.maxValue()) {
                throw new RespError("ERR value '" + Args.text(args[3]) + "' is not a whole number from 0 to " + valued.maxValue()
                        + " (the file's " + valued.valueBits() + " value bits)");
            }
            boolean changed = valued.put(args[2], value);
            bloom.afterAdds(handle, 1);
            out.integer(changed ? 1 : 0);
        } finally {
            handle.release();
        }
    }

    /** BS.GETVALUE key item: the item's value, or a null reply if the file does not hold it (or the key has no file). */
    void getValue(byte[][] args, Reply out) throws RespError {
        server.keysQueried.increment();
        Handle handle;
        try {
            handle = server.keyspace.find(args[1]);
        } catch (RespError notAFilter) {
            long value = mapValue(args[1], args[2], notAFilter);
            if (value == BloomierMap.ABSENT) {
                out.nullValue();
            } else {
                out.integer(value);
            }
            return;
        }
        if (handle == null) {
            out.nullValue();
            return;
        }
        try {
            OptionalLong value = valuedOrRefuse(handle, args[1], "BS.GETVALUE reads valued filters and Bloomier maps")
                    .get(args[2]);
            if (value.isPresent()) {
                out.integer(value.getAsLong());
            } else {
                out.nullValue();
            }
        } finally {
            handle.release();
        }
    }

    /**
     * The key's file as a Bloomier map, opened for {@code use} and closed; {@code notAFilter} (the
     * keyspace's refusal) is rethrown if the file is no map either.
     */
    static <T> T withMap(ServerState server, byte[] key, RespError notAFilter, MapUse<T> use) throws RespError {
        Path path = server.keyspace.path(key);
        if (!Files.isRegularFile(path)) {
            throw notAFilter;
        }
        try (StoredFile file = StoredFile.open(path)) {
            return file.<T, RespError>match(filter -> {
                throw notAFilter;
            }, valued -> {
                throw notAFilter;
            }, use::apply);
        } catch (NoSuchFileException e) {
            throw notAFilter;
        } catch (InvalidFilterFileException e) {
            // a map's damage is news; any other file keeps the refusal the keyspace gave it
            throw isMap(path) ? cannotOpen(path, e) : notAFilter;
        } catch (IOException e) {
            throw cannotOpen(path, e);
        }
    }

    /** Whether the file's first bytes say it is a Bloomier map, damaged or not. */
    private static boolean isMap(Path path) throws RespError {
        try {
            return FileForensics.kind(path) == FilterKind.MAP;
        } catch (IOException e) {
            throw cannotOpen(path, e);
        }
    }

    private static RespError cannotOpen(Path path, IOException e) {
        return new RespError("ERR cannot open " + path + ": " + e.getMessage());
    }

    /** BS.INFO of a Bloomier map: what its header says, as one JSON object; {@code notAFilter} if the key's file is no map. */
    static String mapInfo(ServerState server, byte[] key, RespError notAFilter) throws RespError {
        return withMap(server, key, notAFilter, map -> {
            MapShape shape = map.shape();
            return new Json().field("key", Args.text(key))
                    .field("file", map.path().toString()).field("kind", "map").field("fileBytes", shape.fileBytes())
                    .field("pairs", shape.pairs()).field("valueBits", shape.valueBits()).field("fingerprintBits", shape.fingerprintBits())
                    .field("absentKeyErrorRate", shape.absentKeyErrorRate()).field("slots", shape.slots())
                    .field("bitsPerKey", shape.bitsPerKey()).field("readOnly", true).toString();
        });
    }

    /** What a command does with a map. */
    interface MapUse<T> {
        T apply(BloomierMap map) throws RespError;
    }

    private long mapValue(byte[] key, byte[] item, RespError notAFilter) throws RespError {
        return withMap(server, key, notAFilter, map -> map.get(item));
    }

    /** The handle's values; a file without values is refused, saying what {@code command} takes. */
    private static ValuedFilter valuedOrRefuse(Handle handle, byte[] key, String command) throws RespError {
        if (handle.valued() == null) {
            throw new RespError("WRONGTYPE '" + Args.text(key) + "' holds no values (it is a " + handle.kindName()
                    + " filter); " + command);
        }
        return handle.valued();
    }
}
