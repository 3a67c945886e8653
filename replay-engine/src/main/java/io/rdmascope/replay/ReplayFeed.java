package io.rdmascope.replay;

import io.rdmascope.dissect.Dissection;
import io.rdmascope.proto.iwarp.IwarpFrame;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Feeds dissected frames to a {@link ReplayResult}, either on the calling thread or through a replay
 * thread (issue 18): the caller reads and dissects, the replay thread replays, joined by a bounded
 * hand-off of batches of {@link Dissection}s. The engine sees exactly the frames, in exactly the
 * order, that the sequential loop gives it, so the result is the same whichever way it is fed.
 *
 * <p>Use: {@code d = feed.next()}, dissect into {@code d}, read it as the caller needs (filter, storage
 * operations), then {@link #replay()} if the engine should have it; {@link #close()} waits for the replay
 * thread, after which the result may be {@linkplain ReplayResult#finish finished}. Per-frame work that
 * needs only the replayed frame's own dissection (a {@link FrameCounter}: {@code summary}'s counts) is
 * given to the feed and done beside the replay, on the replay thread.
 *
 * <p>The work is divided between the two threads in a fixed way (issue 18), so that on the
 * {@code mixed_large} captures neither alone bounds the wall time: the reader reads, dissects, and reads
 * each frame's facts (what the engine reads, {@link ReplayEngine#readAhead}) and their CRC verdicts; the
 * replay thread replays, and also counts when given a {@link FrameCounter}, or else computes the CRC
 * verdicts of one frame in four ({@link #CRCS_ON_REPLAY_EVERY}) when the engine asks for them, as on
 * one thread. Which thread does what is decided when the feed is made and never changes during a run:
 * a division decided batch by batch by whichever thread had time measured worse, because each switch
 * moves hot code between threads and costs recompilation (docs/performance.md).
 *
 * <p>What makes handing a dissection to another thread safe: a {@link io.rdmascope.frame.Frame} is
 * immutable and its bytes stay where they are (a mapped window or an array of its own); a
 * dissection's layers are its own, one {@code Dissection} per slot. The one exception is the stream
 * decoders' state, which every slot shares ({@link Dissection#continueFrom}) and the reading thread
 * keeps changing: an iWARP frame (whose replay reads that state) is therefore replayed before the
 * next frame is dissected.
 */
public final class ReplayFeed implements AutoCloseable {
    /** Frames per hand-off: large enough that the queue costs nothing per frame. */
    static final int BATCH = 512;
    /** Batches in flight: bounds the memory the hand-off holds (about 1 KB per slot). */
    static final int BATCHES = 8;
    /**
     * Without a {@link FrameCounter}, the replay thread computes the CRC verdicts of one frame in this many
     * (slots 3, 7, 11, ... of a batch, when the engine asks for them) and the reader those of the rest,
     * ahead; with one, the counting is the replay thread's share and every verdict stays on the reader.
     * Measured on the 10 M-frame capture (docs/performance.md, "balancing the reader and the replay
     * thread"): work moved to the replay thread costs it about twice what it cost the reader (the frame's
     * bytes and layers come from the other core), so it gets only as much as evens the two out: for
     * {@code check}, one verdict in four; for {@code summary}, its counts, after which verdicts moved as
     * well added CPU in all without lowering the busier thread's.
     */
    static final int CRCS_ON_REPLAY_EVERY = 4;

    /**
     * Per-frame work done beside the replay, on the thread that replays: for each frame handed to the
     * engine, just before the engine gets it. It may read that frame's {@link Dissection} and everything
     * the engine may read of it (an iWARP frame's stream state included: the reader waits for such a frame);
     * what it keeps is written by one thread only and may be read once the feed is {@linkplain #close()
     * closed}.
     */
    @FunctionalInterface
    public interface FrameCounter {
        void count(Dissection d);
    }

    private final ReplayResult result;
    private final FrameCounter counter;
    private final Worker worker;
    /** The sequential feed's one dissection, or the slot being filled. */
    private Dissection current;
    private Batch filling;
    private boolean handed;
    private boolean closed;

    private ReplayFeed(ReplayResult result, boolean threaded, FrameCounter counter) {
        this.result = result;
        this.counter = counter;
        if (threaded) {
            worker = new Worker(result, counter);
            filling = worker.free.poll();
            current = filling.slots[0];
            worker.thread.start();
        } else {
            worker = null;
            current = new Dissection();
        }
    }

    /**
     * A feed into {@code result}: with {@code threads} of 2 or more, replayed on a thread of its own while
     * the caller reads and dissects; with 1, on the caller's thread.
     */
    public static ReplayFeed into(ReplayResult result, int threads) {
        return new ReplayFeed(result, threads >= 2, null);
    }

    /** As {@link #into(ReplayResult, int)}, with {@code counter} told of every frame the engine gets, beside it. */
    public static ReplayFeed into(ReplayResult result, int threads, FrameCounter counter) {
        return new ReplayFeed(result, threads >= 2, counter);
    }

    /** The result this feed replays into. */
    ReplayResult result() {
        return result;
    }

    /** Threads the command-line {@code --threads} default gives: the machine's processors. */
    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** The dissection to dissect the next frame into. */
    public Dissection next() {
        if (worker == null || !handed) {
            return current;
        }
        handed = false;
        Dissection previous = current;
        if (filling.size == BATCH) {
            worker.hand(filling);
            filling = worker.takeFree();
        }
        current = filling.slots[filling.size];
        current.continueFrom(previous);
        return current;
    }

    /** The dissection last returned by {@link #next()} goes to the engine. */
    public void replay() {
        if (worker == null) {
            if (counter != null) {
                counter.count(current);
            }
            result.accept(current);
            return;
        }
        handed = true;
        // The reader's share of what depends on this frame alone (CRCS_ON_REPLAY_EVERY says why this share).
        int slot = filling.size;
        boolean crcsHere = counter != null || slot % CRCS_ON_REPLAY_EVERY != CRCS_ON_REPLAY_EVERY - 1;
        filling.transport[slot] = result.readAhead(current, filling.facts[slot], crcsHere);
        filling.size++;
        if (IwarpFrame.of(current) != null) {
            // The iWARP replay reads the stream decoder's per-frame state, which the next dissection
            // overwrites: this frame is replayed before the reader goes on.
            worker.hand(filling);
            filling = worker.takeFree();
            worker.awaitIdle();
        }
    }

    /** Waits until every frame handed over is replayed. A failure of the replay thread is rethrown here. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (worker == null || worker.failureRethrown) {
            return; // the reader already has the replay thread's failure, and that thread has stopped
        }
        if (filling.size > 0) {
            worker.hand(filling);
        }
        worker.hand(Batch.END);
        worker.join();
    }

    /** A run of dissections handed over at once. */
    private static final class Batch {
        static final Batch END = new Batch(0);
        final Dissection[] slots;
        final PacketFacts[] facts;
        final boolean[] transport;
        int size;

        Batch(int capacity) {
            slots = new Dissection[capacity];
            facts = new PacketFacts[capacity];
            transport = new boolean[capacity];
            for (int i = 0; i < capacity; i++) {
                slots[i] = new Dissection();
                facts[i] = new PacketFacts();
            }
        }
    }

    /** The replay thread: takes batches in order, replays them, gives the slots back. */
    private static final class Worker implements Runnable {
        final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES + 1);
        final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
        final Thread thread;
        final ReplayResult result;
        /** Null when the caller counts nothing beside the replay. */
        final FrameCounter counter;
        volatile long handedBatches;
        volatile long doneBatches;
        volatile Throwable failure;
        /** Set by the reader once it has thrown {@link #failure}, so that close() does not throw it again. */
        boolean failureRethrown;

        Worker(ReplayResult result, FrameCounter counter) {
            this.result = result;
            this.counter = counter;
            for (int i = 0; i < BATCHES; i++) {
                free.add(new Batch(BATCH));
            }
            thread = new Thread(this, "rdmascope-replay");
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                while (true) {
                    Batch b = full.take();
                    if (b == Batch.END) {
                        return;
                    }
                    for (int i = 0; i < b.size; i++) {
                        if (counter != null) {
                            counter.count(b.slots[i]);
                        }
                        result.accept(b.slots[i], b.facts[i], b.transport[i]);
                    }
                    b.size = 0;
                    free.add(b);
                    doneBatches++;
                }
            } catch (Throwable t) {
                failure = t;
                doneBatches = Long.MAX_VALUE; // nobody waits on a thread that stopped
                free.clear();
                free.add(new Batch(BATCH)); // lets a reader blocked on a free slot see the failure
            }
        }

        void hand(Batch b) {
            rethrowFailure();
            try {
                full.put(b);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while handing frames to the replay", e);
            }
            if (b != Batch.END) {
                handedBatches++;
            }
        }

        Batch takeFree() {
            try {
                Batch b = free.take();
                rethrowFailure();
                return b;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the replay", e);
            }
        }

        /** Until the replay thread has replayed every batch handed so far (rare: iWARP frames only). */
        void awaitIdle() {
            while (doneBatches < handedBatches) {
                rethrowFailure();
                LockSupport.parkNanos(20_000);
            }
            rethrowFailure();
        }

        void join() {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the replay", e);
            }
            rethrowFailure();
        }

        private void rethrowFailure() {
            Throwable t = failure;
            failureRethrown = t != null;
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error e) {
                throw e;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
        }
    }
}
