package io.rdmascope.gui.charts;

import java.util.ArrayList;
import java.util.List;

/**
 * The time axis of the time charts: seconds since the capture's first frame, as Wireshark's I/O
 * graph labels it, over exactly the range of the data shown ({@link #show}). The first tick is the
 * first data point, written with two more decimals than the others so that its label is exact
 * enough; the other ticks sit on round multiples of a 1-2-5 step ({@link ChartUnits#niceStep}).
 * JavaFX's NumberAxis would count its ticks from the lower bound (17.5003, 17.5103, …) and round
 * every label to a value the tick is not at.
 */
public final class TimeAxis extends OwnerRangedAxis {
    /** Labelled ticks at most along the axis; ten keep "17.5025" labels apart at 600 px. */
    static final int MAX_TICKS = 10;
    private double step = 1;

    public TimeAxis() {
        super(0, 1);
        setMinorTickVisible(false);
        setLabel("Time since the capture's first frame (s)");
    }

    /**
     * Shows {@code firstSeconds} to {@code lastSeconds}; {@code minimumSpan} widens a range of one
     * point (one interval) so that it still has a width.
     */
    public void show(double firstSeconds, double lastSeconds, double minimumSpan) {
        double last = Math.max(lastSeconds, firstSeconds + minimumSpan);
        step = ChartUnits.niceStep(last - firstSeconds, MAX_TICKS);
        setLowerBound(firstSeconds);
        setUpperBound(last);
        requestAxisLayout();
    }

    /** The distance between round ticks, in seconds. */
    public double step() {
        return step;
    }

    @Override
    protected List<Number> calculateTickValues(double length, Object range) {
        double lower = getLowerBound();
        double upper = getUpperBound();
        List<Number> ticks = new ArrayList<>();
        ticks.add(lower);
        // the round ticks after the first, none closer to it than half a step (their labels would touch)
        for (long k = (long) Math.ceil(lower / step); k * step <= upper + step * 1e-9; k++) {
            double t = k * step;
            if (t - lower >= step / 2) {
                ticks.add(t);
            }
        }
        return ticks;
    }

    @Override
    protected List<Number> calculateMinorTickMarks() {
        return List.of();
    }

    @Override
    protected String getTickMarkLabel(Number value) {
        double v = value.doubleValue();
        return ChartUnits.seconds(v, v == getLowerBound() ? step / 100 : step);
    }
}
