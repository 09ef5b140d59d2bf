// Child processes with a timeout: every external step of the harness goes through runStep, which
// runs the command in its own process group, kills the whole group on timeout, and fails with a
// message naming the step and the tail of its output.
import { spawn } from 'node:child_process';

export class HarnessError extends Error {
  constructor(message) {
    super(message);
    this.name = 'HarnessError';
  }
}

const TAIL_LINES = 40;

/** Last lines of a text, for error messages. */
export function tail(text, lines = TAIL_LINES) {
  const all = String(text).trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

/** Kills a process group (negative pid); ignores groups that are already gone. */
export function killGroup(pid, signal = 'SIGTERM') {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group is alive. */
export function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs cmd with args, resolving with {stdout, stderr} on exit code 0.
 * Rejects with a HarnessError on a non-zero exit, a spawn error or the timeout.
 * options: cwd, env, timeoutMs (required), label (step name), echo (stream output to this console),
 * hint (what to check, shown on failure), diagnose (output => a specific cause or undefined; shown
 * instead of the hint when it names one).
 */
export function runStep(cmd, args, options) {
  const { cwd, env = process.env, timeoutMs, label = `${cmd} ${args.join(' ')}`, echo = false, hint = '', diagnose } = options;
  if (!timeoutMs) throw new HarnessError(`runStep(${label}) needs a timeout`);
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let child;
    try {
      child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      reject(new HarnessError(`${label}: could not start ${cmd}: ${err.message}`));
      return;
    }
    const collect = (stream, sink) => stream.on('data', (chunk) => {
      out += chunk;
      if (out.length > 200_000) out = out.slice(-100_000);
      if (echo) sink.write(chunk);
    });
    collect(child.stdout, process.stdout);
    collect(child.stderr, process.stderr);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    const interrupt = () => killGroup(child.pid, 'SIGKILL');
    process.once('exit', interrupt);
    child.on('error', (err) => {
      clearTimeout(timer);
      process.removeListener('exit', interrupt);
      reject(new HarnessError(`${label}: could not start ${cmd}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.removeListener('exit', interrupt);
      if (timedOut) {
        reject(new HarnessError(`${label}: timed out after ${Math.round(timeoutMs / 1000)} s.${hint ? ` ${hint}` : ''}\n--- last output ---\n${tail(out)}`));
      } else if (code !== 0) {
        const cause = diagnose?.(out) ?? hint;
        reject(new HarnessError(`${label}: failed (${signal ? `signal ${signal}` : `exit code ${code}`}).${cause ? ` ${cause}` : ''}\n--- last output ---\n${tail(out)}`));
      } else {
        resolvePromise({ output: out });
      }
    });
  });
}

/** Seconds since a Date.now() value, one decimal. */
export function secondsSince(started) {
  return ((Date.now() - started) / 1000).toFixed(1);
}
