// Types for scripts/build-node.mjs, so TypeScript test helpers build with it too.
export function buildForNode<Name extends string>(inputs: Record<Name, string>, outDir: string, logLevel?: 'info' | 'warn' | 'error' | 'silent'): Promise<Record<Name, string>>;
