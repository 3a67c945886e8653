package io.rdmascope.spark;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Sums Spark's task metrics over the job: what the tasks wrote to the shuffle — the cost of moving every
 * frame to its host pair's group, reported per frame — and the CPU time the executors spent running
 * them, which on a cluster is the job's cost wherever its tasks ran (docs/fleet.md, benchmarks/fleet.sh).
 */
final class TaskMeter extends SparkListener {
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong cpuNanos = new AtomicLong();

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        if (end.taskMetrics() != null) {
            bytes.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
            records.addAndGet(end.taskMetrics().shuffleWriteMetrics().recordsWritten());
            cpuNanos.addAndGet(end.taskMetrics().executorCpuTime());
        }
    }

    long bytes() {
        return bytes.get();
    }

    long records() {
        return records.get();
    }

    /** CPU time of the tasks' own work, in seconds (Spark's executorCpuTime; not the JVMs' start or GC threads). */
    double cpuSeconds() {
        return cpuNanos.get() / 1e9;
    }
}
