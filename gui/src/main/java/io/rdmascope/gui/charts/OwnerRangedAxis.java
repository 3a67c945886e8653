package io.rdmascope.gui.charts;

import javafx.scene.chart.ValueAxis;

/**
 * A value axis whose bounds its chart's owner sets from the data shown (never ranged by JavaFX
 * from the series): the range is just the two bounds.
 */
abstract class OwnerRangedAxis extends ValueAxis<Number> {
    OwnerRangedAxis(double lower, double upper) {
        super(lower, upper);
        setAutoRanging(false);
    }

    @Override
    protected final Object getRange() {
        return new double[] {getLowerBound(), getUpperBound()};
    }

    @Override
    protected final void setRange(Object range, boolean animate) {
        double[] r = (double[]) range;
        setLowerBound(r[0]);
        setUpperBound(r[1]);
        currentLowerBound.set(r[0]);
    }
}
