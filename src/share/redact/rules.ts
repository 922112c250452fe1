// Pattern rules as data, beside secretlint's recommended preset: the kinds that preset misses
// (AWS access key ids, OpenAI project keys, Google API keys, JWTs, some PEM keys, …) and the ones a
// session holds in shapes a file scanner does not expect (an `Authorization:` header in a curl
// command, `PASSWORD=` in an environment dump). Patterns follow gitleaks' rules where it has one.
//
// `secret` names the part to replace when a rule matches context around it (a header name, a key
// name); otherwise the whole match is replaced. No rule needs a word boundary on its left: terminal
// output puts a colour escape (`\e[31m`) right before a key.

export interface PatternRule {
  kind: string;
  pattern: string;
  flags?: string;
}

export const PATTERN_RULES: readonly PatternRule[] = [
  { kind: 'aws-access-key', pattern: '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])' },
  { kind: 'aws-secret-key', pattern: 'aws.{0,24}?(?:secret|private).{0,24}?[\'"=:\\s]+(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])', flags: 'i' },
  { kind: 'github-token', pattern: '(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{22,255}' },
  { kind: 'gitlab-token', pattern: 'gl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}' },
  { kind: 'anthropic-key', pattern: 'sk-ant-(?:api|admin)\\d\\d-[A-Za-z0-9_-]{20,}' },
  { kind: 'openai-key', pattern: 'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}' },
  { kind: 'slack-token', pattern: 'xox[abposre]-[A-Za-z0-9-]{10,}|hooks\\.slack\\.com/(?:services|workflows)/[A-Za-z0-9/_-]{20,}' },
  { kind: 'stripe-key', pattern: '(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}' },
  { kind: 'google-api-key', pattern: 'AIza[0-9A-Za-z_-]{35}' },
  { kind: 'npm-token', pattern: 'npm_[A-Za-z0-9]{36}' },
  { kind: 'huggingface-token', pattern: 'hf_[A-Za-z]{34}' },
  { kind: 'jwt', pattern: 'eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}' },
  // A key cut short (terminal output ends mid-key) is still a key: its end is optional.
  { kind: 'private-key', pattern: '-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\\s:,.-]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|(?![A-Za-z0-9+/=\\s:,.-]))' },
  { kind: 'authorization-header', pattern: '(?:proxy-)?authorization[\'"]?\\s*[:=]\\s*[\'"]?(?:(?:bearer|basic|token|bot|digest)\\s+)?(?<secret>[A-Za-z0-9._~+/=-]{8,})', flags: 'i' },
  { kind: 'bearer-token', pattern: 'bearer\\s+(?<secret>[A-Za-z0-9._~+/=-]{16,})', flags: 'i' },
  { kind: 'url-password', pattern: '[a-z][a-z0-9+.-]*://[^/\\s:@"\']+:(?<secret>[^/\\s@"\']+)@', flags: 'i' },
  { kind: 'password', pattern: '(?:password|passwd|pwd|secret|(?:auth|access|refresh|bearer)[_-]?token|api[_-]?key|access[_-]?key)[A-Z0-9_]*[\'"]?\\s*(?:=|:\\s)\\s*[\'"]?(?<secret>[^\\s\'"&;,]{6,})', flags: 'i' },
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
