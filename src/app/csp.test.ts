import { describe, expect, it } from 'vitest';
import { connectPolicy } from './csp';

describe('the connect-src the app narrows itself to', () => {
  const base = 'https://loupe.example/app/';
  it('allows only its own origin when no URL was given', () => {
    expect(connectPolicy(null, base)).toBe("connect-src 'self'");
  });
  it("adds the origin ?src= names, and nothing more", () => {
    expect(connectPolicy('https://files.example:8443/a/session.jsonl?x=1', base)).toBe("connect-src 'self' https://files.example:8443");
  });
  it('needs nothing more for a relative or same-origin src', () => {
    expect(connectPolicy('fixtures/a.jsonl', base)).toBe("connect-src 'self'");
    expect(connectPolicy('https://loupe.example/other.jsonl', base)).toBe("connect-src 'self'");
  });
  it('allows no other scheme', () => {
    expect(connectPolicy('javascript:alert(1)', base)).toBe("connect-src 'self'");
    expect(connectPolicy('ftp://files.example/a', base)).toBe("connect-src 'self'");
  });
  it('adds the origin ?vs= names too (the run compared with ?src=), each once', () => {
    expect(connectPolicy('https://a.example/run.jsonl', base, 'https://b.example/run.jsonl')).toBe("connect-src 'self' https://a.example https://b.example");
    expect(connectPolicy('https://a.example/1.jsonl', base, 'https://a.example/2.jsonl')).toBe("connect-src 'self' https://a.example");
  });
});
