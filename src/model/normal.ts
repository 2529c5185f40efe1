/**
 * The standard normal distribution function Φ(z), in double precision: Hart's rational approximation (1968) as given
 * by G. West, "Better approximations to cumulative normal functions" (Wilmott, 2005); absolute error below 1e-12.
 */
export function normalCdf(z: number): number {
  const x = Math.abs(z);
  let tail = 0;
  if (x <= 37) {
    const e = Math.exp((-x * x) / 2);
    if (x < 7.07106781186547) {
      const numerator = horner(
        x,
        [
          3.52624965998911e-2, 0.700383064443688, 6.37396220353165, 33.912866078383, 112.079291497871, 221.213596169931,
          220.206867912376,
        ],
      );
      const denominator = horner(
        x,
        [
          8.83883476483184e-2, 1.75566716318264, 16.064177579207, 86.7807322029461, 296.564248779674, 637.333633378831,
          793.826512519948, 440.413735824752,
        ],
      );
      tail = (e * numerator) / denominator;
    } else {
      let b = x + 0.65;
      for (const k of [4, 3, 2, 1]) b = x + k / b;
      tail = e / b / 2.506628274631;
    }
  }
  return z > 0 ? 1 - tail : tail;
}

/** The polynomial with `coefficients` (highest power first) at x. */
function horner(x: number, coefficients: readonly number[]): number {
  return coefficients.reduce((sum, coefficient) => sum * x + coefficient, 0);
}
