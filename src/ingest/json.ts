// The plain-object guard, apart from the zod schemas: the page imports it (through model/inputs
// and model/subject) and should not load zod and every schema on the main thread for it.
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
