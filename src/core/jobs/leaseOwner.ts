import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * Job lease owners name the process that holds them: `<label>-<uuid>@<host>/<pid>`. A lease whose
 * owner ran on this host and whose pid is gone is reclaimed at once instead of after its expiry
 * (docs/store.md, "Job leases"): a killed `agent-memory ingest` used to make the next run wait out
 * the 300 s lease. Leases of other hosts (shared folders) and of owners in the old format (no
 * host/pid) still wait for their expiry.
 */
const OWNER_PATTERN = /@([^@/]+)\/(\d+)$/;

/** A lease owner for this process, e.g. `cli-3f2a…@laptop/4242`. */
export function localLeaseOwner(label: string): string {
  return `${label}-${randomUUID()}@${hostname()}/${process.pid}`;
}

/** The host and pid recorded in an owner, or undefined for owners without them. */
export function parseLeaseOwner(owner: string): { host: string; pid: number } | undefined {
  const m = OWNER_PATTERN.exec(owner);
  return m ? { host: m[1] as string, pid: Number(m[2]) } : undefined;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the pid exists but belongs to another user, so it is alive.
    return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * True when the owner recorded this host and a pid that no longer runs. A pid can be reused by an
 * unrelated process; then the lease just waits for its expiry as before (never reclaimed early by
 * mistake, only late).
 */
export function isDeadLocalOwner(owner: string, host = hostname()): boolean {
  const parsed = parseLeaseOwner(owner);
  if (!parsed || parsed.host !== host || parsed.pid === process.pid || parsed.pid <= 0) return false;
  return !pidAlive(parsed.pid);
}
