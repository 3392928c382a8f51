import { LineChart } from 'echarts/charts';
import { AriaComponent, DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { ChartOption } from './chart-option';

// Only what the overview's area charts use, so the route's chunk stays small (ARCHITECTURE §7).
use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, AriaComponent, CanvasRenderer]);

/**
 * An ECharts canvas that follows its container's size and is disposed with the component. Only the
 * overview route imports this file, so other routes never load ECharts.
 */
export function EChart({ option, className }: { option: ChartOption; className?: string }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

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
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={container} className={className} />;
}
