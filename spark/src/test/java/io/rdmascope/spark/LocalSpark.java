package io.rdmascope.spark;

import org.apache.spark.sql.SparkSession;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/** The tests' Spark: local[2] as this machine's cores, no web UI, few shuffle partitions for small inputs. */
final class LocalSpark {
    private LocalSpark() {
    }

    /** A session for {@code app} with {@code settings} on top (one Spark context lives in a JVM at a time). */
    static SparkSession start(String app, Map<String, String> settings) {
        SparkSession.Builder b = SparkSession.builder().master("local[2]").appName(app)
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4");
        settings.forEach(b::config);
        return b.getOrCreate();
    }

    /** Stops {@code spark} (when started) and deletes the test's work directory (when made). */
    static void stop(SparkSession spark, Path work) throws IOException {
        if (spark != null) {
            spark.stop();
        }
        if (work != null) {
            try (Stream<Path> files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
