package io.bloomstore.server;

import io.bloomstore.BloomFilter;
import io.bloomstore.BloomSpec;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.FilterShape;
import io.bloomstore.FillStats;
import io.bloomstore.GrowingBloomFilter;
import io.bloomstore.GrowingSpec;
import io.bloomstore.InvalidFilterFileException;
import io.bloomstore.MembershipFilter;
import io.bloomstore.Merge;
import io.bloomstore.MergeOp;
import io.bloomstore.RegionStats;
import io.bloomstore.SetEstimates;
import io.bloomstore.WindowSpec;
import io.bloomstore.WindowedBloomFilter;
import io.bloomstore.tools.Display;
import java.time.Duration;
import java.util.Locale;

/**
 * RedisBloom's {@code BF.*} commands, with its syntax, replies and error texts, over bloomstore
 * files: a scaling filter is a {@link GrowingBloomFilter} (EXPANSION is its growth factor), a
 * NONSCALING one a fixed {@link BloomFilter}; and bloomstore's own {@code BS.*} commands.
 */
final class BloomCommands {
    private static final String FULL = "ERR non scaling filter is full";
    private static final String NOT_FOUND = "ERR not found";

    private final ServerState server;
    /** How BF.ADD and BF.MADD create a missing filter: made once, not per command. */
    private final Keyspace.Creator autoCreate;
    private final Keyspace.Recent recent = new Keyspace.Recent();

    BloomCommands(ServerState server) {
        this.server = server;
        this.autoCreate = defaults().creator();
    }

    /** What a filter is created with: RedisBloom's options. */
    private record Shape(long capacity, double error, int expansion, boolean nonScaling) {
        Keyspace.Creator creator() {
            if (nonScaling) {
                return path -> BloomFilter.create(path, BloomSpec.forExpected(capacity, error));
            }
            return path -> GrowingBloomFilter.create(path, GrowingSpec.of(capacity, error).withGrowthFactor(expansion));
        }
    }

    private Shape defaults() {
        return new Shape(server.options.defaultCapacity(), server.options.defaultError(), 2, false);
    }

    void add(byte[][] args, Reply out) throws RespError {
        Handle handle = server.keyspace.findOrCreate(args[1], autoCreate, recent);
        try {
            boolean added = addOne(handle, args[2]);
            afterAdds(handle, 1);
            out.integer(added ? 1 : 0);
        } finally {
            handle.release();
        }
    }

    void madd(byte[][] args, Reply out) throws RespError {
        Handle handle = server.keyspace.findOrCreate(args[1], autoCreate, recent);
        try {
            addAll(handle, args, 2, out);
        } finally {
            handle.release();
        }
    }

    /** Adds args[from..]; as RedisBloom, an error (a full filter) ends the reply's array after the items added. */
    private void addAll(Handle handle, byte[][] args, int from, Reply out) throws RespError {
        int count = args.length - from;
        byte[] results = new byte[count];
        String error = null;
        int done = 0;
        for (; done < count; done++) {
            try {
                results[done] = (byte) (addOne(handle, args[from + done]) ? 1 : 0);
            } catch (RespError e) {
                error = e.getMessage();
                break;
            }
        }
        afterAdds(handle, done);
        out.array(done + (error == null ? 0 : 1));
        for (int i = 0; i < done; i++) {
            out.integer(results[i]);
        }
        if (error != null) {
            out.error(error);
        }
    }

    private boolean addOne(Handle handle, byte[] item) throws RespError {
        if (handle.filter.isReadOnly()) {
            throw new RespError("READONLY " + handle.path + " is read-only to the server");
        }
        if (handle.valued() != null) {
            throw new RespError("WRONGTYPE '" + handle.id + "' is a valued filter, which holds a value per item: add with "
                    + "BS.ADDVALUE key item value");
        }
        BloomFilter fixed = handle.fixed();
        if (handle.fills() && fixed.approximateKeys() >= fixed.spec().expectedKeys()
                && !handle.mightContain(item)) {
            throw new RespError(FULL);
        }
        return handle.add(item);
    }

    void afterAdds(Handle handle, int count) throws RespError {
        if (count == 0) {
            return;
        }
        server.keysAdded.add(count);
        switch (server.options.sync()) {
            case ALWAYS -> {
                Keyspace.syncNow(handle);
                server.syncs.increment();
            }
            case EVERYSEC -> handle.markDirty();
            case NO -> {
            }
        }
    }

    void exists(byte[][] args, Reply out) throws RespError {
        server.keysQueried.increment();
        Handle handle = server.keyspace.find(args[1], recent);
        if (handle == null) {
            out.integer(0);
            return;
        }
        try {
            out.integer(handle.mightContain(args[2]) ? 1 : 0);
        } finally {
            handle.release();
        }
    }

    void mexists(byte[][] args, Reply out) throws RespError {
        int count = args.length - 2;
        server.keysQueried.add(count);
        Handle handle = server.keyspace.find(args[1], recent);
        out.array(count);
        if (handle == null) {
            for (int i = 0; i < count; i++) {
                out.integer(0);
            }
            return;
        }
        try {
            for (int i = 0; i < count; i++) {
                out.integer(handle.mightContain(args[2 + i]) ? 1 : 0);
            }
        } finally {
            handle.release();
        }
    }

    /** BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING] */
    void reserve(byte[][] args, Reply out) throws RespError {
        double error = Args.decimal(args[2]);
        if (Double.isNaN(error)) {
            throw new RespError("ERR bad error rate");
        }
        if (!(error > 0 && error < 1)) {
            throw new RespError("ERR (0 < error rate range < 1) ");
        }
        Long capacity = Args.longOrNull(args[3]);
        if (capacity == null) {
            throw new RespError("ERR bad capacity");
        }
        if (capacity <= 0) {
            throw new RespError("ERR (capacity should be larger than 0)");
        }
        int expansion = 2;
        boolean expansionGiven = false;
        boolean nonScaling = false;
        for (int i = 4; i < args.length; i++) {
            if (Args.is(args[i], "EXPANSION")) {
                if (i + 1 >= args.length) {
                    throw new RespError("ERR no expansion");
                }
                Long value = Args.longOrNull(args[++i]);
                if (value == null) {
                    throw new RespError("ERR bad expansion");
                }
                expansion = expansion(value);
                expansionGiven = true;
            } else if (Args.is(args[i], "NONSCALING")) {
                nonScaling = true;
            } else {
                throw RespError.syntax();
            }
        }
        if (nonScaling && expansionGiven) {
            throw new RespError("Nonscaling filters cannot expand");
        }
        server.keyspace.create(args[1], new Shape(capacity, error, expansion, nonScaling).creator()).release();
        out.ok();
    }

    private static int expansion(long value) throws RespError {
        if (value < 1 || value > 16) {
            throw new RespError("ERR expansion must be from 1 to 16 (a growing bloomstore file's growth factor)");
        }
        return (int) value;
    }

    /** BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION x] [NOCREATE] [NONSCALING] ITEMS item... */
    void insert(byte[][] args, Reply out) throws RespError {
        Shape shape = defaults();
        long capacity = shape.capacity();
        double error = shape.error();
        int expansion = shape.expansion();
        boolean noCreate = false;
        boolean nonScaling = false;
        int items = -1;
        for (int i = 2; i < args.length && items < 0; i++) {
            if (Args.is(args[i], "ITEMS")) {
                items = i + 1;
            } else if (Args.is(args[i], "NOCREATE")) {
                noCreate = true;
            } else if (Args.is(args[i], "NONSCALING")) {
                nonScaling = true;
            } else if (Args.is(args[i], "CAPACITY") || Args.is(args[i], "ERROR") || Args.is(args[i], "EXPANSION")) {
                if (i + 1 >= args.length) {
                    throw RespError.wrongArity("bf.insert");
                }
                byte[] value = args[++i];
                if (Args.is(args[i - 1], "ERROR")) {
                    error = Args.decimal(value);
                    if (!(error > 0 && error < 1)) {
                        throw new RespError("Bad argument received");
                    }
                } else {
                    Long number = Args.longOrNull(value);
                    if (number == null || number < 1) {
                        throw new RespError("Bad argument received");
                    }
                    if (Args.is(args[i - 1], "CAPACITY")) {
                        capacity = number;
                    } else {
                        expansion = expansion(number);
                    }
                }
            } else {
                throw new RespError("Unknown argument received");
            }
        }
        if (items < 0 || items >= args.length) {
            throw RespError.wrongArity("bf.insert");
        }
        Handle handle;
        if (noCreate) {
            handle = server.keyspace.find(args[1], recent);
            if (handle == null) {
                throw new RespError(NOT_FOUND);
            }
        } else {
            handle = server.keyspace.findOrCreate(args[1], new Shape(capacity, error, expansion, nonScaling).creator(), recent);
        }
        try {
            addAll(handle, args, items, out);
        } finally {
            handle.release();
        }
    }

    private Handle existing(byte[] key) throws RespError {
        Handle handle = server.keyspace.find(key);
        if (handle == null) {
            throw new RespError(NOT_FOUND);
        }
        return handle;
    }

    /** BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION] */
    void info(byte[][] args, Reply out) throws RespError {
        if (args.length > 3) {
            throw RespError.wrongArity("bf.info");
        }
        String field = args.length == 3 ? CommandTable.lower(args[2]) : null;
        if (field != null && !(field.equals("capacity") || field.equals("size") || field.equals("filters")
                || field.equals("items") || field.equals("expansion"))) {
            throw new RespError("Invalid information value");
        }
        Handle handle = existing(args[1]);
        try {
            Figures figures = Figures.of(handle);
            if (field == null) {
                out.array(10);
                out.simple("Capacity");
                out.integer(figures.capacity);
                out.simple("Size");
                out.integer(figures.bytes);
                out.simple("Number of filters");
                out.integer(figures.filters);
                out.simple("Number of items inserted");
                out.integer(figures.items);
                out.simple("Expansion rate");
                expansion(figures, out);
                return;
            }
            out.array(1); // RedisBloom 2.4 answers one field as an array of one, in RESP2 and RESP3
            switch (field) {
                case "capacity" -> out.integer(figures.capacity);
                case "size" -> out.integer(figures.bytes);
                case "filters" -> out.integer(figures.filters);
                case "items" -> out.integer(figures.items);
                default -> expansion(figures, out);
            }
        } finally {
            handle.release();
        }
    }

    private static void expansion(Figures figures, Reply out) {
        if (figures.expansion == null) {
            out.nullValue();
        } else {
            out.integer(figures.expansion);
        }
    }

    void card(byte[][] args, Reply out) throws RespError {
        Handle handle = server.keyspace.find(args[1]);
        if (handle == null) {
            out.integer(0);
            return;
        }
        try {
            out.integer(Figures.of(handle).items);
        } finally {
            handle.release();
        }
    }

    /** BF.INFO's figures of a file of any kind. */
    private record Figures(long capacity, long bytes, long filters, long items, Long expansion) {
        static Figures of(Handle handle) {
            MembershipFilter filter = handle.filter;
            return filter.shape().map(
                    fixed -> new Figures(fixed.expectedKeys(), fixed.fileBytes(), 1, filter.approximateKeys(), null),
                    growing -> {
                        FillStats stats = filter.stats();
                        long capacity = stats.parts().stream().filter(RegionStats::probed)
                                .mapToLong(RegionStats::capacity).sum();
                        return new Figures(capacity, growing.fileBytes(), stats.parts().size(),
                                stats.approximateInsertions(), Math.round(growing.spec().growthFactor()));
                    },
                    windowed -> {
                        FillStats stats = filter.stats();
                        return new Figures(windowed.expectedKeys(), windowed.fileBytes(), stats.parts().size(),
                                stats.approximateInsertions(), null);
                    });
        }
    }

    /** BS.RESERVEWINDOW key error_rate capacity duration [EPOCHS L]: a windowed filter (keys forgotten after the window). */
    void reserveWindow(byte[][] args, Reply out) throws RespError {
        double error = Args.decimal(args[2]);
        if (!(error > 0 && error < 1)) {
            throw new RespError("ERR (0 < error rate range < 1) ");
        }
        Long capacity = Args.longOrNull(args[3]);
        if (capacity == null || capacity <= 0) {
            throw new RespError("ERR (capacity should be larger than 0)");
        }
        Duration window = duration(Args.text(args[4]));
        int epochs = WindowSpec.DEFAULT_EPOCHS;
        for (int i = 5; i < args.length; i++) {
            if (Args.is(args[i], "EPOCHS") && i + 1 < args.length) {
                long value = Args.integer(args[++i]);
                if (value < 1 || value > 64) {
                    throw new RespError("ERR EPOCHS must be from 1 to 64");
                }
                epochs = (int) value;
            } else {
                throw RespError.syntax();
            }
        }
        WindowSpec spec = WindowSpec.of(capacity, error, window).withEpochs(epochs);
        server.keyspace.create(args[1], path -> WindowedBloomFilter.create(path, spec, server.keyspace.clock()))
                .release();
        out.ok();
    }

    /** A duration: a whole number with a unit, ms, s, m, h or d (plain seconds without one). */
    static Duration duration(String text) throws RespError {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int digits = 0;
        while (digits < t.length() && Character.isDigit(t.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 12) {
            throw new RespError("ERR bad duration '" + text + "': give a whole number with ms, s, m, h or d, e.g. 10m");
        }
        long n = Long.parseLong(t.substring(0, digits));
        Duration d = switch (t.substring(digits)) {
            case "ms" -> Duration.ofMillis(n);
            case "", "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> null;
        };
        if (d == null || d.isZero()) {
            throw new RespError("ERR bad duration '" + text + "': give a whole number with ms, s, m, h or d, e.g. 10m");
        }
        return d;
    }

    /** BS.INFO key: what the file's header and a scan of its cells say, as one JSON object. */
    void bsInfo(byte[][] args, Reply out) throws RespError {
        Handle handle;
        try {
            handle = existing(args[1]);
        } catch (RespError notAFilter) {
            out.bulk(ValueCommands.mapInfo(server, args[1], notAFilter));
            return;
        }
        try {
            Json json = new Json().field("key", Args.text(args[1])).field("file", handle.path.toString());
            MembershipFilter filter = handle.filter;
            FilterShape shape = filter.shape();
            FillStats stats = filter.stats();
            json.field("kind", shape.kind().toString());
            shape.map(fixed -> {
                FilterFileInfo info = fixed.info();
                json.field("formatVersion", info.formatVersion()).field("fileBytes", info.fileLength())
                        .field("created", info.created().toString()).field("sparse", info.sparse())
                        .field("sealed", fixed.sealed()).field("readOnly", filter.isReadOnly());
                spec(json, fixed.spec());
                cellRule(json, handle, fixed.spec());
                return json.field("cellsSet", stats.setCells()).field("fillRatio", stats.fillRatio())
                        .field("estimatedKeys", stats.estimatedKeys()).field("currentFpp", stats.currentFpp())
                        .field("approximateInsertions", filter.approximateKeys())
                        .field("pastCapacity", filter.isPastCapacity());
            }, growing -> {
                GrowingSpec spec = growing.spec();
                ofRegions(json, filter, growing, stats).field("expectedKeys", spec.expectedKeys()).field("growthFactor", spec.growthFactor())
                        .field("tighteningRatio", spec.tighteningRatio()).field("maxBytes", spec.maxBytes())
                        .field("layout", spec.layout().toString()).field("seed", Display.seedText(spec.seed()));
                filter.growthRefusal().ifPresent(refusal -> json.field("growthRefused", refusal));
                return parts(json, "segments", stats);
            }, windowed -> {
                WindowSpec spec = windowed.spec();
                ofRegions(json, filter, windowed, stats).field("expectedKeys", spec.expectedKeys()).field("windowMillis", spec.window().toMillis())
                        .field("epochs", spec.epochs()).field("currentEpoch", windowed.currentEpoch())
                        .field("layout", spec.layout().toString()).field("seed", Display.seedText(spec.seed()));
                return parts(json, "slots", stats);
            });
            out.bulk(json.toString());
        } finally {
            handle.release();
        }
    }

    /**
     * A fixed file's cell rule (docs/FORMAT.md, "Cell rules"): "plain", "stable" with its model,
     * or "max"/"min" with its value bits.
     */
    private static void cellRule(Json json, Handle handle, BloomSpec spec) {
        if (handle.valued() != null) {
            json.field("cellRule", handle.valued().keepsMax() ? "max" : "min").field("valueBits", handle.valued().valueBits());
            return;
        }
        handle.fixed().stableSpec().ifPresentOrElse(stable -> json.field("cellRule", "stable")
                        .field("decrements", stable.decrements()).field("stableFpp", stable.stableFpp())
                        .field("expectedLifetime", stable.expectedLifetime()),
                () -> json.field("cellRule", spec.counterBits() == 1 ? "plain" : "counting"));
    }

    /** What a growing and a windowed file both tell, before their own fields. */
    private static Json ofRegions(Json json, MembershipFilter filter, FilterShape shape, FillStats stats) {
        return json.field("fileBytes", shape.fileBytes()).field("readOnly", filter.isReadOnly())
                .field("targetFpp", shape.targetFpp()).field("compoundFpp", stats.currentFpp());
    }

    /** Each segment's or slot's figures, as the array {@code name} of {@code json}. */
    private static Json parts(Json json, String name, FillStats stats) {
        Json parts = new Json();
        for (RegionStats part : stats.parts()) {
            parts.element(new Json().field("index", part.index()).field("epoch", part.epoch())
                    .field("probed", part.probed()).field("cells", part.cells()).field("hashes", part.hashes())
                    .field("capacity", part.capacity()).field("publishedKeys", part.publishedKeys())
                    .field("cellsSet", part.setCells()).field("fillRatio", part.fillRatio())
                    .field("estimatedKeys", part.estimatedKeys()).field("targetFpp", part.targetFpp())
                    .field("currentFpp", part.currentFpp()));
        }
        return json.array(name, parts);
    }

    private static void spec(Json json, BloomSpec spec) {
        json.field("cells", spec.cells()).field("hashes", spec.hashes()).field("counterBits", spec.counterBits())
                .field("layout", spec.layout().toString()).field("hashAlgorithm", spec.hashAlgorithm().toString())
                .field("seed", Display.seedText(spec.seed())).field("expectedKeys", spec.expectedKeys())
                .field("targetFpp", spec.targetFpp());
    }

    /** BS.ESTIMATE a b: the sizes of two fixed filters of one shape, their union, intersection and Jaccard index. */
    void estimate(byte[][] args, Reply out) throws RespError {
        Handle a = existing(args[1]);
        try {
            Handle b = existing(args[2]);
            try {
                if (a.fixed() == null || b.fixed() == null) {
                    throw new RespError("ERR BS.ESTIMATE compares two fixed (NONSCALING) filters of one shape");
                }
                SetEstimates e = SetEstimates.of(a.fixed(), b.fixed());
                out.map(5);
                out.bulk("sizeA");
                out.doubleValue(e.sizeA());
                out.bulk("sizeB");
                out.doubleValue(e.sizeB());
                out.bulk("union");
                out.doubleValue(e.union());
                out.bulk("intersection");
                out.doubleValue(e.intersection());
                out.bulk("jaccard");
                out.doubleValue(e.jaccard());
            } finally {
                b.release();
            }
        } catch (InvalidFilterFileException e) {
            throw new RespError("ERR " + e.getMessage());
        } finally {
            a.release();
        }
    }

    /** BS.MERGE dest src [src ...]: ORs each source into dest, in place, live (fixed filters of one shape). */
    void merge(byte[][] args, Reply out) throws RespError {
        Handle target = existing(args[1]);
        try {
            if (target.fixed() == null) {
                throw new RespError("ERR BS.MERGE merges into a fixed (NONSCALING) filter; "
                        + Args.text(args[1]) + " is not one");
            }
            for (int i = 2; i < args.length; i++) {
                Handle source = existing(args[i]);
                try {
                    if (source.fixed() == null) {
                        throw new RespError("ERR BS.MERGE merges fixed (NONSCALING) filters of one shape; "
                                + Args.text(args[i]) + " is not one");
                    }
                    Merge.inPlace(target.fixed(), source.fixed(), MergeOp.OR, null);
                } catch (InvalidFilterFileException e) {
                    throw new RespError("ERR " + e.getMessage());
                } finally {
                    source.release();
                }
            }
            afterAdds(target, 1);
            out.ok();
        } finally {
            target.release();
        }
    }
}
