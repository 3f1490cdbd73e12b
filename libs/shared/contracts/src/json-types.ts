// Names for the JSON a number or a string stands for, where TypeScript has only `number` and
// `string`: the message schemas (docs/asyncapi) are generated from the contract types, and these
// aliases are how a type says "a whole number" or "an instant" there (ts-json-schema-generator reads
// the annotations). To TypeScript they are the plain types.

/** A whole number. @asType integer */
export type Integer = number;

/** An instant in ISO 8601, UTC (`2026-11-22T09:30:00.000Z`). @format date-time */
export type Timestamp = string;
