import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run';
import { ADMIN_ROLE } from '../helpers/postgresServer';
import { makeTempDir } from '../helpers/tempDir';
import { startTeamFixture } from '../helpers/teamFixture';
import type { TeamFixture } from '../helpers/teamFixture';

interface Run { code: number; out: string; err: string }

describe('agent-memory team (CLI against a real server)', function () {
  this.timeout(120_000);
  let fx: TeamFixture;
  const temps: (() => void)[] = [];
  const savedPassword = process.env.PGPASSWORD;
  const savedPassFile = process.env.PGPASSFILE;

  before(async () => { fx = await startTeamFixture(['gina', 'hugo']); });
  after(async () => {
    if (savedPassword === undefined) delete process.env.PGPASSWORD; else process.env.PGPASSWORD = savedPassword;
    if (savedPassFile === undefined) delete process.env.PGPASSFILE; else process.env.PGPASSFILE = savedPassFile;
    await fx?.close();
    for (const t of temps.splice(0)) t();
  });

  const storeDir = (): string => { const t = makeTempDir('agent-memory-team-cli-'); temps.push(t.cleanup); return t.dir; };

  /** Runs the CLI with PGPASSWORD set to `password` (the CLI's way to get it, like psql). */
  async function cli(password: string | undefined, argv: string[]): Promise<Run> {
    if (password === undefined) delete process.env.PGPASSWORD; else process.env.PGPASSWORD = password;
    const out: string[] = [], err: string[] = [];
    const code = await runCli(argv, { stdout: (s) => { out.push(s); }, stderr: (s) => { err.push(s); } });
    return { code, out: out.join(''), err: err.join('') };
  }

  it('init, connect, share, sync, recall on the other store, unshare, disconnect', async () => {
    const admin = await cli(fx.pg.adminPassword, ['team', 'init', fx.pg.url(ADMIN_ROLE)]);
    assert.equal(admin.code, 0, admin.err);
    assert.match(admin.out, /up to date \(version 2\)/);
    assert.match(admin.out, /Skipped server migration 3: the server has no "vector" extension installed/);
    const gina = fx.passwords.get('gina') as string;
    const hugo = fx.passwords.get('hugo') as string;
    const a = storeDir();
    const b = storeDir();
    for (const [dir, role, pw] of [[a, 'gina', gina], [b, 'hugo', hugo]] as const) {
      const c = await cli(pw, ['--store', dir, 'team', 'connect', fx.pg.url(role)]);
      assert.equal(c.code, 0, c.err);
      assert.match(c.out, new RegExp(`Connected to ${role}@127\\.0\\.0\\.1`));
      assert.equal((await cli(pw, ['--store', dir, 'team', 'share', '--project', 'cli-proj'])).code, 0);
    }
    const remembered = await cli(gina, ['--store', a, 'remember', '--project', 'cli-proj', 'The staging cluster is drained every Friday at noon.']);
    assert.equal(remembered.code, 0, remembered.err);
    const id = remembered.out.trim().split(/\s+/).find((w) => /^[0-9a-f-]{36}$/.test(w)) as string;
    assert.ok(id, remembered.out);
    const pushed = await cli(gina, ['--store', a, 'team', 'sync', '--json']);
    assert.equal(pushed.code, 0, pushed.err);
    assert.equal(JSON.parse(pushed.out).push.sent, 1);
    const pulled = await cli(hugo, ['--store', b, 'team', 'sync', '--json']);
    assert.equal(JSON.parse(pulled.out).pull.inserted, 1);
    const found = await cli(hugo, ['--store', b, 'recall', '--only', 'lexical', 'staging cluster drained']);
    assert.match(found.out, /drained every Friday/);
    const searched = await cli(hugo, ['--store', b, 'team', 'search', '--only', 'lexical', '--json', 'staging', 'cluster', 'drained']);
    assert.equal(searched.code, 0, searched.err);
    const sr = JSON.parse(searched.out);
    assert.equal(sr.vector, 'server-lacks-pgvector');
    assert.deepEqual(sr.hits.map((h: { id: string; author: string }) => [h.id, h.author]), [[id, 'gina']]);
    const searchedText = await cli(hugo, ['--store', b, 'team', 'search', 'staging cluster drained']);
    assert.equal(searchedText.code, 0, searchedText.err);
    assert.match(searchedText.out, /drained every Friday[\s\S]*cli-proj · team · gina[\s\S]*note: The team server lacks pgvector/);
    const notShared = await cli(hugo, ['--store', b, 'team', 'search', '--project', 'elsewhere', 'staging']);
    assert.equal(notShared.code, 1);
    assert.match(notShared.err, /not shared from this store/);
    const status = await cli(hugo, ['--store', b, 'team', 'status', '--json']);
    const s = JSON.parse(status.out);
    assert.equal(s.state, 'connected');
    assert.equal(s.waiting, 0);
    assert.deepEqual(s.sharedProjects, ['cli-proj']);

    assert.equal((await cli(gina, ['--store', a, 'team', 'unshare', id])).code, 0);
    await cli(gina, ['--store', a, 'team', 'sync']);
    const gone = await cli(hugo, ['--store', b, 'team', 'sync', '--json']);
    assert.equal(JSON.parse(gone.out).pull.forgotten, 1);
    assert.equal((await cli(hugo, ['--store', b, 'get', id])).code, 1);
    assert.equal((await cli(gina, ['--store', a, 'get', id])).code, 0, 'the author keeps it');

    assert.equal((await cli(gina, ['--store', a, 'team', 'disconnect'])).code, 0);
    assert.match((await cli(gina, ['--store', a, 'team', 'status'])).out, /team: not connected/);
    const offline = await cli(gina, ['--store', a, 'team', 'sync']);
    assert.equal(offline.code, 1);
    assert.match(offline.err, /not connected/);
  });

  it('a partial replica: team sync passes over a teammate\'s memory, team status says partial, recall finds it on the server and keeps it', async () => {
    const gina = fx.passwords.get('gina') as string;
    const hugo = fx.passwords.get('hugo') as string;
    const a = storeDir();
    const b = storeDir();
    for (const [dir, role, pw] of [[a, 'gina', gina], [b, 'hugo', hugo]] as const) {
      assert.equal((await cli(pw, ['--store', dir, 'team', 'connect', fx.pg.url(role)])).code, 0);
      assert.equal((await cli(pw, ['--store', dir, 'team', 'share', '--project', 'cli-partial'])).code, 0);
    }
    assert.equal((await cli(hugo, ['--store', b, 'config', 'set', 'team.replica', 'partial'])).code, 0);
    const remembered = await cli(gina, ['--store', a, 'remember', '--project', 'cli-partial', 'The billing exports are signed with the ops GPG key.']);
    const id = remembered.out.trim().split(/\s+/).find((w) => /^[0-9a-f-]{36}$/.test(w)) as string;
    assert.equal((await cli(gina, ['--store', a, 'team', 'sync'])).code, 0);
    const pulled = await cli(hugo, ['--store', b, 'team', 'sync']);
    assert.equal(pulled.code, 0, pulled.err);
    assert.match(pulled.out, /pulled 0 new, .*partial replica: 1 teammates' memories not copied/);
    const status = await cli(hugo, ['--store', b, 'team', 'status']);
    assert.match(status.out, /replica: partial/);
    const found = await cli(hugo, ['--store', b, 'recall', '--only', 'lexical', '--explain', 'billing exports signed']);
    assert.equal(found.code, 0, found.err);
    assert.match(found.out, new RegExp(`signed with the ops GPG key[\\s\\S]*id ${id}[\\s\\S]*From the team server, shared by gina`));
    assert.ok(!found.err.includes(hugo));
    // Replicated by that recall: a full-replica recall (no server) now finds it in the store.
    const local = await cli(hugo, ['--store', b, '--set', 'team.replica=full', 'recall', '--only', 'lexical', '--json', 'billing exports signed']);
    assert.deepEqual(JSON.parse(local.out).map((r: { id: string }) => r.id), [id]);
  });

  it('reads the password from a pgpass file when PGPASSWORD is not set', async () => {
    const dir = storeDir();
    const passFile = join(storeDir(), 'pgpass');
    writeFileSync(passFile, `127.0.0.1:${fx.pg.port}:postgres:hugo:${fx.passwords.get('hugo') as string}\n`, { mode: 0o600 });
    process.env.PGPASSFILE = passFile;
    try {
      const c = await cli(undefined, ['--store', dir, 'team', 'connect', fx.pg.url('hugo')]);
      assert.equal(c.code, 0, c.err);
      const s = await cli(undefined, ['--store', dir, 'team', 'status', '--json']);
      assert.equal(JSON.parse(s.out).state, 'connected');
    } finally {
      delete process.env.PGPASSFILE;
    }
  });

  it('a wrong or missing password and bad arguments are clear errors without the password', async () => {
    const dir = storeDir();
    const wrong = 'definitely-wrong-password';
    const r = await cli(wrong, ['--store', dir, 'team', 'connect', fx.pg.url('gina')]);
    assert.equal(r.code, 1);
    assert.match(r.err, /refused the login of role "gina"/);
    assert.ok(!r.err.includes(wrong) && !r.out.includes(wrong));
    const none = await cli(undefined, ['--store', dir, 'team', 'connect', fx.pg.url('gina')]);
    assert.equal(none.code, 1);
    assert.match(none.err, /PGPASSWORD|pgpass/);
    const inUrl = await cli(undefined, ['--store', dir, 'team', 'connect', `postgresql://gina:${wrong}@127.0.0.1:${fx.pg.port}/postgres`]);
    assert.equal(inUrl.code, 1);
    assert.match(inUrl.err, /must not contain a password/);
    assert.ok(!inUrl.err.includes(wrong));
    assert.equal((await cli(undefined, ['--store', dir, 'team'])).code, 2);
    assert.equal((await cli(undefined, ['--store', dir, 'team', 'share'])).code, 2);
    const notShared = await cli(undefined, ['--store', dir, 'remember', '--project', 'solo', 'a personal note']);
    const id = notShared.out.trim().split(/\s+/).find((w) => /^[0-9a-f-]{36}$/.test(w)) as string;
    const refused = await cli(undefined, ['--store', dir, 'team', 'share', id]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /not shared with the team/);
  });
});
