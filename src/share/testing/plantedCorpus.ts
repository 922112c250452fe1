// A session with planted secrets, for tests: one of each kind, in each place a session holds text
// (messages, thoughts, titles, tool input nested deep and as a key, tool output, diffs, terminal
// output with colour escapes, plans, records of unknown shape), each written plainly and again
// with JSON escapes (`\u0041`, `\/`). Values are made up but shaped like the real thing. Some are
// planted encoded (base64, percent-encoding): their `value` is the encoded form a reader would see.

export interface PlantedSecret {
  kind: string;
  /** The secret itself: what must not appear in a redacted export. */
  value: string;
  /** The text it is planted in: the context a person (or a rule) recognises it by. */
  text: string;
}

const pem = (type: string, body: string[]) => `-----BEGIN ${type}PRIVATE KEY-----\n${body.join('\n')}\n-----END ${type}PRIVATE KEY-----`;
const RSA_BODY = ['MIIEowIBAAKCAQEAq8Zt2Yb9nW5kV3xLpQe7RjT0uHs1fGmC4dNaBvXyZwK2jLm9', 'Pq3RsT6uVw8XyZ0aBcD2eFgH4iJkL6mNoP8qRsT0uVwX2yZ4aBcD6eFgH8iJkL0m'];
const OPENSSH_BODY = ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 'QyNTUxOQAAACDxQmT7v9kLp3RsWzYx2NcBvHf6JtGe8UiOaPd4KsMnLwAAAJgqWe1nKlnt'];

/** Base64 of ASCII text (btoa: in browsers and in Node alike). */
const base64 = (text: string): string => btoa(text);
const DOCKER_CONFIG = base64(JSON.stringify({ auths: { 'registry.example.com': { auth: base64('deploy:ghp_Vb7nM3xK9qL2wT5yR8uE1oP4aS6dF0gHj2kZ') } } }));
/** `base64` wraps at 76 columns: each line must go, so the first one is what is grepped for. */
const WRAPPED_ENV = base64('ANTHROPIC_API_KEY=sk-ant-api03-Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb7Nm6Qw5Er4Ty3Ui2Op1As0DfGhJkLzXcVbNmQwErTyUiOpAsDf-gAA\nLOG_LEVEL=debug\n').match(/.{1,76}/g)!;
const NPM_AUTH = base64('dev:npm_Pq4Rs8Tu2Vw6Xy0Za3Bc7De1Fg5Hi9Jk2Lm4');

export const PLANTED_SECRETS: readonly PlantedSecret[] = [
  { kind: 'aws-access-key', value: 'AKIAQX3YZ7PLMN4R2T6V', text: 'export AWS_ACCESS_KEY_ID=AKIAQX3YZ7PLMN4R2T6V' },
  { kind: 'aws-secret-key', value: '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', text: 'aws_secret_access_key = Zq9wR2vT5yU8iO1pA4sD7fG0hJ3kL6zX9cV2bN5m' },
  { kind: 'github-token', value: 'ghp_R8mK2pX9vL4qN7tB1wZ5yC3dF6gH0jS2aQ4e', text: 'git clone https://github.com/acme/app (token ghp_R8mK2pX9vL4qN7tB1wZ5yC3dF6gH0jS2aQ4e)' },
  { kind: 'gitlab-token', value: 'glpat-Xw3Rt9Kp2Lm7Qz5Vn8Bc', text: 'GITLAB_TOKEN is glpat-Xw3Rt9Kp2Lm7Qz5Vn8Bc now' },
  { kind: 'openai-key', value: 'sk-proj-Hq7Wn2Kx9Lp4Rz6Tv1Ys8Bm3Cd5Fg0JaQe7Ui2Op9Lk4Mn6Bv', text: 'client = OpenAI(api="sk-proj-Hq7Wn2Kx9Lp4Rz6Tv1Ys8Bm3Cd5Fg0JaQe7Ui2Op9Lk4Mn6Bv")' },
  { kind: 'anthropic-key', value: 'sk-ant-api03-Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa9Sd8Fg7Hj6Kl5Zx4Cv3Bn2Mq1We0Rt9Yu8Io7Pa6Sd5Fg4Hj3Kl2Zx1Cv0BnAA', text: 'using sk-ant-api03-Zx8Cv7Bn6Mq5Wr4Et3Yu2Io1Pa9Sd8Fg7Hj6Kl5Zx4Cv3Bn2Mq1We0Rt9Yu8Io7Pa6Sd5Fg4Hj3Kl2Zx1Cv0BnAA for claude' },
  { kind: 'slack-token', value: 'xoxb-2841937562-5938471625-Tk7Qw9Er2Ty4Ui6Op8As0Df', text: 'SLACK_BOT=xoxb-2841937562-5938471625-Tk7Qw9Er2Ty4Ui6Op8As0Df' },
  { kind: 'stripe-key', value: 'sk_live_51Nq8Wx2Ry7Tz4Vu9Ks3Lp6Mc1Bd', text: 'stripe.api_key("sk_live_51Nq8Wx2Ry7Tz4Vu9Ks3Lp6Mc1Bd")' },
  { kind: 'google-api-key', value: 'AIzaSyD8kQ2wR7tY4uI9oP3aS6dF1gH5jK0lZxC', text: 'maps?key=AIzaSyD8kQ2wR7tY4uI9oP3aS6dF1gH5jK0lZxC&q=1' },
  { kind: 'npm-token', value: 'npm_Jk8Lm2Nq5Rs9Tv3Wx7Yz1Ab4Cd6Ef0Gh2Ij5', text: '//registry.npmjs.org/:_authToken=npm_Jk8Lm2Nq5Rs9Tv3Wx7Yz1Ab4Cd6Ef0Gh2Ij5' },
  { kind: 'jwt', value: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MjQyIiwicm9sZSI6ImFkbWluIn0.Qm3xR8vT2kL9pW5nY7zB4cD6fG1hJ0sA8eU3iO5q', text: 'cookie jwt=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MjQyIiwicm9sZSI6ImFkbWluIn0.Qm3xR8vT2kL9pW5nY7zB4cD6fG1hJ0sA8eU3iO5q; path=/' },
  { kind: 'private-key', value: RSA_BODY[1]!, text: `$ cat id_rsa\n${pem('RSA ', RSA_BODY)}\n` },
  { kind: 'private-key', value: OPENSSH_BODY[1]!, text: `${pem('OPENSSH ', OPENSSH_BODY)}` },
  { kind: 'authorization-header', value: 'Zm9vOmJhcjpiYXo6cXV4OjEyMzQ1Njc4', text: 'curl -H "Authorization: Bearer Zm9vOmJhcjpiYXo6cXV4OjEyMzQ1Njc4" https://api.example.com/v1' },
  { kind: 'url-password', value: 'S3cr3tP4ssw0rd', text: 'DATABASE_URL=postgres://admin:S3cr3tP4ssw0rd@db.internal:5432/app' },
  { kind: 'password', value: 'correct-horse-battery-9', text: 'DB_PASSWORD=correct-horse-battery-9\nHOME=/home/dev' },
  // Encoded: a Kubernetes pull secret (a token in base64 in JSON in base64), `.env | base64`, an .npmrc `_auth`.
  { kind: 'base64-github-token', value: DOCKER_CONFIG, text: `$ kubectl get secret regcred -o yaml\ndata:\n  .dockerconfigjson: ${DOCKER_CONFIG}\ntype: kubernetes.io/dockerconfigjson` },
  { kind: 'base64-anthropic-key', value: WRAPPED_ENV[0], text: `$ base64 .env\n${WRAPPED_ENV.join('\n')}\n$ ` },
  { kind: 'base64-npm-token', value: NPM_AUTH, text: `; ~/.npmrc\n//registry.npmjs.org/:_auth=${NPM_AUTH}\nalways-auth=true` },
  // Percent-encoded: a connection string inside a URL's query, an Authorization header passed as a parameter.
  { kind: 'url-encoded-url-password', value: 'Xk9%21q7%2BLm2%3DTz4', text: 'GET https://ci.example.com/hook?target=https%3A%2F%2Fdeploy%3AXk9%21q7%2BLm2%3DTz4%40db.internal%3A5432%2Fapp HTTP/1.1' },
  { kind: 'url-encoded-authorization-header', value: 'Tk7Qw9Er2Ty4Ui6Op8As0DfGh', text: 'proxy: https://gw.example.com/fwd?headers=Authorization%3A%20Bearer%20Tk7Qw9Er2Ty4Ui6Op8As0DfGh&to=api' },
];

/** The ledger's own redacted form: must come through an export unchanged. */
export const ALREADY_REDACTED_VALUE = 'secret:redacted/env/OPENAI_API_KEY';

/** A JSON string literal with `/` as `\/` and every third letter or digit as `\u00XX`. */
export function escapedJsonString(text: string): string {
  let out = '"';
  [...text].forEach((char, index) => {
    if (char === '/') out += '\\/';
    else if (/[A-Za-z0-9]/.test(char) && index % 3 === 0) out += `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += JSON.stringify(char).slice(1, -1);
  });
  return `${out}"`;
}

/** Where a text can be put in an ACP session: each returns one line with `STR` (a JSON string literal) in place. */
const PLACES: Record<string, (str: string, n: number) => string> = {
  prompt: (str, n) => `{"jsonrpc":"2.0","id":${1000 + n},"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":${str}}]}}`,
  agentMessage: (str) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":${str}}}}}`,
  thought: (str) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":${str}}}}}`,
  title: (str, n) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"title-${n}","title":${str},"kind":"execute","status":"pending","rawInput":{"command":"true"}}}}`,
  nestedInput: (str, n) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"nested-${n}","title":"Run","kind":"execute","status":"pending","rawInput":{"command":"env","opts":{"a":[{"b":{"c":[[{"d":${str}}]]}}]}}}}}`,
  inputKey: (str, n) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"key-${n}","title":"Write","kind":"edit","status":"pending","rawInput":{"path":"/tmp/x","env":{${str}:true}}}}}`,
  output: (str, n) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"nested-${n}","status":"failed","content":[{"type":"content","content":{"type":"text","text":${str}}}],"rawOutput":{"stderr":${str},"code":1}}}}`,
  diff: (str, n) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"key-${n}","status":"completed","content":[{"type":"diff","path":"/tmp/x","oldText":"a\\n","newText":${str}}]}}}`,
  plan: (str) => `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":${str},"priority":"high","status":"pending"}]}}}`,
  unknownRecord: (str) => `{"jsonrpc":"2.0","method":"x/custom","params":{"note":${str}}}`,
};

/** A terminal's output: created, then read with colour escapes around the secret. */
function terminalLines(str: string, n: number): string[] {
  const id = 200_000 + n * 10;
  return [
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"term-${n}","title":"Terminal","kind":"execute","status":"in_progress","content":[{"type":"terminal","terminalId":"t${n}"}]}}}`,
    `{"jsonrpc":"2.0","id":${id},"method":"terminal/create","params":{"sessionId":"s1","command":"env"}}`,
    `{"jsonrpc":"2.0","id":${id},"result":{"terminalId":"t${n}"}}`,
    `{"jsonrpc":"2.0","id":${id + 1},"method":"terminal/output","params":{"sessionId":"s1","terminalId":"t${n}"}}`,
    `{"jsonrpc":"2.0","id":${id + 1},"result":{"output":${str},"truncated":false}}`,
    `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"term-${n}","status":"completed"}}}`,
  ];
}

/** The planted session, one JSON-RPC message a line. */
export function plantedSession(): string {
  const lines = ['{"jsonrpc":"2.0","id":0,"method":"session/new","params":{"cwd":"/work","mcpServers":[]}}', '{"jsonrpc":"2.0","id":0,"result":{"sessionId":"s1"}}'];
  let n = 0;
  for (const secret of PLANTED_SECRETS) {
    for (const encode of [JSON.stringify, escapedJsonString]) {
      const str = encode(secret.text);
      for (const place of Object.values(PLACES)) lines.push(place(str, n++));
      lines.push(...terminalLines(encode(`\u001b[32m$ env\u001b[0m\r\n\u001b[31m${secret.text}\u001b[0m\r\n`), n++));
    }
  }
  lines.push(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"the key is ${ALREADY_REDACTED_VALUE}"}}}}`);
  return `${lines.join('\n')}\n`;
}

/** Planted values found in `output`, plainly or behind JSON escapes. */
export function leakedSecrets(output: string): string[] {
  const unescaped = output.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\\//g, '/');
  return [...new Set(PLANTED_SECRETS.map((secret) => secret.value))].filter((value) => output.includes(value) || unescaped.includes(value));
}
