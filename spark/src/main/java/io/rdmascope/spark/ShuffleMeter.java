package io.rdmascope.spark;

import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Sums what the job's tasks wrote to the shuffle (Spark's task metrics): the cost of moving every frame
 * to its host pair's group, reported per frame (docs/fleet.md, benchmarks/fleet.sh).
 */
final class ShuffleMeter extends SparkListener {
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong records = new AtomicLong();

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        if (end.taskMetrics() != null) {
            bytes.addAndGet(end.taskMetrics().shuffleWriteMetrics().bytesWritten());
            records.addAndGet(end.taskMetrics().shuffleWriteMetrics().recordsWritten());
        }
    }

    long bytes() {
        return bytes.get();
    }

    long records() {
        return records.get();
    }
}
