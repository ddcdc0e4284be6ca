import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { RevenuePoint } from "../../../contract";
import { formatGBP } from "@/lib/screen-helpers";
import { axisLabel, pointLabel } from "./revenue-labels";

/**
 * The revenue bars (Recharts). Loaded lazily by the dashboard so the chart library never delays its
 * first paint; hidden from screen readers, which read the table beside it instead.
 */
export default function RevenueChart({ series, unit }: { series: RevenuePoint[]; unit: "day" | "month" }) {
  const data = series.map((point) => ({ date: point.date, revenue: Number(point.revenue), orders: point.orders }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      {/* Hidden from screen readers (the dashboard gives a summary and a table instead): not a tab stop either. */}
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} className="stroke-border" />
        <XAxis
          dataKey="date"
          tickFormatter={(date: string) => axisLabel(date, unit)}
          tickLine={false}
          axisLine={false}
          fontSize={12}
          minTickGap={16}
          // Recharts 3 draws the labels in a layer of their own, outside the axis's class: coloured here.
          tick={{ fill: "var(--muted-foreground)" }}
        />
        <YAxis
          tickLine={false}
          axisLine={false}
          fontSize={12}
          width={64}
          tick={{ fill: "var(--muted-foreground)" }}
          tickFormatter={(value: number) => `£${value.toLocaleString("en-GB", { maximumFractionDigits: 0 })}`}
        />
        <Tooltip
          cursor={{ fillOpacity: 0.08 }}
          labelFormatter={(date) => pointLabel(String(date), unit)}
          formatter={(value) => [formatGBP(Number(value)), "Revenue"]}
          // The theme's popover colours: Recharts' white box kept the page's text colour, light on white in dark mode.
          contentStyle={{ borderRadius: 8, fontSize: 12, background: "var(--popover)", color: "var(--popover-foreground)", borderColor: "var(--border)" }}
        />
        <Bar dataKey="revenue" name="Revenue" fill="#059669" radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
