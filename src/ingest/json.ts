// The plain-object guard, apart from the zod schemas: the page imports it (through model/inputs
// and model/subject) and should not load zod and every schema on the main thread for it.
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `json` parsed, when it is a JSON object; undefined for anything else (never throws). */
export function parseObject(json: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
