package io.pacelink.report;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Which colour a flow's line or bar gets: its controller's colour when that tells the flows apart (one flow, or one
 * flow per controller), so a controller looks the same in every chart of a report; otherwise (several flows of one
 * controller) a colour per flow, starting after the controllers' colours so that flow 0 is not mistaken for the
 * first controller.
 */
final class FlowColors
{
    private FlowColors()
    {
    }

    /**
     * @param flowControllers each flow's controller, in flow order.
     * @param palette         the report's controller colours.
     * @return each flow's colour index, by flow index.
     */
    static IntUnaryOperator of(final List<String> flowControllers, final Palette palette)
    {
        final boolean byController = flowControllers.stream().distinct().count() == flowControllers.size();
        final int firstFlowColor = palette.size();
        return byController ? (flow) -> palette.indexOf(flowControllers.get(flow)) : (flow) -> firstFlowColor + flow;
    }
}
