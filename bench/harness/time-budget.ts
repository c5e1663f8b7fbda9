/**
 * Keeps a full `pnpm bench` within the issue's 10 minutes on a machine that is
 * slower or busier than the one the scenarios' run times were measured on.
 *
 * Every scenario states what one of its runs takes (Scenario.secondsPerRun).
 * Before each scenario the budget plans the rest of the suite: it scales those
 * estimates by how long the scenarios so far took against theirs (the pace),
 * and while the plan does not fit in the time left, it takes one run off the
 * remaining scenario whose run costs most, never going below one run. The
 * scenario about to start gets the runs the plan gives it; the next scenario
 * is planned again with what this one really took.
 */

/** The limit for the whole suite. */
export const SUITE_BUDGET_SECONDS = 600;
/**
 * Kept back for what the plan does not see (the report, process exits, the
 * build check before the suite) and for estimate error: between five full runs
 * on the reference machine a scenario's run time moved by up to 15 %, and the
 * last scenarios, planned with the least history, run about 75 s together.
 */
export const BUDGET_MARGIN_SECONDS = 25;

export interface BudgetedScenario {
  name: string;
  defaultRuns: number;
  secondsPerRun: number;
}

export class TimeBudget {
  private estimatedSeconds = 0;
  private actualSeconds = 0;

  constructor(
    private readonly scenarios: readonly BudgetedScenario[],
    private readonly budgetSeconds = SUITE_BUDGET_SECONDS - BUDGET_MARGIN_SECONDS,
  ) {}

  /**
   * How much longer than estimated the finished scenarios took; 1 before any
   * has finished. Never below 1: a machine that is fast early on earns no
   * credit it might need later.
   */
  get pace(): number {
    return this.estimatedSeconds > 0 ? Math.max(1, this.actualSeconds / this.estimatedSeconds) : 1;
  }

  /** Runs for the scenario at `index`, with `elapsedSeconds` of the suite gone (dataset generation included). */
  runsFor(index: number, elapsedSeconds: number): number {
    const rest = this.scenarios.slice(index);
    const runs = rest.map((scenario) => scenario.defaultRuns);
    const planned = () => this.pace * rest.reduce((sum, scenario, i) => sum + runs[i] * scenario.secondsPerRun, 0);
    const left = this.budgetSeconds - elapsedSeconds;
    while (planned() > left) {
      const costliest = costliestCuttable(rest, runs);
      if (costliest === -1) break; // every scenario is down to one run: nothing more to take
      runs[costliest]--;
    }
    return runs[0] ?? 0;
  }

  /** The scenario at `index` has finished `runs` runs in `seconds`. */
  finished(index: number, runs: number, seconds: number): void {
    this.estimatedSeconds += runs * this.scenarios[index].secondsPerRun;
    this.actualSeconds += seconds;
  }
}

function costliestCuttable(scenarios: readonly BudgetedScenario[], runs: number[]): number {
  let pick = -1;
  scenarios.forEach((scenario, i) => {
    if (runs[i] > 1 && (pick === -1 || scenario.secondsPerRun > scenarios[pick].secondsPerRun)) pick = i;
  });
  return pick;
}
