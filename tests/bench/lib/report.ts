/** Plain-text output: aligned tables and PASS/FAIL lines. */
import type { Table, TargetCheck } from './types';

export function formatTable(t: Table): string {
  const widths = t.headers.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const cell = (s: string, i: number) => (i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i]));
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(t.headers), rule, ...t.rows.map(line)].join('\n');
}

export function formatTarget(t: TargetCheck): string {
  return `TARGET ${t.label}: ${t.pass ? 'PASS' : 'FAIL'} (${t.measured})`;
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => n.toFixed(2),
  ratio: (n: number) => `${n.toFixed(2)}x`,
  pct: (n: number) => `${Math.round(n)}%`,
};
