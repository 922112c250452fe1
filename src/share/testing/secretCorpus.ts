// A corpus of secret variants for tests, generated from made-up secrets shaped like real ones (never
// real ones): every kind redaction knows, written as sessions and tools print them (compact JSON,
// .env lines, command lines, headers, links, JSON-escaped URLs, terminal colours through a key, a
// private key over many lines, a service-account JSON), beside a corpus of ordinary code that must
// come through untouched. `corpusSession` puts each variant in each place a person reads text: a
// tool call (its command and its failed output), an agent message streamed in chunks that cut
// through the secret, agent stderr as `loupe tee` records it (a line a record), and a diff; notes
// are the fifth place (`corpusNotes`).
import { PLANTED_SECRETS, type PlantedSecret } from './plantedCorpus';

/** A deterministic generator, so the made-up secrets are the same in every run. */
function madeUp(seed: number): (alphabet: string, length: number) => string {
  let state = seed >>> 0 || 1;
  return (alphabet, length) => {
    let out = '';
    for (let index = 0; index < length; index++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      out += alphabet[(state >>> 0) % alphabet.length];
    }
    return out;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URLSAFE = `${ALNUM}_-`;
const BASE64 = `${ALNUM}+/`;
const LOWER_HEX = '0123456789abcdef';

/** A PEM private key of `lines` lines of 64 base64 characters. */
function pemBody(made: ReturnType<typeof madeUp>, lines: number): string[] {
  return Array.from({ length: lines }, (_, index) => (index === 0 ? 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ' + made(BASE64, 14) : made(BASE64, 64)));
}

/** Every variant; each `value` must be gone from a redacted export, wherever it was put. */
export function secretVariants(): PlantedSecret[] {
  const made = madeUp(0x5eed);
  const v: PlantedSecret[] = [];
  const add = (kind: string, value: string, text: string) => v.push({ kind, value, text });

  // Secrets inside text.
  let s = `Zq${made(ALNUM, 6)}!${made(ALNUM, 4)}`;
  add('password', s, `$ cat config.json\n{"host":"db.internal","password":"${s}","port":5432}`);
  s = made(LOWER_HEX, 32);
  add('password', s, `{"service":"maps","api_key":"${s}"}`);
  s = `ya29.a0${made(URLSAFE, 60)}`;
  add('password', s, `{"access_token":"${s}","expires_in":3599,"token_type":"Bearer"}`);
  s = made(ALNUM, 24);
  add('password', s, `# .env\nTOKEN=${s}\nLOG_LEVEL=debug`);
  s = `Pg${made(ALNUM, 10)}`;
  add('password', s, `DB_HOST=db.internal\nDB_PASS=${s}\n`);
  s = `at_${made(ALNUM, 30)}`;
  add('password', s, `export API_TOKEN=${s}`);
  s = `horse ${made(ALNUM, 5)} & battery ${made(ALNUM, 4)}`;
  add('password', s, `DB_PASSWORD="${s}"`);
  s = `p&ss;${made(ALNUM, 8)}`;
  add('password', s, `SMTP_PASSWORD='${s}'`);
  s = `My${made(ALNUM, 9)}`;
  add('password', s, `$ mysql -h db.internal -u root -p${s} shop < dump.sql`);
  s = made(ALNUM, 14);
  add('password', s, `curl -sS -u admin:${s} https://ci.example.com/api/json`);
  s = made(ALNUM, 16);
  add('password', s, `./deploy.sh --user ops --password ${s} --yes`);
  s = made(URLSAFE, 40);
  add('cookie', s, `GET /account HTTP/1.1\nHost: shop.example.com\nCookie: sessionid=${s}; theme=dark`);
  s = made(ALNUM, 20);
  add('url-password', s, `REDIS_URL=redis://:${s}@cache.internal:6379/0`);
  s = made(URLSAFE, 32);
  add('password', s, `Reset it at https://app.example.com/reset?token=${s}&lang=en`);
  s = made(ALNUM, 12);
  add('url-password', s, `{"remote":"https:\\/\\/deploy:${s}@git.example.com\\/acme\\/app.git"}`);
  s = `ghp_${made(ALNUM, 36)}`;
  // `rg --color=always` highlights what it matched: here the middle of a key.
  add('github-token', s, `src/ci.ts:12:const token = "${s.slice(0, 14)}\u001b[0m\u001b[1m\u001b[31m${s.slice(14, 22)}\u001b[0m${s.slice(22)}";`);
  s = made(ALNUM, 18);
  add('url-password', s, `git remote -v\norigin  https://bob:${s}@example.com/acme/app.git (fetch)`);

  // Kinds.
  s = `sk-ant-oat01-${made(URLSAFE, 93)}AA`;
  add('anthropic-oauth-token', s, `~/.claude/.credentials.json: {"claudeAiOauth":{"accessToken":"${s}"}}`);
  s = `sk-ant-ort01-${made(URLSAFE, 93)}AA`;
  add('anthropic-oauth-token', s, `refresh with ${s}`);
  s = `${made(BASE64, 86)}==`;
  add('azure-storage-key', s, `AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmestore;AccountKey=${s};EndpointSuffix=core.windows.net`);
  s = `${made(ALNUM, 30)}%2B${made(ALNUM, 10)}%3D`;
  add('azure-sas-signature', s, `az storage blob url -> https://acmestore.blob.core.windows.net/logs/app.log?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31&sig=${s}`);
  s = `${made(ALNUM, 3)}8Q~${made(`${ALNUM}_~.`, 34)}`;
  add('azure-ad-client-secret', s, `az ad app credential reset -> {"appId":"00000000-1111-2222-3333-444444444444","password":"${s}","tenant":"contoso"}`);
  s = `pypi-AgEIcHlwaS5vcmc${made(URLSAFE, 140)}`;
  add('pypi-token', s, `[pypi]\n  username = __token__\n  password = ${s}`);
  s = `hvs.${made(URLSAFE, 91)}`;
  add('vault-token', s, `$ vault login\nSuccess! token  ${s}`);
  s = `xapp-1-A${made('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 10)}-${made('0123456789', 13)}-${made(LOWER_HEX, 64)}`;
  add('slack-token', s, `SLACK_APP_TOKEN: ${s}`);
  s = `${made('123456789', 10)}:AA${made(URLSAFE, 33)}`;
  add('telegram-bot-token', s, `bot = telegram.Bot("${s}")`);

  // Keys over many lines: a PEM printed by `cat`, and a GCP service-account JSON.
  const pem = pemBody(made, 6);
  add('private-key', pem[3]!, `-----BEGIN PRIVATE KEY-----\n${pem.join('\n')}\n-----END PRIVATE KEY-----`);
  const sa = pemBody(made, 6);
  add(
    'private-key',
    sa[2]!,
    `$ cat sa.json\n{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key_id": "${made(LOWER_HEX, 40)}",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n${sa.join('\\n')}\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "deploy@acme-prod.iam.gserviceaccount.com"\n}`,
  );

  // And every kind the planted corpus holds, encoded ones too.
  v.push(...PLANTED_SECRETS);
  return v;
}

/** Ordinary code and output that names secrets without holding one: must come through untouched. */
export const HARMLESS: readonly string[] = [
  'interface Credentials {\n  username: string;\n  password: string;\n  apiKey?: string;\n}',
  'const apiKey = process.env.OPENAI_API_KEY;\nconst token = await getToken();',
  'password = os.environ["DB_PASSWORD"]\napi_key = settings.API_KEY',
  'spec:\n  tls:\n    secretName: api-tls-cert\n  env:\n    - name: DB_PASSWORD\n      valueFrom:\n        secretKeyRef: {name: db, key: password}',
  'HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer\nAuthorization: required',
  'pwd: /home/dev/projects/app\nOLDPWD=/home/dev',
  'export TOKEN=$(gh auth token)\nexport DB_PASSWORD="${DB_PASSWORD:-}"\nAPI_KEY={{ .Values.apiKey }}',
  'max_tokens: 4096\ntoken_count: 1200\npassword_min_length: 12',
  'docker run -u 1000:1000 -p 8080:80 nginx\ngit push -u origin main\nmysql -h db -P 3306 -p shop',
  'if (!password) throw new Error("password required");\nconst hash = bcrypt.hash(password, 10);',
  'See https://example.com/docs?page=2&lang=en and http://localhost:5173/#/session',
  'def login(user, password=None):\n    return auth.check(user, password)',
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  package.tgz',
  '[auth]\nmethod = oauth\ncredentials: include',
];

const ts = (n: number) => 1_764_600_000_000 + n;

/** A tee capture: each variant in a call, a streamed message, stderr lines and a diff; `texts` decides which. */
export function corpusSession(texts: readonly string[] = secretVariants().map((variant) => variant.text), chunk = 7): string {
  const lines: string[] = [];
  let n = 0;
  const msg = (dir: string, message: unknown) => lines.push(JSON.stringify({ t_ms: ts(n++), dir, msg: message }));
  const update = (value: unknown) => msg('agent->client', { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: value } });
  msg('client->agent', { jsonrpc: '2.0', id: 0, method: 'session/new', params: { cwd: '/work', mcpServers: [] } });
  msg('agent->client', { jsonrpc: '2.0', id: 0, result: { sessionId: 's1' } });
  texts.forEach((text, index) => {
    msg('client->agent', { jsonrpc: '2.0', id: index + 1, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: `check item ${index}` }] } });
    // A message, streamed in chunks that cut through everything in it.
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Here is what I found:\n' } });
    for (let at = 0; at < text.length; at += chunk) update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: text.slice(at, at + chunk) } });
    // A call running it, that fails printing it.
    update({ sessionUpdate: 'tool_call', toolCallId: `run-${index}`, title: 'Run', kind: 'execute', status: 'pending', rawInput: { command: text } });
    update({ sessionUpdate: 'tool_call_update', toolCallId: `run-${index}`, status: 'failed', content: [{ type: 'content', content: { type: 'text', text } }] });
    // The agent's stderr, a line a record.
    for (const line of text.split('\n')) lines.push(JSON.stringify({ t_ms: ts(n++), dir: 'stderr', text: line }));
    // An edit writing it.
    update({ sessionUpdate: 'tool_call', toolCallId: `edit-${index}`, title: 'Edit .env', kind: 'edit', status: 'pending', rawInput: { path: '/work/.env' } });
    update({ sessionUpdate: 'tool_call_update', toolCallId: `edit-${index}`, status: 'completed', content: [{ type: 'diff', path: '/work/.env', oldText: 'A=1\n', newText: `A=1\n${text}\n` }] });
    msg('agent->client', { jsonrpc: '2.0', id: index + 1, result: { stopReason: 'end_turn' } });
  });
  return `${lines.join('\n')}\n`;
}

/** Text as a person would read it: JSON escapes and terminal colours undone. */
export function readable(output: string): string {
  return (
    output
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\\//g, '/')
      .replace(/\\n/g, '\n')
      // eslint-disable-next-line no-control-regex -- terminal escapes are what this takes out
      .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '')
  );
}

/** The values of `variants` that `output` holds, plainly, behind JSON escapes, or cut by colours. */
export function leaked(output: string, variants: readonly PlantedSecret[]): string[] {
  const plain = readable(output);
  return [...new Set(variants.map((variant) => variant.value))].filter((value) => output.includes(value) || plain.includes(value));
}
