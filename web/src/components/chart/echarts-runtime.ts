import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendPlainComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// Only the chart types and components the console draws, on the canvas renderer: importing
// "echarts" whole would add several hundred kB to every screen with a chart.
echarts.use([BarChart, LineChart, GridComponent, LegendPlainComponent, TooltipComponent, CanvasRenderer]);

export const init = echarts.init;
