package io.rdmascope.gui.ladder;

import io.rdmascope.gui.ladder.LadderViewModel.Arrow;
import io.rdmascope.gui.ladder.LadderViewModel.Diagram;
import io.rdmascope.gui.ladder.LadderViewModel.Lane;
import io.rdmascope.gui.ladder.LadderViewModel.Stop;
import io.rdmascope.gui.model.VantageCapture;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A conversation's ladder with one lane per vantage point (issue 20, item 6): the points that saw any of its
 * packets, ordered from side A's end of the path to side B's, and every packet's sightings on them.
 *
 * <p>The order is read from the conversation's own packets, as the union reads "downstream": point p lies on
 * side A's side of q when more of the packets both saw were at p first going from A to B, or at q first going
 * from B to A (clocks corrected). A point's place is how many points lie on side A's side of it. So a switch
 * mirror lands between the two hosts' captures without being told where it is.
 */
final class VantageLanes {
    private VantageLanes() {
    }

    /**
     * {@code d} (one capture's diagram of the union's frames) with lanes and each arrow's path; {@code d}
     * unchanged when fewer than two points saw the conversation (two lifelines say it all).
     */
    static Diagram place(Diagram d, VantageCapture union) {
        int n = union.names().size();
        List<List<VantageCapture.Sighting>> sightings = new ArrayList<>(d.arrows().size());
        long[][] aSideOf = new long[n][n]; // [p][q]: packets saying p is on side A's side of q
        boolean[] sawAny = new boolean[n];
        for (Arrow a : d.arrows()) {
            List<VantageCapture.Sighting> s = union.identified(a.frame()) ? union.sightings(a.frame()) : List.of();
            sightings.add(s);
            for (VantageCapture.Sighting x : s) {
                sawAny[x.pointIndex()] = true;
                for (VantageCapture.Sighting y : s) {
                    if (x.correctedNanos() < y.correctedNanos()) {
                        aSideOf[a.fromA() ? x.pointIndex() : y.pointIndex()][a.fromA() ? y.pointIndex() : x.pointIndex()]++;
                    }
                }
            }
        }
        List<Integer> points = new ArrayList<>();
        int[] towardA = new int[n];
        for (int p = 0; p < n; p++) {
            if (!sawAny[p]) {
                continue; // a point off this conversation's path has nothing to draw
            }
            points.add(p);
            for (int q = 0; q < n; q++) {
                towardA[p] += sawAny[q] && aSideOf[q][p] > aSideOf[p][q] ? 1 : 0;
            }
        }
        if (points.size() < 2) {
            return d;
        }
        points.sort(Comparator.<Integer>comparingInt(p -> towardA[p]).thenComparingInt(p -> p));
        int[] laneOf = new int[n];
        java.util.Arrays.fill(laneOf, -1);
        List<Lane> lanes = new ArrayList<>();
        for (int p : points) {
            laneOf[p] = lanes.size();
            lanes.add(new Lane(union.names().get(p), p));
        }
        // Which lanes saw packets going each way: a packet missing at a lane that sees none going its way
        // (a capture of one direction only) is not lost there.
        boolean[][] sawWay = new boolean[2][lanes.size()];
        for (int i = 0; i < d.arrows().size(); i++) {
            for (VantageCapture.Sighting s : sightings.get(i)) {
                sawWay[d.arrows().get(i).fromA() ? 0 : 1][laneOf[s.pointIndex()]] = true;
            }
        }
        List<Arrow> arrows = new ArrayList<>(d.arrows().size());
        for (int i = 0; i < d.arrows().size(); i++) {
            Arrow a = d.arrows().get(i);
            List<VantageCapture.Sighting> s = sightings.get(i);
            if (s.isEmpty()) {
                arrows.add(a);
                continue;
            }
            long first = s.stream().mapToLong(VantageCapture.Sighting::correctedNanos).min().orElseThrow();
            int way = a.fromA() ? 1 : -1;
            List<Stop> path = s.stream()
                    .map(x -> new Stop(laneOf[x.pointIndex()], x.frame(), x.correctedNanos() - first))
                    .sorted(Comparator.comparingInt(x -> way * x.lane()))
                    .toList();
            int next = path.get(path.size() - 1).lane() + way;
            boolean stopsShort = next >= 0 && next < lanes.size() && sawWay[a.fromA() ? 0 : 1][next];
            arrows.add(new Arrow(a.frame(), a.timeNanos(), a.fromA(), a.kind(), a.marks(), a.label(), a.timeLabel(),
                    path, stopsShort));
        }
        return new Diagram(d.conversation(), d.sideA(), d.sideB(), List.copyOf(lanes), List.copyOf(arrows));
    }
}
