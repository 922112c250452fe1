// Pattern rules as data, beside secretlint's recommended preset: the kinds that preset misses
// (AWS access key ids, OpenAI project keys, Google API keys, JWTs, Claude Code OAuth tokens, Azure,
// PyPI, Vault, Telegram, …) and the ones a session holds in shapes a file scanner does not expect
// (an `Authorization:` header in a curl command, `DB_PASS=` in an environment dump, `mysql -pPASS`,
// a `Cookie:` header). Patterns follow gitleaks' rules where it has one.
//
// `secret` names the part to replace when a rule matches context around it (a header name, a key
// name); otherwise the whole match is replaced. Rules read text with terminal colour escapes taken
// out (detect.ts), so a key highlighted by `rg --color` reads whole.
//
// Time: every rule runs in time linear in the text (a 1 MB line of letters is read in milliseconds;
// `npm run bench:redact`). A backtracking engine is linear on a pattern when each quantifier is
// bounded and a pattern cannot start again inside what its own first quantifier just read: so every
// repeat has an upper bound, and a pattern whose first part is a run of characters starts only
// where such a run starts (a lookbehind). Patterns start with a literal where they can (the engine
// scans for it), or name one the text must hold (`literal`).

export interface PatternRule {
  kind: string;
  pattern: string;
  flags?: string;
  /** Text without this (case-sensitive) is not read by the rule: for patterns the engine cannot scan for fast. */
  literal?: string;
  /** A match is a secret only when this says so (a value that reads as code, a type, a path is not); or where the secret is in it. */
  accept?: (match: RegExpExecArray, text: string) => boolean | [number, number];
}

/**
 * `literal`, not inside a run of word characters (or just after a JSON escape such as `\n`: text
 * in text). The literal comes first and the look back after it, so the engine scans for the
 * literal rather than trying the look back at every character.
 */
const atRunStart = (literal: string): string => `${literal}(?<!(?<!\\\\)[A-Za-z0-9_]${literal})`;
/** Not followed by more of the token. */
const RUN_END = '(?![A-Za-z0-9_-])';
/** `://`, or `:\/\/` in JSON text written with escaped slashes. */
const SCHEME_SLASHES = ':(?:\\/\\/|\\\\\\/\\\\\\/)';

/** A character of a PEM body or header (`Proc-Type: 4,ENCRYPTED`), or a `\n` escape; never `-----`, so a body ends at the next boundary. */
const PEM_BODY = '(?:[A-Za-z0-9+/=\\s:,.]|-(?!----)|\\\\{1,4}[nr])';
/**
 * A Bearer (or Basic, …) credential's characters: RFC 6750's token68 (letters, digits, `-._~+/`,
 * `=` padding) and the `%`, `|` and `:` real tokens hold (`7|…` Sanctum tokens, percent-encoded
 * ones, `id:secret` pairs). Unbounded: the repeat is the pattern's last part, so it cannot backtrack,
 * and a match starts only at its literal (`bearer`, `authorization`), so no run is read twice.
 */
const BEARER_CHAR = '[A-Za-z0-9._~+/=%|:-]';
/** Words a secret's name ends with: `DB_PASSWORD`, `apiKey`, `GITHUB_TOKEN`, `client_secret`. */
const SECRET_WORD = 'password|passwd|passphrase|pass|pwd|secret[_-]?key|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|auth';
/** Bare names too general to mean a secret alone: `pwd` (the working directory), `pass`, `auth`, `credential`. */
const NEEDS_PREFIX = /^(?:pwd|pass|auth|credentials?)$/i;
/** Values that are types, placeholders or keywords, not secrets (`password: string`, `Authorization: required`). */
const NOT_A_VALUE = /^(?:string|str|number|int|integer|bool|boolean|any|unknown|object|null|nil|none|undefined|true|false|yes|no|on|off|required|optional|text|varchar|char|bytes|secret|password|token|redacted|hidden|masked|env|empty|example|changeme|placeholder|your[_-]?\w*|x+|\*+|\.+|…)$/i;

/**
 * A name (`DB_PASS`, `apiKey`, `--password`, `"access_token"`) and what follows it: `=`, `:`, `:=`,
 * or, after a command-line flag, a space. What is read back for `accept` is the whole name (up to
 * 48 characters before the word) so `secretName` or `TOKEN_FILE` are told from `secret`, `TOKEN`.
 */
const ASSIGNMENT =
  `(?<word>${SECRET_WORD})(?<close>\\\\?["']?)(?<sep>[ \\t]{0,4}(?::=|=>|[=:])[ \\t]{0,4}|[ \\t]{1,4})` +
  `(?:(?<q>\\\\?["'])(?<quoted>(?:(?!\\k<q>)[^\\n\\r]){1,256}?)\\k<q>|(?<bare>[^\\s"'\`;,<>(){}\\[\\]\\\\]{1,256}))`;

/** A path, not a secret: `/run/secrets/db`, `/home/dev/.npmrc` (no segment reads as a random token). */
const isPath = (value: string): boolean =>
  /^(?:\/[A-Za-z0-9._@~-]+)+\/?$/.test(value) && !value.split('/').some((part) => part.length >= 16 && /[A-Z]/.test(part) && /[a-z]/.test(part) && /[0-9]/.test(part));

/** Where the value is, or false when the match is not a secret (see the checks). */
function acceptAssignment(match: RegExpExecArray, text: string): boolean | [number, number] {
  const groups = match.groups!;
  // The whole name: the word and the name characters right before it.
  let start = match.index;
  const floor = Math.max(0, start - 48);
  while (start > floor && /[A-Za-z0-9_.-]/.test(text[start - 1]!)) start--;
  const name = text.slice(start, match.index + groups.word!.length);
  const bareName = name.replace(/^-+/, '');
  const flag = name.startsWith('-');
  // The word ends the name: a separator or a camelCase capital before it (`dbPassword`), or nothing.
  const prefix = bareName.slice(0, bareName.length - groups.word!.length);
  if (prefix && !/[_.-]$/.test(prefix) && !(/[a-z0-9]$/.test(prefix) && /^[A-Z]/.test(groups.word!))) return false;
  if (!prefix && NEEDS_PREFIX.test(groups.word!)) return false;
  const sep = groups.sep!;
  // `key=secret:9f2c…` (a cache key, a label): the name is itself a value, not a naming.
  if (sep === ':' && /[=:]/.test(text[start - 1] ?? '')) return false;
  const spaceOnly = !/[:=]/.test(sep);
  // `--password VALUE`: a flag. Otherwise a space alone joins nothing.
  if (spaceOnly && !flag) return false;
  const value = groups.quoted ?? groups.bare!;
  if (NOT_A_VALUE.test(value) || /^‹[a-z0-9-]+›/.test(value) || /^secret:redacted\//.test(value)) return false;
  // A variable, a template, a placeholder: `$TOKEN`, `${…}`, `{{ … }}`, `%s`, `<token>`.
  if (/^(?:\$|%|\{\{|<)/.test(value)) return false;
  // An env file's `NAME=value`: whatever the value holds is the value (`VAULT_TOKEN=s.…`, `dp.pt.…`, `&`).
  const envLine = /^[A-Z0-9_]+$/.test(bareName) && sep === '=';
  if (groups.bare !== undefined) {
    // Code, not a value: `process.env.X`, `config.apiKey`, `getToken()`, a type (`string[]`, `Buffer`),
    // `password: /run/secrets/db` (a path), a version (`token:6.0` in an image name).
    if (!envLine && /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
    if (isPath(value) || /^v?\d+(?:\.\d+)+$/.test(value)) return false;
    if (/^[A-Z][A-Za-z]*$/.test(value) && !/^[A-Z0-9_]+$/.test(bareName)) return false;
    // `password = hunter2` with spaces is code reading a variable; in an env file there are none.
    if (/\s=|=\s/.test(sep) && /^[A-Za-z_$][\w$]*$/.test(value)) return false;
    // YAML or an object literal: `password: x` where x is a plain word is a reference, unless the name is an env name.
    if (/:/.test(sep) && /^[a-z_][a-zA-Z_]*$/.test(value) && !/^[A-Z0-9_]+$/.test(bareName)) return false;
    if (value.length < 3 || /^\d{1,6}$/.test(value)) return false;
    // In a link's query (`?api_key=…&page=2`) the value ends at the next parameter.
    const [valueStart, valueEnd] = match.indices!.groups!.bare!;
    const amp = value.indexOf('&');
    if (amp >= 0 && /[?&#]/.test(text[start - 1] ?? '')) return amp < 3 ? false : [valueStart, valueStart + amp];
    return [valueStart, valueEnd];
  }
  return true;
}

export const PATTERN_RULES: readonly PatternRule[] = [
  { kind: 'aws-access-key', pattern: `(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])` },
  { kind: 'aws-secret-key', pattern: 'aws.{0,24}?(?:secret|private).{0,24}?[\'"=:\\s]{1,8}(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])', flags: 'i' },
  { kind: 'github-token', pattern: '(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{22,255}' },
  { kind: 'gitlab-token', pattern: `gl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,255}` },
  // Claude Code's OAuth access and refresh tokens (what `claude login` stores), beside API keys.
  { kind: 'anthropic-oauth-token', pattern: `sk-ant-(?:oat|ort)\\d\\d-[A-Za-z0-9_-]{20,255}` },
  { kind: 'anthropic-key', pattern: `sk-ant-(?:api|admin)\\d\\d-[A-Za-z0-9_-]{20,255}` },
  { kind: 'openai-key', pattern: `sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,255}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}` },
  { kind: 'slack-token', pattern: `(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,255}|hooks\\.slack\\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,255}` },
  { kind: 'stripe-key', pattern: `(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,255}` },
  { kind: 'google-api-key', pattern: 'AIza[0-9A-Za-z_-]{35}' },
  { kind: 'npm-token', pattern: 'npm_[A-Za-z0-9]{36}' },
  { kind: 'huggingface-token', pattern: 'hf_[A-Za-z]{34}' },
  { kind: 'pypi-token', pattern: `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,255}` },
  { kind: 'vault-token', pattern: `${atRunStart('hv[sbr]\\.')}[A-Za-z0-9_-]{24,255}${RUN_END}` },
  { kind: 'telegram-bot-token', pattern: `(?<![0-9])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}${RUN_END}`, literal: ':AA' },
  // Azure: a storage or Service Bus connection string's key, a SAS signature, an AD client secret.
  { kind: 'azure-storage-key', pattern: '(?:AccountKey|SharedAccessKey)=(?<secret>[A-Za-z0-9+/]{20,255}={0,2})' },
  { kind: 'azure-sas-signature', pattern: '(?<![A-Za-z0-9_])sig=(?<secret>(?:[A-Za-z0-9+/=]|%[0-9A-Fa-f]{2}){20,255})' },
  { kind: 'azure-ad-client-secret', pattern: '(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])', literal: 'Q~' },
  { kind: 'jwt', pattern: `${atRunStart('eyJ')}[A-Za-z0-9_-]{8,4096}\\.eyJ[A-Za-z0-9_-]{8,8192}\\.[A-Za-z0-9_-]{8,4096}` },
  // A key cut short (terminal output ends mid-key) is still a key: its end is optional. Its body may
  // hold `\n` escapes: a service-account JSON's "private_key" printed by `cat`.
  {
    kind: 'private-key',
    pattern: `-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----${PEM_BODY}{0,16384}?(?:-----END[ A-Z0-9]{0,32}PRIVATE KEY(?: BLOCK)?-----|(?!${PEM_BODY}))`,
  },
  {
    kind: 'authorization-header',
    pattern: `(?:proxy-)?authorization\\\\?['"]?\\s{0,4}[:=]\\s{0,4}\\\\?['"]?(?:(?<scheme>bearer|basic|token|bot|digest)\\s{1,4})?(?<secret>${BEARER_CHAR}{8,})`,
    flags: 'i',
    // `Authorization: required` is prose: without a scheme the value must look like a credential.
    accept: (match) => match.groups!.scheme !== undefined || (/[0-9]/.test(match.groups!.secret!) && /[A-Za-z]/.test(match.groups!.secret!)) || match.groups!.secret!.length >= 24,
  },
  { kind: 'bearer-token', pattern: `bearer\\s{1,4}(?<secret>${BEARER_CHAR}{16,})`, flags: 'i' },
  { kind: 'cookie', pattern: '(?<![A-Za-z-])(?:set-)?cookie[\'"]?\\s{0,4}:\\s{0,4}[\'"]?(?<secret>[^\\s=;\'",]{1,128}=[^\\n\\r\'"]{1,4096})', flags: 'i' },
  // Only the password: scheme, user, host and path stay (`redis://:pw@`, `https:\/\/u:p@` too).
  {
    kind: 'url-password',
    // From `://`, looking back for the scheme: scanning for `://` is what makes this fast.
    pattern: `${SCHEME_SLASHES}(?<=(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}${SCHEME_SLASHES})[^/\\\\\\s:@"']{0,128}:(?<secret>[^/\\\\\\s@"']{1,256})@`,
    flags: 'i',
  },
  // Command lines: `mysql -pPASS`, `sshpass -p PASS`, `curl -u user:pass`.
  { kind: 'password', pattern: '(?:mysql|mysqldump|mariadb|mysqladmin)\\b[^\\n|;&]{0,256}?\\s-p(?<secret>[^\\s\'"-][^\\s\'"]{0,127})' },
  { kind: 'password', pattern: 'sshpass\\s{1,4}-p\\s{0,4}(?<secret>[^\\s\'"]{1,128})' },
  { kind: 'password', pattern: '(?:curl|wget|http)\\b[^\\n|;&]{0,256}?\\s(?:-u|--user)\\s{0,4}[\'"]?[^\\s:\'"]{1,128}:(?<secret>[^\\s\'"@]{1,128})', flags: 'i' },
  // Links: `?token=…`, `&access_token=…`, `&api_key=…`.
  // The value ends where a link's does in Markdown (`)`, `]`): a badge's `?token=…` keeps the link after it.
  { kind: 'password', pattern: '[?&#](?:access_token|refresh_token|id_token|token|api_key|apikey|secret|client_secret|password)=(?<secret>[^\\s&#"\'<>()\\[\\]{}`\\\\]{6,512})', flags: 'i' },
  // Config syntaxes: a docker config.json's `"auth"` (base64 of user:password), a NuGet or .NET
  // `<add key="ClearTextPassword" value="…"/>`, session cookies (`_gitlab_session=`, `PHPSESSID=`).
  // Quotes may be JSON-escaped: the file written by a heredoc inside a Codex call's arguments.
  { kind: 'docker-auth', pattern: '\\\\?"(?:auth|identitytoken|registrytoken)\\\\?"\\s{0,4}:\\s{0,4}\\\\?"(?<secret>[A-Za-z0-9+/=_.-]{8,4096})\\\\?"' },
  {
    kind: 'password',
    pattern: '<add\\s{1,8}key=\\\\?"[^"\\\\\\n]{0,64}(?:password|passwd|secret|token|api[_-]?key)[^"\\\\\\n]{0,16}\\\\?"\\s{1,8}value=\\\\?"(?<secret>[^"\\\\\\n]{1,1024})\\\\?"',
    flags: 'i',
  },
  { kind: 'cookie', pattern: '(?<![A-Za-z0-9_])(?:_[a-z0-9]{1,32}_session|PHPSESSID|JSESSIONID|connect\\.sid|sessionid|session_id|laravel_session)=(?<secret>[^\\s;"\'&,\\\\]{8,4096})', flags: 'i' },
  // A name ending in a secret word, then its value: `.env`, YAML, JSON in text, `--password VALUE`.
  { kind: 'password', pattern: ASSIGNMENT, flags: 'i', accept: acceptAssignment },
];

/**
 * A JSON key (or `KEY:` in a header) whose string value is a secret whatever it looks like:
 * `{"password": "hunter2"}`. Matched against the whole key.
 */
export const SECRET_KEY_NAMES = /^(?:[a-z0-9_-]*[_-])?(?:password|passwd|secret|client_secret|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|private[_-]?key|secret[_-]?access[_-]?key|authorization|proxy-authorization|x-api-key|cookie|session[_-]?token)$/i;

/** The ledger's own form for a value it already redacted: never reported, never replaced again. */
export const ALREADY_REDACTED = /secret:redacted\/[A-Za-z0-9._:/-]*/g;

/** secretlint rule ids (and message ids, where one rule finds several kinds) to the kinds above. */
export const SECRETLINT_KINDS: Readonly<Record<string, string>> = {
  'aws/AWSAccessKeyID': 'aws-access-key',
  'aws/AWSSecretAccessKey': 'aws-secret-key',
  'aws/AWSAccountID': 'aws-account-id',
  github: 'github-token',
  gitlab: 'gitlab-token',
  slack: 'slack-token',
  basicauth: 'url-password',
  anthropic: 'anthropic-key',
  openai: 'openai-key',
  privatekey: 'private-key',
  npm: 'npm-token',
  gcp: 'gcp-service-account',
  sendgrid: 'sendgrid-key',
  shopify: 'shopify-token',
  linear: 'linear-key',
  '1password': '1password-token',
  azure: 'azure-key',
  'database-connection-string': 'database-password',
};

/** Kinds whose finding is a URL or connection string with a password in it: only the password is replaced. */
export const URL_KINDS: ReadonlySet<string> = new Set(['url-password', 'database-password']);
