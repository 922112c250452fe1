// Compile-time checks against ACP's own TypeScript types (`@agentclientprotocol/sdk`, types
// only; its runtime is not bundled). If the SDK adds a session update, a tool kind or a status,
// `npm run typecheck` fails here until ingest knows it.
import type { SessionUpdate as StableUpdate, ToolCallStatus } from '@agentclientprotocol/sdk';
import type { SessionUpdate as UnstableUpdate } from '@agentclientprotocol/sdk/unstable';
import type { CallStatus } from './acpTypes';
import type { KnownSessionUpdate } from './acpMethods';
import type { callStatusSchema } from './schemas';

type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Expect<T extends true> = T;

export type SdkChecks = [
  Expect<Equal<CallStatus, ToolCallStatus>>,
  Expect<Equal<(typeof callStatusSchema)['options'][number], ToolCallStatus>>,
  // Every variant the SDK can send is one ingest reads (the rest of ours are Grok's vendor tags).
  Expect<StableUpdate['sessionUpdate'] extends KnownSessionUpdate ? true : false>,
  Expect<UnstableUpdate['sessionUpdate'] extends KnownSessionUpdate ? true : false>,
];
