import { Type, type ObjectOptions, type TProperties, type TSchema } from "@sinclair/typebox";

/**
 * TypeBox parts for the REST-only shapes (alert subscriptions). The read resources' answers are declared once in zod
 * (`src/read/schemas`) and derived with `fromZod`.
 */

/** An object that lists every member (the responses are documented exactly; extra members are a schema change). */
export const closed = <T extends TProperties>(properties: T, options: ObjectOptions = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** `T` or null ("not measured" / "no data", never zero). */
export const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
