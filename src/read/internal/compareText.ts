/** Orders strings by code unit (the same on every database and locale), for lists whose stated order is by id. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
