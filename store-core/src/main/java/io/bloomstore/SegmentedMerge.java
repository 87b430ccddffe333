package io.bloomstore;

import io.bloomstore.InvalidFilterFileException.Problem;
import io.bloomstore.internal.cells.CellArray;
import io.bloomstore.internal.files.FilterFiles;
import io.bloomstore.internal.format.ContainerDescriptor;
import io.bloomstore.internal.format.ContainerHeader;
import io.bloomstore.internal.format.FilterFileDescriptor;
import io.bloomstore.internal.format.FilterHeader;
import io.bloomstore.internal.format.FilterState;
import io.bloomstore.internal.segment.Rotation;
import io.bloomstore.internal.segment.Segment;
import io.bloomstore.internal.segment.SegmentedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.stream.LongStream;

/**
 * The OR of growing or of windowed files, region by region, into a new file: what
 * {@link Merge#toNewFile} does when its inputs are segmented (docs/FORMAT.md, "Merge"). Each
 * region of the result is written as a fixed filter's merge writes its cells.
 *
 * <p>Chains combine segment by segment, the result as long as the longest chain: a key sits in the
 * segment that was newest when it was added, so segment i of the result must hold segment i of
 * every input that has one, and nothing else keeps each key findable. Rings combine slot by slot at
 * the latest current epoch among the inputs: a slot holds one epoch's keys, and the same epoch
 * lies in the same slot of every ring with the same window and epochs, since epochs are numbered
 * from wall-clock time.
 */
final class SegmentedMerge {
    private SegmentedMerge() {
    }

    /**
     * @param inputs every input, open (the caller closes them), not all fixed
     * @see Merge#toNewFile
     */
    static FilterFileSummary toNewFile(Path out, List<MembershipFilter> inputs, MergeOp op, boolean replace,
            LongConsumer progress) throws IOException {
        FilterKind kind = inputs.get(0).kind();
        for (MembershipFilter input : inputs.subList(1, inputs.size())) {
            if (input.kind() != kind) {
                throw incompatible(inputs.get(0).path(), input.path(), "kind: " + kind + " vs " + input.kind());
            }
        }
        if (op == MergeOp.AND) {
            throw new InvalidFilterFileException(inputs.get(0).path(), Problem.INCOMPATIBLE, "AND is not defined for "
                    + kind + " filters: a key present in both inputs may sit in a different "
                    + (kind == FilterKind.GROWING ? "segment" : "epoch's slot")
                    + " of each, where a region by region AND would lose it; query both instead");
        }
        List<SegmentedFilter> sources = inputs.stream().map(SegmentedFilter.class::cast).toList();
        ContainerHeader first = sources.get(0).header;
        for (SegmentedFilter source : sources.subList(1, sources.size())) {
            var difference = first.differenceFrom(source.header);
            if (difference.isPresent()) {
                throw incompatible(sources.get(0).path(), source.path(), difference.get());
            }
        }
        Plan plan = plan(sources);
        long length = write(out, replace, first.withCreated(System.currentTimeMillis()), plan, op, progress);
        return new FilterFileSummary(kind, plan.epochs().length, length, Optional.empty());
    }

    /**
     * What goes into the result: its count word, and per region its epoch, its shape (the first
     * input's that has the region: a region's shape is checked against the sizing when its file
     * opens, and a file's sectorized regions may have the sizing of before) and the inputs whose
     * region i is ORed into it.
     */
    private record Plan(long count, long[] epochs, List<BloomSpec> specs, List<List<SegmentedFilter>> parts) {
    }

    /**
     * Growing: count = the longest chain's, region i = segment i of every input that has one.
     * Windowed: count = the latest current epoch T of the inputs; slot j holds x_j, the epoch of
     * T − L … T that is ≡ j (mod L + 1), and the OR of the inputs' slot j where it holds x_j. An
     * input's slot holding another epoch (older, so expired at T; or being cleared) is left out.
     */
    private static Plan plan(List<SegmentedFilter> sources) throws IOException {
        boolean growing = sources.get(0).header.isGrowing();
        long count = 0;
        for (SegmentedFilter source : sources) {
            count = Math.max(count, source.file.state().getCountVolatile());
        }
        int regions = growing ? (int) count : sources.get(0).header.tableCapacity();
        long[] epochs = new long[regions];
        List<BloomSpec> specs = new ArrayList<>();
        List<List<SegmentedFilter>> parts = new ArrayList<>();
        for (int i = 0; i < regions; i++) {
            epochs[i] = growing ? 0 : Rotation.epochOfSlot(i, count, regions);
            List<SegmentedFilter> part = new ArrayList<>();
            BloomSpec shape = null;
            Path shapeOf = null;
            for (SegmentedFilter source : sources) {
                Segment[] theirs = source.regions();
                if (i < theirs.length && shape == null) {
                    shape = theirs[i].spec();
                    shapeOf = source.path();
                }
                if (i < theirs.length && (growing || source.epochOf(i) == epochs[i])) {
                    Merge.requireCompatible(shapeOf, shape, source.path(), theirs[i].spec());
                    part.add(source);
                }
            }
            specs.add(shape);
            parts.add(part);
        }
        return new Plan(count, epochs, specs, parts);
    }

    /**
     * Writes the container page, then each region: its own header (a new creation time), its
     * approximate insertions the sum of its parts' (so a chain's newest segment is judged as full
     * as its inputs made it, and the next add grows), then the OR of its parts' cells, or zeros.
     *
     * @return the file's length
     * @throws IllegalStateException if a ring rotated while its slot was read (its cells
     *     may have been cleared under the reader); nothing is published
     */
    private static long write(Path out, boolean replace, ContainerHeader header, Plan plan, MergeOp op,
            LongConsumer progress) throws IOException {
        int regions = plan.epochs().length;
        List<BloomSpec> specs = plan.specs();
        long[] lengths = specs.stream().mapToLong(ContainerHeader::regionLength).toArray();
        long total = ContainerDescriptor.FIRST_REGION + LongStream.of(lengths).sum();
        FilterFiles.publish(out, replace, total, (channel, temporary) -> {
            FilterFiles.writeFully(channel, SegmentedFile.containerPage(header, plan.count(), lengths, plan.epochs()));
            long done = 0;
            for (int i = 0; i < regions; i++) {
                int region = i;
                BloomSpec spec = specs.get(i);
                List<SegmentedFilter> part = plan.parts().get(i);
                FilterHeader regionHeader = FilterHeader.unbound(spec, header.createdMillis(), false);
                if (part.isEmpty()) {
                    FilterFiles.writeEmptyFilter(channel, regionHeader);
                    done += spec.cellBytes();
                    continue;
                }
                List<Segment> segments = part.stream().map(source -> source.regions()[region]).toList();
                ByteBuffer page = ByteBuffer.allocate(FilterFileDescriptor.CELLS_START).order(ByteOrder.LITTLE_ENDIAN);
                page.put(regionHeader.encode());
                page.putLong(FilterFileDescriptor.APPROXIMATE_INSERTIONS_OFFSET,
                        segments.stream().mapToLong(Segment::publishedKeys).reduce(0, FilterState::saturatingSum));
                FilterFiles.writeFully(channel, page.clear());
                done = Merge.writeCombined(channel, segments.stream().map(Segment::cells).toList(), spec.counterBits(),
                        Merge.WordJoin.of(op), done, progress);
                for (SegmentedFilter source : part) {
                    if (!header.isGrowing() && source.epochOf(i) != plan.epochs()[i]) {
                        throw new IllegalStateException(source.path() + " rotated to a new epoch while it was being merged; "
                                + "merge again");
                    }
                }
            }
        });
        return total;
    }

    private static InvalidFilterFileException incompatible(Path first, Path other, String difference) {
        return new InvalidFilterFileException(other, Problem.INCOMPATIBLE, "cannot be combined with " + first
                + ": they differ in " + difference + "; only filters created with the same parameters combine");
    }
}
