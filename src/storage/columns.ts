import type { ColumnType } from "kysely";

/** A column the database fills (an auto-increment id): optional on insert. */
export type Generated<T> = ColumnType<T, T | undefined, never>;
