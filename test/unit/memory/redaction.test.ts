import { strict as assert } from 'node:assert';
import { DEFAULT_REDACTION_CONFIG, REDACTED, resolveRedactionConfig } from '../../../src/core/config/redactionConfig';
import { isMemoryError } from '../../../src/core/errors';
import { redactSecrets } from '../../../src/core/memory/redaction';

const redact = (t: string) => redactSecrets(t, DEFAULT_REDACTION_CONFIG);

describe('secret redaction', () => {
  it('redacts OpenAI-style, AWS, GitHub, Slack and Google API keys', () => {
    const text = 'keys: sk-abcdefghijklmnopqrstuvwx123 AKIAABCDEFGHIJKLMNOP ghp_abcdefghijklmnopqrstuvwxyz0123456789 xoxb-1234567890-abcdef AIzaSyA1234567890abcdefghijklmnopqrstuv';
    const r = redact(text);
    for (const secret of ['sk-abcdefghijklmnopqrstuvwx123', 'AKIAABCDEFGHIJKLMNOP', 'ghp_abcdefghij', 'xoxb-1234567890', 'AIzaSyA12345']) assert.ok(!r.text.includes(secret), secret);
    assert.equal(r.count, 5);
  });

  it('redacts bearer tokens but keeps the scheme word', () => {
    const r = redact('curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig" https://api');
    assert.match(r.text, new RegExp(`Bearer \\${REDACTED}`));
    assert.ok(!r.text.includes('eyJhbGci'));
    assert.deepEqual(r.rules, ['bearer-token']);
  });

  it('redacts a whole private key block', () => {
    const r = redact('here:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nabc\n-----END RSA PRIVATE KEY-----\nafter');
    assert.equal(r.text, `here:\n${REDACTED}\nafter`);
  });

  it('redacts the body of a private key block cut off before its END line', () => {
    const r = redact('key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nAAAABG5vbmU=\n');
    assert.equal(r.text, `key:\n${REDACTED}`);
  });

  it('redacts passwords and secrets in assignments, quoted or not', () => {
    const r = redact('password=hunter2 and DB_PASSWORD: "s3cr3t value" and api_key = \'abc123\'');
    assert.ok(!/hunter2|s3cr3t|abc123/.test(r.text), r.text);
    assert.match(r.text, /password=\[REDACTED\]/);
  });

  it('redacts the password of a connection string and keeps user and host', () => {
    const r = redact('DATABASE_URL postgres://app:pa55word@db.example.com:5432/main');
    assert.equal(r.text, `DATABASE_URL postgres://app:${REDACTED}@db.example.com:5432/main`);
  });

  it('leaves ordinary prose untouched', () => {
    const text = 'We decided the API uses PostgreSQL; the token bucket limits requests.';
    assert.deepEqual(redact(text), { text, rules: [], count: 0 });
  });

  it('accepts configured extra rules and disabled built-ins', () => {
    const cfg = resolveRedactionConfig({ extraRules: [{ name: 'ticket', pattern: 'INTERNAL-\\d+', flags: 'g', replacement: '[TICKET]' }], disabledRules: ['bearer-token'] });
    const r = redactSecrets('see INTERNAL-42 with Bearer abcdefghijkl', cfg);
    assert.equal(r.text, 'see [TICKET] with Bearer abcdefghijkl');
  });

  it('rejects an invalid configured pattern with a coded error naming the rule', () => {
    assert.throws(() => resolveRedactionConfig({ extraRules: [{ name: 'broken', pattern: '(', flags: 'g', replacement: '' }] }),
      (e: unknown) => isMemoryError(e, 'E_INVALID_INPUT') && /broken/.test((e as Error).message));
  });

  it('does nothing when disabled', () => {
    const r = redactSecrets('password=hunter2', resolveRedactionConfig({ enabled: false }));
    assert.equal(r.text, 'password=hunter2');
  });
});
