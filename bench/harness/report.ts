/**
 * Turns recorded samples into the printed table and the JSON report.
 * Each row is one (metric, contender): median, min and max over the runs.
 * Targets are judged on the median.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MachineInfo } from './machine-info.js';
import type { Better, Sample, Target } from './scenario.js';
import { summarize, type Summary } from './stats.js';

export interface Row extends Summary {
  metric: string;
  contender: string;
  unit: string;
  better: Better;
  values: number[];
}

export interface TargetVerdict extends Target {
  value: number;
  verdict: 'PASS' | 'FAIL' | 'SKIP';
}

export interface ScenarioReport {
  name: string;
  description: string;
  runs: number;
  seconds: number;
  rows: Row[];
  targets: TargetVerdict[];
  notes: string[];
  error?: string;
}

export function buildRows(samples: Sample[]): Row[] {
  const rows = new Map<string, Row>();
  for (const sample of samples) {
    const key = `${sample.metric}\u0000${sample.contender}`;
    let row = rows.get(key);
    if (!row) {
      row = { metric: sample.metric, contender: sample.contender, unit: sample.unit, better: sample.better, values: [], median: 0, min: 0, max: 0, n: 0 };
      rows.set(key, row);
    }
    row.values.push(sample.value);
  }
  return [...rows.values()].map((row) => ({ ...row, ...summarize(row.values) }));
}

export function judge(targets: Target[], rows: Row[]): TargetVerdict[] {
  return targets.map((target) => {
    const row = rows.find((candidate) => candidate.metric === target.metric && candidate.contender === target.contender);
    const value = row?.median ?? Number.NaN;
    if (!Number.isFinite(value)) return { ...target, value, verdict: 'SKIP' };
    const pass = meets(value, target.op, target.threshold);
    return { ...target, value, verdict: pass ? 'PASS' : 'FAIL' };
  });
}

function meets(value: number, op: Target['op'], threshold: number): boolean {
  if (op === '>=') return value >= threshold;
  if (op === '<=') return value <= threshold;
  return value < threshold;
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '-';
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** One more digit than the table: a ratio of 0.897 must not read as a failing "0.90". */
function formatVerdictValue(value: number): string {
  return Number.isFinite(value) && Math.abs(value) < 10 ? value.toFixed(3) : formatNumber(value);
}

function table(header: string[], lines: string[][], rightAligned: Set<number>): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...lines.map((line) => line[column].length)));
  const render = (cells: string[]) => cells.map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join('  ').trimEnd();
  return [render(header), render(widths.map((width) => '-'.repeat(width))), ...lines.map(render)].map((line) => `  ${line}`).join('\n');
}

export function renderScenario(report: ScenarioReport): string {
  const out: string[] = [`\n## ${report.name}: ${report.description} (${report.runs} run${report.runs === 1 ? '' : 's'}, ${report.seconds.toFixed(0)} s)`];
  if (report.error) out.push(`  ERROR: ${report.error}`);
  if (report.rows.length > 0) {
    out.push(
      table(
        ['metric', 'contender', 'median', 'min', 'max', 'unit'],
        report.rows.map((row) => [row.metric, row.contender, formatNumber(row.median), formatNumber(row.min), formatNumber(row.max), row.unit]),
        new Set([2, 3, 4]),
      ),
    );
  }
  for (const target of report.targets) {
    out.push(`  ${target.verdict.padEnd(4)}  ${target.label}: ${target.contender === 'ratio' ? '' : `${target.contender} `}${target.metric} = ${formatVerdictValue(target.value)} (target ${target.op} ${target.threshold})`);
  }
  for (const note of report.notes) out.push(`  note: ${note}`);
  return out.join('\n');
}

export function renderSummary(reports: ScenarioReport[]): string {
  const verdicts = reports.flatMap((report) => report.targets.map((target) => ({ scenario: report.name, ...target })));
  const counts = { PASS: 0, FAIL: 0, SKIP: 0 };
  for (const verdict of verdicts) counts[verdict.verdict]++;
  const lines = verdicts.map((v) => `  ${v.verdict.padEnd(4)}  ${v.scenario}: ${v.label} (${formatVerdictValue(v.value)})`);
  const errors = reports.filter((report) => report.error).map((report) => `  ERROR ${report.name}: ${report.error}`);
  return [`\n## targets: ${counts.PASS} pass, ${counts.FAIL} fail, ${counts.SKIP} skipped`, ...lines, ...errors].join('\n');
}

export function writeJsonReport(dir: string, startedAt: Date, machine: MachineInfo, reports: ScenarioReport[], argv: string[]): string {
  mkdirSync(dir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `${stamp}.json`);
  writeFileSync(path, `${JSON.stringify({ startedAt: startedAt.toISOString(), argv, machine, scenarios: reports }, null, 2)}\n`);
  return path;
}
