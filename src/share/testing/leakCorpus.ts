// The leak corpus (tests and `npm run redact:corpus`, never the app): for each gitleaks rule a value
// that matches it, synthesised from the rule's own regex (randexp, seeded, so every run makes the
// same values) and checked with RE2 as gitleaks checks a finding (its secret group, entropy, a
// digit for generic rules, the allowlists); beside them Loupe's context kinds (a secret under a
// secret's name whatever its characters, a long key, Bearer tokens in full, config syntaxes). Each
// is placed in every place a session keeps text: an ACP command and tool output, a message streamed
// in chunks, `loupe tee` stderr and stdout text lines, Claude Code tool_use and tool_result, Codex
// function_call (arguments: JSON in a JSON string) and its output. Beside them, ordinary lines (code,
// logs, URLs, hashes, UUIDs, git SHAs, base64 of bytes) that must come through unchanged.
import RandExp from 'randexp';
import { RE2JS } from 're2js';
import gitleaks from '../redact/gitleaks/rules.json';

export interface CorpusSecret {
  kind: string;
  /** What must not survive redaction. */
  value: string;
  /** The text it is written in. */
  text: string;
  /** What redaction may replace, when more than the value (a private key's whole block). */
  whole?: string;
}

/** A deterministic generator (xorshift), so the corpus is the same in every run. */
export function seeded(seed: number): (from: number, to: number) => number {
  let state = seed >>> 0 || 1;
  return (from, to) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return from + ((state >>> 0) % (to - from + 1));
  };
}

/** A gitleaks (Go RE2) regex as randexp reads it: inline flags dropped, `\z` as `$`, POSIX classes spelled out. */
function forRandexp(regex: string): string {
  return regex
    .replace(/\(\?[is-]+\)/g, '')
    .replace(/\(\?-?[is]+:/g, '(?:')
    .replace(/\\z/g, '$')
    .replace(/\[\[:alnum:\]\]/g, '[a-zA-Z0-9]')
    .replace(/\[:alnum:\]/g, 'a-zA-Z0-9');
}

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}

interface Rule {
  id: string;
  regex: string;
  keywords: string[];
  secretGroup?: number;
  entropy?: number;
}

/** A value for each gitleaks rule that gitleaks itself would report (rules whose regex yields none in 200 tries are left out). */
export function gitleaksSamples(): CorpusSecret[] {
  const out: CorpusSecret[] = [];
  (gitleaks.rules as Rule[]).forEach((rule, index) => {
    const random = seeded(0x9e3779b1 ^ (index * 7919));
    let generator: RandExp;
    try {
      generator = new RandExp(forRandexp(rule.regex));
    } catch {
      return;
    }
    generator.max = 24;
    generator.defaultRange.subtract(0, 0xffff);
    generator.defaultRange.add(0x21, 0x7e);
    generator.randInt = random;
    const re = RE2JS.compile(rule.regex);
    for (let attempt = 0; attempt < 200; attempt++) {
      const sample = generator.gen();
      if (sample.includes('\n') || /["'`\\]/.test(sample)) continue;
      // gitleaks reads a rule only where one of its keywords is.
      if (!rule.keywords.some((keyword) => sample.toLowerCase().includes(keyword))) continue;
      const text = `${sample}\n`;
      const matcher = re.matcher(text);
      if (!matcher.find()) continue;
      let group = rule.secretGroup ?? 0;
      if (!group) for (let g = 1; g <= matcher.groupCount(); g++) if (matcher.group(g)) { group = g; break; }
      const value = matcher.group(group) ?? '';
      if (value.length < 6) continue;
      if (rule.entropy && (entropy(value) <= rule.entropy || (rule.id.startsWith('generic') && !/\d/.test(value)))) continue;
      out.push({ kind: rule.id, value, text: sample });
      return;
    }
  });
  return out;
}

/** Loupe's context kinds: secrets a token's shape does not tell, and syntaxes a scanner of files does not expect. */
export function contextSamples(): CorpusSecret[] {
  const random = seeded(0x10be);
  const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[random(0, alphabet.length - 1)]).join('');
  const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const B64 = `${ALNUM}+/`;
  const out: CorpusSecret[] = [];
  const add = (kind: string, value: string, text: string) => out.push({ kind, value, text });
  let v = `s.${pick(ALNUM, 24)}`;
  add('env-vault-token', v, `export VAULT_TOKEN=${v}`);
  v = `dp.st.dev.${pick(ALNUM, 40)}`;
  add('env-doppler-token', v, `DOPPLER_TOKEN=${v} doppler run -- ./start`);
  v = `Tr0ub4dor&${pick(ALNUM, 6)}!q`;
  add('env-password-ampersand', v, `# .env\nDB_PASSWORD=${v}\nDB_HOST=localhost`);
  v = `/${pick(B64, 39)}=`;
  add('env-value-slash', v, `SECRET_KEY=${v}`);
  v = `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t${pick(B64, 560)}`;
  add('bedrock-long-value', v, `export AWS_BEARER_TOKEN_BEDROCK=${v}`);
  v = `7|${pick(ALNUM, 40)}`;
  add('bearer-pipe', v, `curl -H "Authorization: Bearer ${v}" https://app.example.com/api/user`);
  v = `${pick(ALNUM, 12)}%2F${pick(ALNUM, 12)}%3D%3D`;
  add('bearer-percent', v, `Authorization: Bearer ${v}`);
  v = `${pick(ALNUM, 10)}:${pick(ALNUM, 24)}`;
  add('bearer-colon', v, `headers = {"Authorization": "Bearer ${v}"}`);
  v = btoa(`deploy:${pick(ALNUM, 14)}`);
  add('docker-config-auth', v, `$ cat ~/.docker/config.json\n{\n  "auths": {\n    "registry.example.com": {\n      "auth": "${v}"\n    }\n  }\n}`);
  v = pick(ALNUM, 28);
  add('php-array-secret', v, `    'secret_key' => '${v}',`);
  v = `${pick(ALNUM, 10)}#${pick(ALNUM, 4)}`;
  add('nuget-cleartext-password', v, `<packageSourceCredentials><acme><add key="Username" value="ci" /><add key="ClearTextPassword" value="${v}" /></acme></packageSourceCredentials>`);
  v = pick('0123456789abcdef', 32);
  add('gitlab-session-cookie', v, `curl -b "_gitlab_session=${v}" https://gitlab.example.com/api/v4/user`);
  const body = Array.from({ length: 5 }, () => pick(B64, 64));
  const key = `-----BEGIN PRIVATE KEY-----\\n${body.join('\\n')}\\n-----END PRIVATE KEY-----`;
  out.push({
    kind: 'heredoc-service-account',
    value: body[2]!,
    whole: key,
    text: `cat > sa.json <<'EOF'\n{"type": "service_account", "project_id": "acme", "private_key": "${key}\\n", "client_email": "ci@acme.iam.gserviceaccount.com"}\nEOF`,
  });
  v = pick(ALNUM, 10);
  add('badge-token', v, `[![codecov](https://codecov.io/gh/acme/app/branch/main/graph/badge.svg?token=${v})](https://codecov.io/gh/acme/app)`);
  v = `p@ss/w.rd&${pick(ALNUM, 8)}`;
  add('yaml-password', v, `database:\n  password: "${v}"\n  host: db.internal`);
  return out;
}

/** Every secret of the corpus: gitleaks' rules and Loupe's context kinds. */
export function corpusSecrets(): CorpusSecret[] {
  return [...gitleaksSamples(), ...contextSamples()];
}

const ts = (n: number) => 1_764_600_000_000 + n;

/** A place a session keeps text: the JSONL lines that hold `text`, and how a reader joins them back. */
export interface Placement {
  name: string;
  lines: (text: string, n: number) => string[];
  /** Stream texts are read joined (chunks with nothing between them). */
  joined?: boolean;
}

const acp = (update: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } });

export const PLACEMENTS: readonly Placement[] = [
  { name: 'acp command', lines: (text, n) => [acp({ sessionUpdate: 'tool_call', toolCallId: `c${n}`, title: 'Run', kind: 'execute', status: 'pending', rawInput: { command: text } })] },
  {
    name: 'acp tool output',
    lines: (text, n) => [acp({ sessionUpdate: 'tool_call_update', toolCallId: `c${n}`, status: 'completed', content: [{ type: 'content', content: { type: 'text', text } }], rawOutput: { stdout: text } })],
  },
  {
    name: 'streamed chunks',
    joined: true,
    lines: (text) => {
      const lines: string[] = [];
      for (let at = 0; at < text.length; at += 9) lines.push(acp({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: text.slice(at, at + 9) } }));
      return lines;
    },
  },
  { name: 'tee stderr', lines: (text, n) => text.split('\n').map((line, i) => JSON.stringify({ t_ms: ts(n * 100 + i), dir: 'stderr', text: line })) },
  { name: 'tee stdout text', lines: (text, n) => [JSON.stringify({ t_ms: ts(n), dir: 'agent->client', text })] },
  {
    name: 'claude tool_use',
    lines: (text, n) => [JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'Bash', input: { command: text, description: 'Run it' } }] } })],
  },
  {
    name: 'claude tool_result',
    lines: (text, n) => [JSON.stringify({ type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${n}`, type: 'tool_result', content: text }] } })],
  },
  {
    name: 'codex function_call',
    lines: (text, n) => [JSON.stringify({ timestamp: '2026-12-01T14:09:37.213Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', text] }), call_id: `call_${n}` } })],
  },
  {
    name: 'codex output',
    lines: (text, n) => [JSON.stringify({ timestamp: '2026-12-01T14:09:37.223Z', type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${n}`, output: JSON.stringify({ output: text, metadata: { exit_code: 0 } }) } })],
  },
];

/** Every string in the lines, JSON in strings read too, terminal colours taken out; chunks joined as a reader joins them. */
export function readBack(lines: readonly string[], joined = false): string {
  const strings: string[] = [];
  if (joined) {
    for (const line of lines) {
      const { params } = JSON.parse(line) as { params?: { update?: { content?: { text?: string } } } };
      strings.push(params?.update?.content?.text ?? '');
    }
    return strings.join('');
  }
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      strings.push(value);
      if (/^\s*[[{]/.test(value)) {
        try {
          walk(JSON.parse(value));
        } catch {
          // text, not JSON
        }
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const line of lines) {
    try {
      walk(JSON.parse(line));
    } catch {
      strings.push(line);
    }
  }
  // eslint-disable-next-line no-control-regex -- terminal escapes are what this takes out
  return strings.join('\n').replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '');
}

/** Ordinary lines: code, logs, URLs, hashes, UUIDs, git SHAs, base64 of bytes. None holds a secret. */
export function ordinaryLines(count = 1700): string[] {
  const random = seeded(0x0dd1);
  const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[random(0, alphabet.length - 1)]).join('');
  const one = <T>(items: readonly T[]): T => items[random(0, items.length - 1)]!;
  const HEX = '0123456789abcdef';
  const uuid = () => `${pick(HEX, 8)}-${pick(HEX, 4)}-4${pick(HEX, 3)}-${one(['8', '9', 'a', 'b'])}${pick(HEX, 3)}-${pick(HEX, 12)}`;
  const sha = () => pick(HEX, 40);
  const bytes = (length: number) => btoa(String.fromCharCode(...Array.from({ length }, () => random(0, 255))));
  const word = () => one(['session', 'user', 'build', 'cache', 'index', 'worker', 'config', 'router', 'schema', 'token', 'key', 'auth', 'secret', 'password', 'request', 'response', 'handler', 'client', 'server', 'stream']);
  const ident = () => `${word()}${one(['Id', 'Count', 'Name', 'Path', 'Url', 'Hash', 'Key', 'Type', 'Value', 'List'])}`;
  const file = () => `src/${one(['model', 'store', 'ui', 'cli', 'worker', 'ingest'])}/${word()}${one(['', 'Store', 'View', 'Reader'])}.${one(['ts', 'tsx', 'js', 'py', 'go', 'rs'])}`;
  const time = () => `2026-0${random(1, 9)}-${String(random(10, 28))}T${String(random(10, 23))}:${String(random(10, 59))}:${String(random(10, 59))}.${pick('0123456789', 3)}Z`;
  const templates: (() => string)[] = [
    () => `const ${ident()} = await ${word()}Store.get(${ident()});`,
    () => `export function ${word()}${one(['Of', 'For', 'From'])}(${ident()}: string, ${ident()}?: number): ${one(['string', 'boolean', 'void', 'Promise<void>'])} {`,
    () => `  if (!${ident()}) throw new Error('${word()} is required');`,
    () => `import { ${ident()}, ${ident()} } from '../${word()}/${word()}';`,
    () => `def ${word()}_${word()}(self, ${word()}_id: str, ${word()}: Optional[str] = None) -> dict:`,
    () => `    ${word()}_key = os.environ.get("${word().toUpperCase()}_${one(['KEY', 'TOKEN', 'PASSWORD', 'SECRET'])}")`,
    () => `func (s *${one(['Server', 'Client', 'Store'])}) ${one(['Get', 'Put', 'Delete'])}${one(['Token', 'Key', 'User'])}(ctx context.Context, id string) error {`,
    () => `let ${word()}_${word()}: Vec<u8> = ${word()}.iter().map(|x| x * 2).collect();`,
    () => `${time()} INFO  [${word()}] request_id=${uuid()} method=${one(['GET', 'POST', 'PUT'])} path=/api/v1/${word()}s/${random(1, 99999)} status=${one([200, 201, 204, 404, 500])} duration_ms=${random(1, 900)}`,
    () => `${time()} WARN  ${word()} retry ${random(1, 5)}/5 after ${random(100, 9000)}ms: ECONNRESET`,
    () => `[${time()}] DEBUG ${word()}.${word()} cache hit key=${word()}:${pick(HEX, 16)} ttl=${random(10, 3600)}s`,
    () => `commit ${sha()}`,
    () => `Merge: ${pick(HEX, 7)} ${pick(HEX, 7)}`,
    () => `${pick(HEX, 7)} ${one(['fix', 'feat', 'chore', 'docs'])}(${word()}): ${word()} ${one(['reads', 'keeps', 'drops', 'joins'])} the ${word()} ${one(['once', 'in place', 'by id', 'again'])}`,
    () => `index ${pick(HEX, 7)}..${pick(HEX, 7)} 100644`,
    () => `diff --git a/${file()} b/${file()}`,
    () => ` ${file()} | ${random(1, 300)} ${'+'.repeat(random(1, 20))}${'-'.repeat(random(0, 10))}`,
    () => `sha256:${pick(HEX, 64)}`,
    () => `${pick(HEX, 64)}  ${word()}-${random(1, 9)}.${random(0, 20)}.${random(0, 9)}.tgz`,
    () => `"integrity": "sha512-${bytes(64)}",`,
    () => `"resolved": "https://registry.npmjs.org/${word()}-${word()}/-/${word()}-${word()}-${random(1, 9)}.${random(0, 9)}.${random(0, 9)}.tgz",`,
    () => `https://github.com/${word()}/${word()}-${word()}/pull/${random(1, 9999)}#issuecomment-${random(100000000, 999999999)}`,
    () => `https://example.com/${word()}s?page=${random(1, 50)}&per_page=${random(10, 100)}&sort=${word()}&order=desc`,
    () => `GET /api/v2/${word()}s/${uuid()}/${word()}s?include=${word()},${word()} HTTP/1.1`,
    () => `id: ${uuid()}`,
    () => `{"id":"${uuid()}","${word()}Id":"${uuid()}","createdAt":"${time()}","status":"${one(['ok', 'failed', 'pending'])}"}`,
    () => `  "${word()}_hash": "${pick(HEX, 32)}",`,
    () => `data:image/png;base64,${bytes(random(40, 120))}`,
    () => `${one(['    ', '  '])}${bytes(48)}`,
    () => `X-Request-Id: ${uuid()}`,
    () => `ETag: "${pick(HEX, 32)}"`,
    () => `  ${word()}Token: ${one(['string', 'number', 'undefined', 'null'])};`,
    () => `max_tokens: ${random(100, 8000)}   # ${word()} budget`,
    () => `${one(['npm', 'pnpm', 'yarn'])} ${one(['install', 'run build', 'test'])} --${word()}  # took ${random(1, 90)}s`,
    () => `added ${random(1, 900)} packages, and audited ${random(100, 2000)} packages in ${random(1, 60)}s`,
    () => `✓ ${file()} (${random(1, 80)} tests) ${random(10, 3000)}ms`,
    () => `    at ${word()}${one(['Handler', 'Store', 'Reader'])}.${word()} (${file()}:${random(1, 900)}:${random(1, 80)})`,
    () => `docker run --rm -p ${random(3000, 9000)}:80 -v $(pwd):/app ${word()}/${word()}:${random(1, 9)}.${random(0, 9)}`,
    () => `git checkout -b ${word()}/${word()}-${random(1, 999)} && git push -u origin HEAD`,
    () => `tokens: ${random(100, 90000)} in, ${random(10, 9000)} out (cache read ${random(0, 90000)})`,
    () => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${bytes(32).slice(0, 43)} dev@${word()}`,
    () => `eyJ${word()}: ${word()}  # a word, not a token`,
    () => `[![build](https://github.com/${word()}/${word()}/actions/workflows/ci.yml/badge.svg)](https://github.com/${word()}/${word()}/actions)`,
    () => `password_min_length = ${random(8, 16)}  # ${word()} policy`,
    () => `Set the ${word()} token with \`export API_TOKEN=...\` before running.`,
    () => `| ${word()} | ${random(1, 999)} | ${pick(HEX, 12)} | ${one(['yes', 'no'])} |`,
    () => `${random(1, 99)}.${random(0, 255)}.${random(0, 255)}.${random(0, 255)} - - [${time()}] "GET /${word()} HTTP/1.1" 200 ${random(100, 99999)}`,
    () => `  File "/usr/lib/python3.12/${word()}/${word()}.py", line ${random(1, 900)}, in ${word()}`,
    () => `Compiling ${word()}-${word()} v${random(0, 3)}.${random(0, 30)}.${random(0, 9)}`,
    () => `-rw-r--r--  1 dev  staff  ${random(100, 99999)} Dec  ${random(1, 28)} ${random(10, 23)}:${random(10, 59)} ${word()}.${one(['json', 'ts', 'md', 'lock'])}`,
    () => `AKIA is the prefix of an AWS access key id; ${word()} keys start with sk_.`,
    () => `const ${word()}Pattern = /^[A-Za-z0-9_-]{${random(10, 40)},}$/;`,
  ];
  return Array.from({ length: count }, (_, index) => templates[index % templates.length]!());
}
