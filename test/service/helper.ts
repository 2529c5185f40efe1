/**
 * Moved to test/helpers/service/app.ts. This re-export stays only for test/mcp/helpers/, test/web/helpers/ and
 * test/web/pages.test.ts, which import this path and move to test/helpers/ separately; delete it then.
 */
export * from "../helpers/service/app";
