import { DemoChainError } from "../errors/chain";
import type { DemoDecline, DemoLendingSpec, DemoPairSpec, DemoRange } from "./demoConfig";
import type { Prng } from "./prng";

/** Where the simulation steers one pool each day: the history is planned first, then played on chain. */
export interface DemoPoolPlan {
  /** One entry per day. AMM: LP token supply relative to the start. Lending: supplied amount relative to the start. */
  liquidity: number[];
  /** Lending only, one entry per day: the borrowed / supplied target. */
  utilization?: number[];
  /** The scripted events, in order, for the log: e.g. `day 31 whale −62 % (back in 6 d)`. */
  events: string[];
}

export type PlanDemoPoolParameters = {
  /** The pool's spec from `DEMO_CHAINS`: a pair or a lending reserve. */
  spec: DemoPairSpec | DemoLendingSpec;
  /** Days of history (the plan has one entry per day; day 0 is the start, at 1). */
  days: number;
  /** The pool's own PRNG stream. */
  rng: Prng;
};
export type PlanDemoPoolReturnType = DemoPoolPlan;
export type PlanDemoPoolErrorType = DemoChainError;

/** Daily wander of an AMM's liquidity and of a reserve's supply: a log random walk reverting to the start. */
const WANDER = { pairStep: 0.03, supplyStep: 0.025, revert: 0.05 } as const;
/** Utilisation random walk bounds and its reversion to the starting utilisation. */
const UTILIZATION = { min: 0.2, max: 0.88, revert: 0.1 } as const;

/** Cash (supplied − borrowed) the simulation always leaves in a reserve, as a share of its supply. */
export const CASH_FLOOR = 0.02;

/**
 * Plans one pool's history from its activity profile (`demoConfig.ts`): the daily wander, plus whale
 * withdrawals, a liquidity-mining decline, or borrow spikes. Pure and deterministic for a given PRNG state.
 * Throws `DemoChainError` naming the field for a bad `days` or profile (a probability outside [0, 1], a range
 * with min > max, a floor outside (0, 1], a utilisation outside [0, 1 − cash floor)).
 *
 * @param parameters - {@link PlanDemoPoolParameters}
 * @returns {@link DemoPoolPlan}
 *
 * @example
 * import { DEMO_CHAINS } from "./src/demo/demoConfig";
 * import { createPrng } from "./src/demo/prng";
 * import { planDemoPool } from "./src/demo/planDemoPool";
 * const plan = planDemoPool({ spec: DEMO_CHAINS[0].pairs[2], days: 120, rng: createPrng(1) });
 */
export function planDemoPool(parameters: PlanDemoPoolParameters): PlanDemoPoolReturnType {
  const { spec, days, rng } = parameters;
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new DemoChainError(`days must be a positive integer, got ${String(days)}`);
  }
  checkActivity(spec);
  const events: string[] = [];
  if ("base" in spec) {
    const wander = logWalk(rng, days, WANDER.pairStep);
    const level = new Array<number>(days).fill(1);
    const activity = spec.activity;
    if (activity.kind === "whale") {
      for (let d = 1; d < days;) {
        if (!rng.chance(activity.perDay)) {
          d++;
          continue;
        }
        const withdrawn = draw(rng, activity.withdrawn);
        const back = drawInt(rng, activity.returnDays);
        events.push(`day ${d + 1} whale −${Math.round(withdrawn * 100)} % (back in ${back} d)`);
        for (let k = 0; k <= back && d + k < days; k++) level[d + k] = 1 - withdrawn + (withdrawn * k) / back;
        d += back + 1;
      }
    } else if (activity.kind === "decline") {
      declineInto(level, rng, activity, events, "LPs leaving");
    }
    return { liquidity: wander.map((w, d) => w * level[d]), events };
  }

  const { utilizationStep, spikes, supplyDecline } = spec.activity;
  const supply = new Array<number>(days).fill(1);
  if (supplyDecline !== undefined) declineInto(supply, rng, supplyDecline, events, "suppliers leaving");
  const liquidity = logWalk(rng, days, WANDER.supplyStep).map((w, d) => w * supply[d]);
  const utilization: number[] = [];
  let walk = spec.utilization;
  while (utilization.length < days) {
    const d = utilization.length;
    if (d > 0) {
      const pull = UTILIZATION.revert * (spec.utilization - walk);
      walk = Math.min(
        UTILIZATION.max,
        Math.max(UTILIZATION.min, walk + pull + draw(rng, [-utilizationStep, utilizationStep])),
      );
    }
    if (spikes !== undefined && d > 0 && rng.chance(spikes.perDay)) {
      const peak = draw(rng, spikes.peak);
      const hold = drawInt(rng, spikes.holdDays);
      const repay = drawInt(rng, spikes.repayDays);
      events.push(`day ${d + 1} borrow spike to ${Math.round(peak * 100)} % (${hold} d, repaid in ${repay} d)`);
      for (let k = 0; k < hold; k++) utilization.push(peak);
      for (let k = 1; k <= repay; k++) utilization.push(peak + ((walk - peak) * k) / repay);
      continue;
    }
    utilization.push(walk);
  }
  return { liquidity, utilization: utilization.slice(0, days), events };
}

/** Throws `DemoChainError` for a profile the planner cannot follow. */
function checkActivity(spec: DemoPairSpec | DemoLendingSpec): void {
  const name = "base" in spec ? `${spec.base}-${spec.quote}` : spec.symbol;
  const fail = (field: string, value: unknown, expected: string) => {
    throw new DemoChainError(`${name}: activity.${field} must be ${expected}, got ${JSON.stringify(value)}`);
  };
  const share = (field: string, value: number, max = 1) => {
    if (!(Number.isFinite(value) && value >= 0 && value <= max)) fail(field, value, `in [0, ${max}]`);
  };
  const range = (field: string, value: DemoRange, max = 1, integer = false) => {
    share(`${field}[0]`, value[0], max);
    share(`${field}[1]`, value[1], max);
    if (value[0] > value[1]) fail(field, value, "a [min, max] range");
    if (integer && !value.every((v) => Number.isSafeInteger(v) && v >= 1)) fail(field, value, "whole days ≥ 1");
  };
  const decline = (field: string, value: DemoDecline) => {
    if (!(Number.isSafeInteger(value.sinceDaysAgo) && value.sinceDaysAgo >= 0)) {
      fail(`${field}.sinceDaysAgo`, value.sinceDaysAgo, "a whole number of days ≥ 0");
    }
    range(`${field}.perDay`, value.perDay);
    if (!(value.floor > 0 && value.floor <= 1)) fail(`${field}.floor`, value.floor, "in (0, 1]");
  };
  if ("base" in spec) {
    const activity = spec.activity;
    if (activity.kind === "whale") {
      share("perDay", activity.perDay);
      range("withdrawn", activity.withdrawn, 0.99);
      range("returnDays", activity.returnDays, Number.MAX_SAFE_INTEGER, true);
    } else if (activity.kind === "decline") decline("decline", activity);
    else if (activity.kind !== "steady") fail("kind", (activity as { kind: unknown }).kind, "steady, whale or decline");
    return;
  }
  const { utilizationStep, spikes, supplyDecline } = spec.activity;
  share("utilizationStep", utilizationStep);
  if (!(spec.utilization >= UTILIZATION.min && spec.utilization <= UTILIZATION.max)) {
    throw new DemoChainError(
      `${name}: utilization must be in [${UTILIZATION.min}, ${UTILIZATION.max}], got ${spec.utilization}`,
    );
  }
  if (spikes !== undefined) {
    share("spikes.perDay", spikes.perDay);
    range("spikes.peak", spikes.peak, 1 - CASH_FLOOR);
    range("spikes.holdDays", spikes.holdDays, Number.MAX_SAFE_INTEGER, true);
    range("spikes.repayDays", spikes.repayDays, Number.MAX_SAFE_INTEGER, true);
  }
  if (supplyDecline !== undefined) decline("supplyDecline", supplyDecline);
}

/** Multiplies `level` from the decline's first day on by the remaining share, and notes the event. */
function declineInto(level: number[], rng: Prng, decline: DemoDecline, events: string[], what: string): void {
  const start = Math.max(1, level.length - decline.sinceDaysAgo);
  if (start >= level.length) return;
  events.push(`${what} from day ${start + 1}`);
  let current = 1;
  for (let d = start; d < level.length; d++) {
    if (current > decline.floor) current = Math.max(decline.floor, current * (1 - draw(rng, decline.perDay)));
    level[d] *= current;
  }
}

/** exp of a random walk from 0 with steps in [−step, step) and reversion towards 0. */
function logWalk(rng: Prng, days: number, step: number): number[] {
  const out: number[] = [];
  let x = 0;
  for (let d = 0; d < days; d++) {
    if (d > 0) x += -WANDER.revert * x + draw(rng, [-step, step]);
    out.push(Math.exp(x));
  }
  return out;
}

function draw(rng: Prng, [min, max]: DemoRange): number {
  return rng.between(min, max);
}

function drawInt(rng: Prng, [min, max]: DemoRange): number {
  return rng.int(min, max);
}
