package io.rdmascope.gui;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time of every live thread of this JVM by thread id and name, and each collector's count and
 * time, at one instant; {@link #since} gives what was spent between two of them. For
 * {@link LoadTiming}: where a load's CPU goes. The JVM's own threads (GC workers, JIT compilers) are
 * not Java threads, and a thread that has ended is no longer listed: both show only as the process's
 * total less the listed threads' sum.
 */
record CpuAccount(Map<Long, String> names, Map<Long, Long> cpuNanos, Map<String, long[]> collectors, long processNanos) {

    static CpuAccount now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, String> names = new LinkedHashMap<>();
        Map<Long, Long> cpu = new LinkedHashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long t = threads.getThreadCpuTime(info.getThreadId());
            if (t >= 0) {
                names.put(info.getThreadId(), info.getThreadName());
                cpu.put(info.getThreadId(), t);
            }
        }
        Map<String, long[]> gc = new LinkedHashMap<>();
        for (GarbageCollectorMXBean c : ManagementFactory.getGarbageCollectorMXBeans()) {
            gc.put(c.getName(), new long[] {c.getCollectionCount(), c.getCollectionTime()});
        }
        long process = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
        return new CpuAccount(names, cpu, gc, process);
    }

    /** What each thread and collector spent from {@code before} to this instant, largest first, as text lines. */
    String since(CpuAccount before) {
        StringBuilder out = new StringBuilder();
        long threadsTotal = 0;
        List<Map.Entry<Long, Long>> spent = cpuNanos.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.cpuNanos.getOrDefault(e.getKey(), 0L)))
                .sorted(Comparator.comparingLong((Map.Entry<Long, Long> e) -> e.getValue()).reversed())
                .toList();
        for (Map.Entry<Long, Long> e : spent) {
            threadsTotal += e.getValue();
            if (e.getValue() >= 10_000_000L) {
                out.append(String.format(Locale.ROOT, "    %7.2f s  %s%n", e.getValue() / 1e9, names.get(e.getKey())));
            }
        }
        if (processNanos >= 0) {
            long process = processNanos - before.processNanos;
            out.append(String.format(Locale.ROOT, "    %7.2f s  process; %.2f s of it in the Java threads above, %.2f s"
                    + " in the JVM's own (GC, JIT compilers) and in threads that have ended (the replay's engine"
                    + " thread)%n", process / 1e9, threadsTotal / 1e9, (process - threadsTotal) / 1e9));
        }
        collectors.forEach((name, now) -> {
            long[] then = before.collectors.getOrDefault(name, new long[2]);
            out.append(String.format(Locale.ROOT, "    GC %s: %d collections, %.2f s%n", name, now[0] - then[0],
                    (now[1] - then[1]) / 1e3));
        });
        return out.toString();
    }
}
