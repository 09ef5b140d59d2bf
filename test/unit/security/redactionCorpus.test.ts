import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { systemClock } from '../../../src/core/clock';
import { defaultRememberDeps, remember } from '../../../src/core/memory/remember';
import { parseArgs } from '../../../src/cli/args';
import { noCliLlm, openCliEngine } from '../../../src/cli/openCliStore';
import { makeTempDir } from '../helpers/tempDir';

/**
 * The redaction corpus (docs/ingest.md "Redaction"): ~50 fake but realistic secrets, generated
 * here at run time, go through every entry point — remember, ingest, import, fetch from a
 * loopback server, session turns and end, and the language-model tool's core path — in content
 * and in every other stored field. Then the raw bytes of every file in the store folder (journal,
 * snapshots, anything else) are searched for each secret: there must be no hit.
 */
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const rand = (n: number, alphabet = ALNUM): string => Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join('');
/** Mixed case and digits guaranteed (the shapes real keys have). */
const mixed = (n: number): string => `Ab3${rand(n - 3)}`;
const b64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');

interface SecretForm {
  readonly name: string;
  /** How the secret appears in text. */
  readonly text: string;
  /** The bytes that must never reach the store. */
  readonly secret: string;
  /** False when the form spans lines (not usable as a one-line key). */
  readonly oneLine: boolean;
}

function corpus(): SecretForm[] {
  const forms: SecretForm[] = [];
  const add = (name: string, secret: string, text = secret, oneLine = true): void => { forms.push({ name, secret, text, oneLine }); };
  for (let v = 0; v < 2; v++) {
    add('openai', `sk-${mixed(40)}`);
    add('openai-proj', `sk-proj-${mixed(48)}`);
    add('anthropic', `sk-ant-${mixed(40)}`);
    add('aws-access', `AKIA${rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`);
    const awsSecret = `${mixed(20)}/${mixed(19)}`;
    add('aws-secret-bare', awsSecret, `export KEY=x; the key is ${awsSecret} ok`);
    const awsSecret2 = mixed(40);
    add('aws-secret-named', awsSecret2, `aws_secret_access_key = ${awsSecret2}`);
    add('github-pat', `ghp_${mixed(36)}`);
    add('github-fine', `github_pat_${mixed(22)}_${mixed(59)}`);
    add('slack-bot', `xoxb-${rand(12, '0123456789')}-${rand(12, '0123456789')}-${mixed(24)}`);
    add('slack-app', `xapp-1-A${rand(10)}-${rand(13, '0123456789')}-${mixed(40)}`);
    const hook = `T${rand(8)}/B${rand(8)}/${mixed(24)}`;
    add('slack-webhook', hook, `https://hooks.slack.com/services/${hook}`);
    add('google', `AIza${mixed(35)}`);
    add('stripe-live', `sk_live_${mixed(24)}`);
    add('stripe-restricted', `rk_live_${mixed(24)}`);
    add('stripe-webhook', `whsec_${mixed(32)}`);
    add('npm', `npm_${mixed(36)}`);
    const jwt = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: rand(8), n: rand(6) })}.${rand(43)}`;
    add('jwt', jwt.split('.')[2] as string, `cookie session=${jwt}; path=/`);
    add('jwt-bare', jwt.split('.')[1] as string, `here ${jwt}`);
    const bearer = mixed(32);
    add('bearer', bearer, `Authorization: Bearer ${bearer}`);
    const basic = Buffer.from(`deploy:${mixed(12)}`).toString('base64');
    add('basic-auth', basic, `Authorization: Basic ${basic}`);
    const pw = `Pw${mixed(14)}`;
    add('password-assign', pw, `password=${pw}`);
    const pw2 = `Pw${mixed(14)}`;
    add('password-json', pw2, `{"db_password": "${pw2}"}`);
    const apiKey = `Ak${mixed(20)}`;
    add('api-key-assign', apiKey, `API_KEY: ${apiKey}`);
    const urlPw = `Up${mixed(12)}`;
    add('url-password', urlPw, `postgres://app:${urlPw}@db.example.com:5432/main`);
    const urlAt = `Ua${mixed(8)}@${mixed(6)}`;
    add('url-password-at', urlAt.split('@')[1] as string, `mysql://root:${urlAt}@10.0.0.5/prod`);
    add('url-password-at-head', urlAt.split('@')[0] as string, `mysql://root:${urlAt}@10.0.0.5/prod`);
    const qtok = `Qt${mixed(20)}`;
    add('url-query-token', qtok, `https://api.example.com/v1?token=${qtok}&page=2`);
    const pem = `${rand(64, ALNUM + '+/')}\n${rand(64, ALNUM + '+/')}`;
    add('private-key', pem.split('\n')[1] as string, `-----BEGIN RSA PRIVATE KEY-----\n${pem}\n-----END RSA PRIVATE KEY-----`, false);
  }
  return forms;
}

function storeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...storeFiles(p)); else out.push(p);
  }
  return out;
}

describe('redaction corpus: no secret reaches a store file', function () {
  this.timeout(120_000);
  let tmp: ReturnType<typeof makeTempDir>;
  let server: Server;
  let port = 0;
  const forms = corpus();
  const oneLine = forms.filter((f) => f.oneLine);
  const urlPassword = `Fp${mixed(12)}`;
  const urlToken = `Ft${mixed(20)}`;

  before(async () => {
    tmp = makeTempDir('am-redaction-corpus-');
    server = createServer((_q, s) => {
      s.setHeader('content-type', 'text/plain');
      s.end(`Deployment notes.\n${forms.map((f) => f.text).join('\n')}\n`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    tmp.cleanup();
  });

  it(`stores ${forms.length} secret forms through every entry point and finds none of them in the store bytes`, async () => {
    assert.ok(forms.length >= 50, `${forms.length} forms`);
    const store = join(tmp.dir, 'store');
    const err: string[] = [];
    const cli = async (...argv: string[]): Promise<void> => {
      const code = await runCli(['--store', store, ...argv], { stdout: () => undefined, stderr: (s) => { err.push(s); } });
      assert.equal(code, 0, `${argv[0]}: ${err.join('')}`);
    };
    const all = forms.map((f) => f.text).join('\n');

    // remember: content and every flag-given field
    await cli('remember', '--source-id', oneLine[0]!.text, '--session', oneLine[1]!.text, '--project', oneLine[2]!.text, '--type', oneLine[3]!.text, `Secrets pasted by mistake:\n${all}`);
    // ingest: one line per form, the form in every field
    const jsonl = join(tmp.dir, 'memories.jsonl');
    writeFileSync(jsonl, forms.map((f, i) => JSON.stringify({
      content: `note ${i}: ${f.text}`, sourceId: `src-${f.text}`, who: f.text, project: f.text, tags: [f.text, 'x'],
      ...(f.oneLine ? { sessionId: f.text } : {}), type: 'fact',
    })).join('\n'));
    await cli('ingest', jsonl, '--no-wait');
    // import: a generic JSONL transcript whose session id and turns hold the secrets
    const transcript = join(tmp.dir, 'transcript.jsonl');
    writeFileSync(transcript, forms.map((f, i) => JSON.stringify({
      role: i % 2 ? 'assistant' : 'user', content: `We decided to keep this config: ${f.text}`, sessionId: `sess ${oneLine[4]!.text}`, project: oneLine[5]!.text,
    })).join('\n'));
    await cli('import', transcript, '--no-wait');
    // fetch: secrets in the document and in the URL's user info and query
    await cli('fetch', `http://deploy:${urlPassword}@127.0.0.1:${port}/notes?token=${urlToken}`, '--allow-private', '--no-wait', '--project', oneLine[6]!.text);
    // session: key and turns hold secrets; end runs capture (extraction) over the turns
    const key = `chat ${oneLine[7]!.text}`;
    await cli('session', 'start', '--session', key, '--project', oneLine[8]!.text);
    for (const f of forms) await cli('session', 'turn', key, `I will use ${f.text} for the deploy, we decided.`);
    await cli('session', 'end', key);
    // the language-model tool's core path: remember with the tool's fields, then its session turn
    const engine = await openCliEngine(parseArgs(['--store', store]), { stdout: () => undefined, stderr: () => undefined }, { llm: noCliLlm, embedder: () => undefined });
    const durable = engine.store;
    try {
      const loop = engine.loop;
      const toolKey = `tool ${oneLine[9]!.text}`;
      await loop.sessions.start({ sessionKey: toolKey, project: null, harness: 'vscode' });
      for (const f of forms) {
        await remember(durable, { content: `tool memory: ${f.text}`, type: 'fact', sourceType: 'vscode-lm-tool', sessionKey: toolKey, project: 'web' }, defaultRememberDeps(systemClock));
        await loop.sessions.turn(toolKey, 'tool', `memory_remember: ${f.text}`);
      }
      await loop.sessions.end(toolKey);
    } finally {
      await engine.close();
    }

    const files = storeFiles(store);
    assert.ok(files.length > 0);
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    assert.ok(bytes.includes('Deployment notes'), 'the fetched document was stored');
    assert.ok(bytes.includes('[REDACTED]'));
    const secrets = [...forms.map((f) => [f.name, f.secret] as const), ['fetch-url-password', urlPassword] as const, ['fetch-url-token', urlToken] as const];
    const leaks = secrets.filter(([, s]) => bytes.includes(s) || bytes.includes(s.toLowerCase())).map(([n]) => n);
    assert.deepEqual(leaks, [], `secrets found in the store files: ${leaks.join(', ')}`);
  });
});
