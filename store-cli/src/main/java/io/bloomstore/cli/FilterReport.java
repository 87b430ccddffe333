package io.bloomstore.cli;

import io.bloomstore.BloomSpec;
import io.bloomstore.FilterFileInfo;
import io.bloomstore.FilterShape;
import io.bloomstore.FillStats;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Everything {@code inspect} tells about a filter file: every header field, the mutable state, and
 * statistics from one scan of the cells. Its components are the JSON output's fields, in order;
 * values that do not exist are null (n and p of a filter sized by m and k, the file identity of a
 * version 1 file, the checksum of an unsealed filter, the key estimate of a full filter, whether a filter sized by m and k is past a
 * capacity it does not have, the cell rule of a plain filter).
 */
record FilterReport(
        String file,
        long fileBytes,
        String magic,
        int formatVersion,
        int headerBytes,
        String headerCrc32c,
        String fileIdentity,
        String layout,
        String hashAlgorithm,
        String seed,
        long cells,
        int counterBits,
        int hashes,
        Long expectedKeys,
        Double targetFpp,
        String created,
        long createdMillis,
        boolean sparse,
        long cellsOffset,
        long cellsBytes,
        long approximateInsertions,
        int openWriters,
        boolean sealed,
        String cellsChecksum,
        long setCells,
        double fillRatio,
        Double estimatedKeys,
        double currentFpp,
        Boolean pastCapacity,
        String parquetType,
        CellRuleReport cellRule) {

    /**
     * Reports on a fixed filter of {@code shape}, from its statistics {@code stats}; {@code cellRule}
     * null for a plain or counting filter.
     */
    static FilterReport of(Path file, FilterShape.Fixed shape, FillStats stats, boolean pastCapacity,
            CellRuleReport cellRule) {
        FilterFileInfo info = shape.info();
        BloomSpec spec = info.spec();
        OptionalLong checksum = shape.sealedChecksum();
        return new FilterReport(
                file.toString(),
                info.fileLength(), // the file opened: its length was checked against its header

                "BLOOMSTR",
                info.formatVersion(),
                info.headerLength(),
                String.format(Locale.ROOT, "0x%08x", info.headerCrc32c()),
                info.fileIdentity().isPresent() ? String.format(Locale.ROOT, "0x%016x", info.fileIdentity().getAsLong()) : null,
                Human.name(spec.layout()),
                spec.hashAlgorithm().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                Human.seed(spec.seed()),
                spec.cells(),
                spec.counterBits(),
                spec.hashes(),
                spec.expectedKeys() > 0 ? spec.expectedKeys() : null,
                spec.targetFpp() > 0 ? spec.targetFpp() : null,
                info.created().toString(),
                info.created().toEpochMilli(),
                info.sparse(),
                info.cellsOffset(),
                info.cellsLength(),
                stats.approximateInsertions(),
                shape.openWriters(),
                checksum.isPresent(),
                checksum.isPresent() ? String.format(Locale.ROOT, "0x%016x", checksum.getAsLong()) : null,
                stats.setCells(),
                stats.fillRatio(),
                Double.isFinite(stats.estimatedKeys()) ? stats.estimatedKeys() : null,
                stats.currentFpp(),
                spec.expectedKeys() > 0 && (cellRule == null || !"stable".equals(cellRule.rule())) ? pastCapacity : null,
                spec.parquetType() == null ? null : spec.parquetType().name(),
                cellRule);
    }
}
