"use client";
import { Group } from "@visx/group";
import { scaleBand, scaleLinear } from "@visx/scale";
import { Bar } from "@visx/shape";
import { useRouter } from "next/navigation";
import type { MouseEvent } from "react";
import { SERIES_COLORS } from "./chart-colors";

/**
 * The overview's charts, drawn with visx (scales and shapes only: the smallest first-load cost of the
 * libraries measured, see the README). This module is loaded lazily by the home page alone. Every
 * bar is a link to the list behind it, named for screen readers; each chart also has a table
 * (components/dashboard/dashboard-view.tsx) that says the same in text.
 */


export type Column = { key: string; label: string; tick?: string; segments: { series: string; value: number }[]; href?: string; name: string };
export type HBar = { key: string; label: string; value: number; valueText: string; href?: string; name: string };

/** A same-tab click moves inside the console (client navigation); other clicks keep the browser's behaviour. */
function useLinkClick() {
  const router = useRouter();
  return (event: MouseEvent<Element>, href: string | undefined) => {
    if (!href || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    router.push(href);
  };
}

const WIDTH = 640;

/** Columns over days, optionally stacked by series (events by type). */
export function ColumnChart({ columns, series, label, height = 180 }: { columns: Column[]; series: string[]; label: string; height?: number }) {
  const onClick = useLinkClick();
  const margin = { top: 8, right: 8, bottom: 24, left: 40 };
  const innerW = WIDTH - margin.left - margin.right;
  const innerH = height - margin.top - margin.bottom;
  const max = Math.max(1, ...columns.map((c) => c.segments.reduce((s, x) => s + x.value, 0)));
  const x = scaleBand<string>({ domain: columns.map((c) => c.key), range: [0, innerW], padding: 0.2 });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerH, 0], nice: true });
  const ticks = y.ticks(4);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} className="h-auto w-full" role="group" aria-label={label}>
      <Group left={margin.left} top={margin.top}>
        {ticks.map((t) => (
          <g key={t} aria-hidden="true">
            <line x1={0} x2={innerW} y1={y(t)} y2={y(t)} stroke="#e2e8f0" />
            <text x={-6} y={y(t)} dy="0.32em" textAnchor="end" fontSize={10} fill="#334155">
              {t}
            </text>
          </g>
        ))}
        {columns.map((column) => {
          const left = x(column.key) ?? 0;
          const stack = (c: Column) => {
            let base = 0;
            return c.segments.map((segment) => {
              const top = y(base + segment.value);
              const barHeight = y(base) - top;
              base += segment.value;
              return segment.value > 0 ? <Bar key={segment.series} x={left} y={top} width={x.bandwidth()} height={barHeight} fill={SERIES_COLORS[Math.max(0, series.indexOf(segment.series)) % SERIES_COLORS.length]} /> : null;
            });
          };
          // Visible text stays outside the link: its name is the aria-label alone (WCAG 2.5.3).
          return (
            <g key={column.key}>
              {column.href ? (
                <a href={column.href} aria-label={column.name} onClick={(e) => onClick(e, column.href)} className="focus:outline-none [&:focus>rect]:stroke-black [&:focus>rect]:stroke-2">
                  <title>{column.name}</title>
                  {/* A transparent full-height target makes small columns easy to hit. */}
                  <rect x={left} y={0} width={x.bandwidth()} height={innerH} fill="transparent" />
                  {stack(column)}
                </a>
              ) : (
                // No list behind it (the platform cannot filter that way): a named figure, not a link.
                <g role="img" aria-label={column.name} data-no-list="">
                  <title>{column.name}</title>
                  {stack(column)}
                </g>
              )}
              {column.tick ? (
                <text x={left + x.bandwidth() / 2} y={innerH + 16} textAnchor="middle" fontSize={10} fill="#334155" aria-hidden="true">
                  {column.tick}
                </text>
              ) : null}
            </g>
          );
        })}
      </Group>
    </svg>
  );
}

/** Horizontal bars for the values of one field (stage, source, gender, products). */
export function BarChart({ bars, label }: { bars: HBar[]; label: string }) {
  const onClick = useLinkClick();
  const rowH = 26;
  const labelW = 150;
  // Room for the longest amount after the longest bar (about 7 units a character at 12 px), so it is never cut.
  const valueW = Math.max(70, 12 + 7.2 * Math.max(0, ...bars.map((b) => b.valueText.length)));
  const height = Math.max(rowH, bars.length * rowH);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const x = scaleLinear<number>({ domain: [0, max], range: [0, WIDTH - labelW - valueW] });
  const y = scaleBand<string>({ domain: bars.map((b) => b.key), range: [0, height], padding: 0.25 });
  return (
    <svg viewBox={`0 0 ${WIDTH} ${height}`} className="h-auto w-full" role="group" aria-label={label}>
      {bars.map((bar) => {
        const top = y(bar.key) ?? 0;
        const shape = (
          <>
            <rect x={labelW} y={top} width={WIDTH - labelW} height={y.bandwidth()} fill="transparent" />
            <Bar x={labelW} y={top} width={Math.max(bar.value > 0 ? 2 : 0, x(bar.value))} height={y.bandwidth()} fill={SERIES_COLORS[0]} />
          </>
        );
        // Visible text stays outside the link: its name is the aria-label alone (WCAG 2.5.3).
        return (
          <g key={bar.key}>
            <text x={labelW - 8} y={top + y.bandwidth() / 2} dy="0.32em" textAnchor="end" fontSize={12} fill="#0f172a" aria-hidden="true">
              {bar.label.length > 18 ? `${bar.label.slice(0, 17)}…` : bar.label}
            </text>
            {bar.href ? (
              <a href={bar.href} aria-label={bar.name} onClick={(e) => onClick(e, bar.href)} className="focus:outline-none [&:focus>rect]:stroke-black [&:focus>rect]:stroke-2">
                <title>{bar.name}</title>
                {shape}
              </a>
            ) : (
              <g role="img" aria-label={bar.name} data-no-list="">
                <title>{bar.name}</title>
                {shape}
              </g>
            )}
            <text x={labelW + x(bar.value) + 6} y={top + y.bandwidth() / 2} dy="0.32em" fontSize={12} fill="#0f172a" aria-hidden="true">
              {bar.valueText}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
