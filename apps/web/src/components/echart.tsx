import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  AriaComponent,
  type AriaComponentOption,
  DataZoomComponent,
  type DataZoomComponentOption,
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useReducedMotion } from '../lib/reduced-motion';

/** What the console's charts may draw: lines and areas, with a grid, tooltip, legend, zoom and aria. */
export type ChartOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | DataZoomComponentOption
  | AriaComponentOption
>;

// Only what the console's line and area charts use, so a chart's chunk stays small (ARCHITECTURE §7).
use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, AriaComponent, CanvasRenderer]);

/**
 * An ECharts canvas that follows its container's size and is disposed with the component. Only the
 * routes with charts (the overview, Analytics) load this file, each lazily, so other routes never
 * load ECharts.
 */
export function EChart({ option, className }: { option: ChartOption; className?: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const reducedMotion = useReducedMotion();

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const instance = init(element);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // A new range or resource list replaces the series instead of merging into the old ones.
    chart.current?.setOption({ ...option, animation: !reducedMotion }, { notMerge: true });
  }, [option, reducedMotion]);

  return <div ref={container} className={className} />;
}
