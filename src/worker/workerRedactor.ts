// How the parser worker loads the redaction ruleset: a chunk emitted beside the worker's own file.
import type { Redactor } from './redactStream';

export const workerRedactor: Redactor | undefined = () => import('../share/redact/redactLine').then((m) => m.createLineRedactor);
