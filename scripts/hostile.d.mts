// Types for scripts/hostile.mjs, so TypeScript tests can generate the hostile cases.
export interface HostileCase {
  name: string;
  file: string;
  bytes: number;
  open?: { callId?: string; tab?: string; kind?: string; facets?: number };
  alsoOpen?: { callId: string; tab?: string }[];
}

export function writeHostileCases(dir: string, only?: string, options?: { scale?: number }): HostileCase[];
