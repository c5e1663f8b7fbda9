/** RSS of one process sampled over a while: the peak, and the peaks of each half (equal-ish when memory is bounded). */
import { rssMiB } from './process-tree.js';
import { sleep } from './timing.js';

const SAMPLE_MS = 250;

export interface RssTrace {
  peakRssMiB: number;
  firstHalfPeakMiB: number;
  secondHalfPeakMiB: number;
  endRssMiB: number;
}

export async function sampleRss(pid: number, seconds: number): Promise<RssTrace> {
  const samples: number[] = [];
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    await sleep(SAMPLE_MS);
    samples.push(rssMiB(pid));
  }
  const half = Math.floor(samples.length / 2);
  return {
    peakRssMiB: Math.max(...samples),
    firstHalfPeakMiB: Math.max(...samples.slice(0, half)),
    secondHalfPeakMiB: Math.max(...samples.slice(half)),
    endRssMiB: samples[samples.length - 1],
  };
}
