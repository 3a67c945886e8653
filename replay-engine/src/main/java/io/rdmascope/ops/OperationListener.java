package io.rdmascope.ops;

import io.rdmascope.dissect.ops.OperationEvents.Buffer;
import io.rdmascope.dissect.ops.OperationEvents.Command;
import io.rdmascope.dissect.ops.OperationEvents.Queue;
import io.rdmascope.dissect.ops.OperationEvents.RequestCredits;
import io.rdmascope.dissect.ops.OperationEvents.Response;
import io.rdmascope.dissect.ops.OperationEvents.SendCredits;

/**
 * What an {@link OperationTracker} tells beyond the operations it finishes: the facts the storage rules
 * (issue 19, item 7; {@link OperationRules}) judge, as the tracker meets them in capture order. The
 * tracker decides nothing about them; every method does nothing by default.
 */
public interface OperationListener {
    /**
     * The tracker that will tell this listener what it meets, once, as it is made: a listener that names
     * queues asks it ({@link OperationTracker#queueText}), so that findings and {@code ops} name a queue alike.
     */
    default void fedBy(OperationTracker tracker) {
    }

    /**
     * A command the tracker now holds as outstanding.
     *
     * @param outstanding       the commands outstanding on its queue, itself included
     * @param startCaptured     whether the capture holds the CM exchange that set up its queue's connection
     * @param sameIdFrame       the frame of the oldest command outstanding on the queue with the same id, or
     *                          -1 when none is
     * @param sameIdDescription that command's description, or null
     */
    default void commandSent(Command command, long frame, int outstanding, boolean startCaptured, long sameIdFrame,
                             String sameIdDescription) {
    }

    /** A response whose id no command outstanding on its queue carries. */
    default void responseWithoutCommand(Response response, long frame, boolean startCaptured) {
    }

    /**
     * An RDMA WRITE (First/Only) or READ Request whose R_Key some command outstanding on {@code queue}
     * advertised, but whose bytes {@code [address, address + length)} lie in none of the buffers
     * advertised under that key.
     *
     * @param operation    "RDMA WRITE" or "RDMA READ"
     * @param commandFrame the frame of a command that advertised the key (the newest)
     * @param command      that command
     * @param buffer       its buffer under that key
     */
    default void transferOutside(Queue queue, long frame, String operation, long key, long address, long length,
                                 long commandFrame, Command command, Buffer buffer) {
    }

    /** A message under send credits (the protocol's extractor says so). */
    default void sendCredits(SendCredits credits, long frame, boolean startCaptured) {
    }

    /** A responder's credit grant (the protocol's extractor says so). */
    default void requestCredits(RequestCredits credits, long frame) {
    }

    /** An operation finished unanswered ({@link Operation#UNANSWERED}), with the command it was. */
    default void unanswered(Operation operation, Command command) {
    }
}
