/**
 * Weighted logistic regression on grouped data, by Newton's method: rows of features with a weight and an observed
 * rate; the fit maximises Σ weight × (rate × ln p + (1 − rate) × ln(1 − p)), p = 1 / (1 + e^(−β·x)), less a ridge
 * penalty on every coefficient but the intercept, with one pseudo-row of weight {@link LOGISTIC_PSEUDO_WEIGHT} at rate
 * one half at the weighted mean of the features (so a set where every row held, or none did, gives a finite fit, and a
 * thin set stays near one half).
 */

/** The weight of the pseudo-row at rate one half. */
export const LOGISTIC_PSEUDO_WEIGHT = 1;
/** The ridge penalty on the slopes (features are centred before the fit). */
export const LOGISTIC_RIDGE = 0.01;

export interface LogisticRow {
  /** Features, without the intercept. */
  x: readonly number[];
  /** The row's weight (effective trials). */
  weight: number;
  /** Its observed rate in [0, 1]. */
  rate: number;
}

/**
 * The fitted coefficients: `[intercept, slope of x[0], slope of x[1], …]`; with no row, the pseudo-row alone (0 and
 * flat slopes).
 *
 * @param rows grouped observations.
 * @param features the number of features per row.
 */
export function fitLogistic(rows: readonly LogisticRow[], features: number): number[] {
  const k = features + 1;
  const n = rows.length + 1;
  // Rows laid out flat (the intercept's 1 first), centred on the weighted mean; the last row is the pseudo-row.
  const x = new Float64Array(n * k);
  const weight = new Float64Array(n);
  const rate = new Float64Array(n);
  const mean = new Float64Array(k);
  let total = 0;
  let heldWeight = 0;
  for (const row of rows) {
    total += row.weight;
    heldWeight += row.weight * row.rate;
    for (let j = 1; j < k; j++) mean[j] += row.weight * row.x[j - 1];
  }
  if (total > 0) for (let j = 1; j < k; j++) mean[j] /= total;
  rows.forEach((row, i) => {
    x[i * k] = 1;
    for (let j = 1; j < k; j++) x[i * k + j] = row.x[j - 1] - mean[j];
    weight[i] = row.weight;
    rate[i] = row.rate;
  });
  x[(n - 1) * k] = 1;
  weight[n - 1] = LOGISTIC_PSEUDO_WEIGHT;
  rate[n - 1] = 0.5;
  const start = (heldWeight + LOGISTIC_PSEUDO_WEIGHT / 2) / (total + LOGISTIC_PSEUDO_WEIGHT);
  const beta = new Array<number>(k).fill(0);
  beta[0] = Math.log(start / (1 - start));
  const gradient = new Array<number>(k);
  const hessian = Array.from({ length: k }, () => new Array<number>(k));
  for (let iteration = 0; iteration < 50; iteration++) {
    gradient.fill(0);
    for (const line of hessian) line.fill(0);
    for (let i = 0; i < n; i++) {
      const o = i * k;
      let eta = 0;
      for (let a = 0; a < k; a++) eta += beta[a] * x[o + a];
      const p = 1 / (1 + Math.exp(-eta));
      const residual = weight[i] * (rate[i] - p);
      const curvature = weight[i] * p * (1 - p);
      for (let a = 0; a < k; a++) {
        gradient[a] += residual * x[o + a];
        const ca = curvature * x[o + a];
        for (let b = a; b < k; b++) hessian[a][b] += ca * x[o + b];
      }
    }
    for (let a = 0; a < k; a++) for (let b = 0; b < a; b++) hessian[a][b] = hessian[b][a];
    for (let a = 1; a < k; a++) {
      gradient[a] -= LOGISTIC_RIDGE * beta[a];
      hessian[a][a] += LOGISTIC_RIDGE;
    }
    const step = solve(hessian, gradient);
    let change = 0;
    for (let a = 0; a < k; a++) {
      beta[a] += step[a];
      change += Math.abs(step[a]);
    }
    if (change < 1e-9) break;
  }
  for (let j = 1; j < k; j++) beta[0] -= beta[j] * mean[j];
  return beta;
}

/** The fitted probability at `x` (features without the intercept). */
export function logisticProbability(beta: readonly number[], x: readonly number[]): number {
  let eta = beta[0];
  for (let j = 0; j < x.length; j++) eta += beta[j + 1] * x[j];
  return 1 / (1 + Math.exp(-eta));
}

/** Solves A·x = b by Gaussian elimination with partial pivoting (A is a small positive definite matrix here). */
function solve(matrix: number[][], vector: number[]): number[] {
  const n = vector.length;
  const m = matrix.map((row, i) => [...row, vector[i]]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    if (!(Math.abs(m[c][c]) > 1e-300)) return new Array<number>(n).fill(0);
    for (let r = c + 1; r < n; r++) {
      const f = m[r][c] / m[c][c];
      for (let q = c; q <= n; q++) m[r][q] -= f * m[c][q];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r][n];
    for (let q = r + 1; q < n; q++) sum -= m[r][q] * x[q];
    x[r] = sum / m[r][r];
  }
  return x;
}
