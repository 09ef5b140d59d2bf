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

  // Fake but realistic secrets, built at run time so no literal secret sits in the repository.
  const b64 = (n: number, seed: number): string => Array.from({ length: n }, (_, i) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'[(i * 7 + seed * 13 + (i * i) % 11) % 64]).join('');
  const alnum = (n: number, seed: number): string => b64(n, seed).replace(/[+/]/g, 'x');

  it('redacts an AWS secret access key, bare and after its name, but not a git hash', () => {
    const secret = `wJalr${alnum(30, 1)}K7MDE`;
    assert.equal(secret.length, 40);
    const r = redact(`aws_secret_access_key = ${secret}\nalso ${secret.slice(0, 20)}/${secret.slice(21)} here`);
    assert.ok(!r.text.includes(secret.slice(0, 20)), r.text);
    const sha = 'e83c5163316f89bfbde7d9ab23ca2e25604af290';
    assert.equal(redact(`commit ${sha}`).text, `commit ${sha}`);
  });

  it('redacts a bare JWT, with or without a signature', () => {
    const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIx${alnum(20, 2)}.${alnum(43, 3).replace(/[^A-Za-z0-9]/g, '_')}`;
    const r = redact(`session cookie ${jwt} expired`);
    assert.equal(r.text, `session cookie ${REDACTED} expired`);
    assert.deepEqual(r.rules, ['jwt']);
    assert.equal(redact('token eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. unsigned').text, `token ${REDACTED} unsigned`);
  });

  it('redacts Slack app tokens and webhook URLs', () => {
    const app = `xapp-1-A0${alnum(10, 4)}-1234567890-${alnum(30, 5)}`;
    const hook = `https://hooks.slack.com/services/T0${alnum(8, 6)}/B0${alnum(8, 7)}/${alnum(24, 8)}`;
    const r = redact(`app ${app} posts to ${hook}`);
    assert.equal(r.text, `app ${REDACTED} posts to https://hooks.slack.com/${REDACTED}`);
  });

  it('redacts Authorization: Basic credentials and keeps the scheme', () => {
    const cred = Buffer.from('deploy:correct horse battery').toString('base64');
    const r = redact(`curl -H "Authorization: Basic ${cred}" https://ci`);
    assert.equal(r.text, `curl -H "Authorization: Basic ${REDACTED}" https://ci`);
    assert.equal(redact('basic understanding of the system').text, 'basic understanding of the system');
  });

  it('redacts Stripe live and test secret keys and npm tokens', () => {
    const stripe = `sk_live_${alnum(24, 9)}`;
    const restricted = `rk_test_${alnum(24, 10)}`;
    const npm = `npm_${alnum(36, 11)}`;
    const r = redact(`stripe ${stripe} and ${restricted}; .npmrc //registry.npmjs.org/:_authToken ${npm}`);
    for (const s of [stripe, restricted, npm]) assert.ok(!r.text.includes(s), s);
    assert.deepEqual(r.rules, ['stripe-key', 'npm-token']);
  });

  it('redacts a URL password that contains @ and keeps user and host', () => {
    const r = redact('DATABASE_URL=postgres://app:p@ss@w0rd@db.example.com:5432/main?sslmode=require');
    assert.equal(r.text, `DATABASE_URL=postgres://app:${REDACTED}@db.example.com:5432/main?sslmode=require`);
    assert.equal(redact('https://user:pw@example.com/x?token=abc123&page=2').text, `https://user:${REDACTED}@example.com/x?token=${REDACTED}&page=2`);
  });
});
