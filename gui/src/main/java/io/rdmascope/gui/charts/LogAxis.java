package io.rdmascope.gui.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * A base-10 logarithmic value axis (JavaFX has none): labelled ticks at every power of ten between
 * the bounds, unlabelled minor ticks at 2..9 times each. The bounds are set by the chart's owner
 * ({@link #showRange}); the axis never ranges itself, because the useful floor of a log axis (how
 * many decades below the largest value to show) is the owner's decision.
 *
 * <p>Pitfall: zero and negative values have no place on a log scale. They are drawn on the floor
 * (the lower bound), so a goodput line falling to nothing between bursts reaches the bottom of the
 * plot instead of vanishing, and a bar of a bar chart rests on the floor
 * ({@link #getZeroPosition()}).
 */
public final class LogAxis extends OwnerRangedAxis {
    private final DoubleFunction<String> labels;

    /** An axis writing its decade labels with {@code labels} (e.g. {@link ChartUnits#rate}). */
    public LogAxis(DoubleFunction<String> labels) {
        super(1, 10);
        this.labels = labels;
    }

    /**
     * Shows decades from the one at or below {@code smallest} to the one at or above {@code largest},
     * at most {@code maxDecades} of them (the small end is cut first).
     */
    public void showRange(double smallest, double largest, int maxDecades) {
        double hi = Math.pow(10, Math.ceil(Math.log10(Math.max(largest, Double.MIN_NORMAL))));
        double lo = Math.pow(10, Math.floor(Math.log10(Math.max(smallest, Double.MIN_NORMAL))));
        if (hi <= lo) {
            hi = lo * 10;
        }
        showBounds(Math.max(lo, hi / Math.pow(10, maxDecades)), hi);
    }

    /**
     * Shows exactly {@code lower} to {@code upper} (both above 0): a count axis starts at 0.5 so that
     * a bar of one stands a third of a decade high instead of having no height at 1.
     */
    public void showBounds(double lower, double upper) {
        setLowerBound(lower);
        setUpperBound(upper);
        requestAxisLayout();
    }

    private double logLow() {
        return Math.log10(getLowerBound());
    }

    private double logHigh() {
        return Math.log10(getUpperBound());
    }

    /** The fraction of the axis length from the low end where {@code value} sits (0 for the floor). */
    double fraction(double value) {
        if (!(value > getLowerBound())) {
            return 0;
        }
        return (Math.log10(value) - logLow()) / (logHigh() - logLow());
    }

    @Override
    public double getDisplayPosition(Number value) {
        double f = fraction(value.doubleValue());
        return getSide() != null && getSide().isVertical() ? getHeight() * (1 - f) : getWidth() * f;
    }

    @Override
    public Number getValueForDisplay(double position) {
        double f = getSide() != null && getSide().isVertical() ? 1 - position / getHeight() : position / getWidth();
        return Math.pow(10, logLow() + f * (logHigh() - logLow()));
    }

    @Override
    public double getZeroPosition() {
        return getDisplayPosition(getLowerBound());
    }

    @Override
    public boolean isValueOnAxis(Number value) {
        double v = value.doubleValue();
        return v >= getLowerBound() && v <= getUpperBound();
    }

    /** Exponents of the powers of ten inside the bounds (rounding slack for 10^k computed as a double). */
    private int firstDecade() {
        return (int) Math.ceil(logLow() - 1e-9);
    }

    private int lastDecade() {
        return (int) Math.floor(logHigh() + 1e-9);
    }

    @Override
    protected List<Number> calculateTickValues(double length, Object range) {
        List<Number> ticks = new ArrayList<>();
        for (int e = firstDecade(); e <= lastDecade(); e++) {
            ticks.add(Math.pow(10, e));
        }
        return ticks;
    }

    @Override
    protected List<Number> calculateMinorTickMarks() {
        List<Number> marks = new ArrayList<>();
        for (int e = firstDecade() - 1; e <= lastDecade(); e++) {
            for (int m = 2; m <= 9; m++) {
                double mark = m * Math.pow(10, e);
                if (isValueOnAxis(mark)) {
                    marks.add(mark);
                }
            }
        }
        return marks;
    }

    @Override
    protected String getTickMarkLabel(Number value) {
        return labels.apply(value.doubleValue());
    }
}
