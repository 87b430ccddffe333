package io.bloomstore.bench.macro;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a macro run cost in memory, read at its end: the Java heap's peak use (sum of the heap
 * pools' peaks, an upper bound of the true peak) and, from {@code /proc/self/status}, the peak
 * resident set (VmHWM) and its anonymous and file-backed parts. A mapped filter's pages count as
 * RssFile: page cache the kernel can drop and reread, not heap.
 */
final class ProcessMemory {
    private static final long MIB = 1 << 20;

    private ProcessMemory() {
    }

    /** Values in MiB, keyed heapPeakMiB, heapMaxMiB, vmHwmMiB, rssAnonMiB, rssFileMiB. */
    static Map<String, Long> snapshot() {
        Map<String, Long> values = new LinkedHashMap<>();
        long heapPeak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                heapPeak += pool.getPeakUsage().getUsed();
            }
        }
        values.put("heapPeakMiB", heapPeak / MIB);
        values.put("heapMaxMiB", Runtime.getRuntime().maxMemory() / MIB);
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                putKib(values, line, "VmHWM:", "vmHwmMiB");
                putKib(values, line, "RssAnon:", "rssAnonMiB");
                putKib(values, line, "RssFile:", "rssFileMiB");
            }
        } catch (IOException e) {
            // Not Linux: heap figures only.
        }
        return values;
    }

    private static void putKib(Map<String, Long> values, String line, String field, String key) {
        if (line.startsWith(field)) {
            String number = line.substring(field.length()).trim().split("\\s+")[0];
            values.put(key, Long.parseLong(number) / 1024);
        }
    }
}
