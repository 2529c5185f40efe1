/**
 * A comma-separated request parameter as a list (`pools=a,b`, `kind=pool.stale,pool.fresh`): each item trimmed, in
 * order, nothing dropped but the whole of an empty or absent text (`[]`), so the reader judges every item itself.
 * The REST routes (query strings) and the MCP tools (a model may send a list as one string) both use it.
 *
 * @param text the parameter as sent, or undefined.
 * @returns the items.
 * @example
 * import { splitList } from "./read/splitList";
 * splitList(" eip155:1:0xb4e1…, 8453:0x67ff… "); // ["eip155:1:0xb4e1…", "8453:0x67ff…"]
 * splitList(""); // []
 */
export function splitList(text: string | undefined): string[] {
  return text === undefined || text === "" ? [] : text.split(",").map((item) => item.trim());
}
