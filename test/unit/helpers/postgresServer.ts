/**
 * A real, throwaway PostgreSQL server for the team-memory tests and bench (docs/team.md, "Tests").
 *
 * - Binaries: Debian's `postgresql` package (`/usr/lib/postgresql/<major>/bin`). When it is missing
 *   the harness installs it through apt, the same way the VS Code harness installs Chromium
 *   (`scripts/vscode/install.mjs#ensureDebianPackages`: as root, or with passwordless sudo).
 * - User: PostgreSQL refuses to run as root, and tests run as root here and in CI. Then the server
 *   runs as the dedicated system user `agentmemory-pg` (created with `useradd --system` when
 *   absent); Node's spawn `uid`/`gid` options start initdb and postgres as that user directly, so
 *   the postmaster is our own child (no su/runuser wrapper in between) and stopping it is a signal
 *   to a pid we own. Run as a normal user, the server simply runs as that user.
 * - Data: initdb into a fresh temp folder; the server listens on 127.0.0.1 only, on a free port,
 *   with its Unix socket inside the temp folder. Authentication is scram-sha-256 over TCP for every
 *   role; the bootstrap superuser has a random password too.
 * - Cleanup: `stop()` does a fast shutdown (SIGINT), waits for the exit and removes the folder; an
 *   exit hook kills a server a crashed test run left behind.
 * fsync is off by default: the tests stop the server cleanly (never crash it), so durability of
 * the OS cache is not under test and the 2-core machines stay fast. `{ durable: true }` keeps
 * PostgreSQL's own defaults (fsync and full-page writes on), as a production server runs: the
 * bench uses it, so its sizing figures include the server's commits (docs/team.md, "Sizing").
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

const ROOT = join(__dirname, '..', '..', '..');
const PG_LIB = '/usr/lib/postgresql';
const SERVICE_USER = 'agentmemory-pg';
export const ADMIN_ROLE = 'am_admin';

export interface PostgresServer {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  /** The superuser's password (tests use it to create roles and inspect tables). */
  readonly adminPassword: string;
  /** A connection string for `role` (never containing a password). */
  url(role: string): string;
  /** A connected client as the superuser; the caller ends it. */
  admin(): Promise<Client>;
  /** Creates a login role with a password, member of `group` when given. */
  createRole(role: string, password: string, group?: string): Promise<void>;
  /** Stops the server (fast shutdown) and keeps the data folder, for a restart. */
  pause(): Promise<void>;
  /** Starts the server again on the same port and data folder. */
  resume(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL bin folder, or undefined. */
function findBinDir(): string | undefined {
  if (!existsSync(PG_LIB)) return undefined;
  const majors = readdirSync(PG_LIB).filter((v) => /^\d+$/.test(v) && existsSync(join(PG_LIB, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(PG_LIB, majors[0], 'bin');
}

function ensureBinDir(): string {
  const found = findBinDir();
  if (found) return found;
  const script = `import(${JSON.stringify(join(ROOT, 'scripts', 'vscode', 'install.mjs'))}).then((m) => m.ensureDebianPackages(['postgresql'], 'the team-memory tests (a real PostgreSQL server)'))`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit', timeout: 30 * 60_000 });
  const after = findBinDir();
  if (r.status !== 0 || !after) throw new Error(`PostgreSQL is not installed and apt could not install it; install the Debian package "postgresql" (apt-get install -y postgresql).`);
  return after;
}

interface RunAs { readonly uid?: number; readonly gid?: number }

/** Root runs the server as the dedicated system user; anyone else runs it as themselves. */
function serviceUser(): RunAs {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  const lookup = (): string => spawnSync('getent', ['passwd', SERVICE_USER], { encoding: 'utf8' }).stdout.trim();
  if (!lookup()) {
    const r = spawnSync('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', SERVICE_USER], { encoding: 'utf8' });
    if (r.status !== 0 && !lookup()) throw new Error(`Could not create the system user ${SERVICE_USER} for the test PostgreSQL server: ${r.stderr.trim()}`);
  }
  const [, , uid, gid] = lookup().split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => { for (const p of live) p.kill('SIGKILL'); });
}

const quoteIdent = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const quoteLiteral = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export interface StartPostgresOptions {
  /** Keep fsync and full-page writes on (PostgreSQL's defaults) instead of the tests' fast settings. */
  readonly durable?: boolean;
}

export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const speed = options.durable ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off'];
  const bin = ensureBinDir();
  const runAs = serviceUser();
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'agent-memory-pg-'));
  const data = join(dir, 'data');
  const sockets = join(dir, 'sock');
  const adminPassword = randomBytes(18).toString('base64url');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${adminPassword}\n`, { mode: 0o600 });
  mkdirSync(sockets);
  if (runAs.uid !== undefined && runAs.gid !== undefined) {
    for (const p of [dir, pwfile, sockets]) chownSync(p, runAs.uid, runAs.gid);
  }
  chmodSync(dir, 0o700);
  const env = { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8', HOME: dir, PGPASSWORD: '' };
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', ADMIN_ROLE, `--pwfile=${pwfile}`, '--auth-local=scram-sha-256', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync', '--no-instructions'], {
    ...runAs, env, encoding: 'utf8', cwd: dir, timeout: 120_000,
  });
  rmSync(pwfile, { force: true });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr.trim() || init.stdout.trim()}`);
  }
  const port = await freePort();
  let proc: ChildProcess | undefined;

  async function launch(): Promise<void> {
    const child = spawn(join(bin, 'postgres'), ['-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', sockets, ...speed, '-c', 'max_connections=200', '-c', 'log_min_messages=fatal'], {
      ...runAs, env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => { stderr = (stderr + d.toString('utf8')).slice(-4000); });
    live.add(child);
    child.once('exit', () => live.delete(child));
    proc = child;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`postgres exited during start: ${stderr.trim()}`);
      const c = new Client({ host: '127.0.0.1', port, user: ADMIN_ROLE, password: adminPassword, database: 'postgres', connectionTimeoutMillis: 2000 });
      try {
        await c.connect();
        await c.end();
        return;
      } catch {
        await c.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 60 s: ${stderr.trim()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  async function halt(): Promise<void> {
    const child = proc;
    proc = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  }

  try {
    await launch();
  } catch (e) {
    await halt();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }

  const admin = async (): Promise<Client> => {
    const c = new Client({ host: '127.0.0.1', port, user: ADMIN_ROLE, password: adminPassword, database: 'postgres' });
    await c.connect();
    return c;
  };

  return {
    host: '127.0.0.1',
    port,
    database: 'postgres',
    adminPassword,
    url: (role) => `postgresql://${encodeURIComponent(role)}@127.0.0.1:${port}/postgres`,
    admin,
    async createRole(role, password, group) {
      const c = await admin();
      try {
        await c.query(`CREATE ROLE ${quoteIdent(role)} LOGIN PASSWORD ${quoteLiteral(password)}${group ? ` IN ROLE ${quoteIdent(group)}` : ''}`);
      } finally {
        await c.end();
      }
    },
    pause: halt,
    resume: launch,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
