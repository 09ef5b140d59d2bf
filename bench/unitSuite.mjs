// Unit suite timing: runs scripts/runUnit.mjs of one or more checkouts, interleaved (A B A B ...), and
// records per run the wall time, the CPU time (user+sys) of the whole process tree, the load average,
// and per test file the load/run wall and CPU time (mocha process and its children; bench/unitSuiteHook.cjs).
// CPU time is the figure to compare on a shared machine: wall time moves with other people's load.
// Writes bench/results/unitSuite.json (aggregates only).
//
//   node bench/unitSuite.mjs [--runs 3] [--root <checkout>]... [--grep <pattern>] [--out <file>]
//
// Without --root it times this checkout. With several roots it labels them A, B, ... in that order;
// each root needs its own node_modules.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const roots = [];
let runs = 3;
let grep = '';
let out = join(here, 'results', 'unitSuite.json');
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const value = () => {
    const v = args[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    return v;
  };
  if (a === '--root') roots.push(resolve(value()));
  else if (a === '--runs') runs = Number(value());
  else if (a === '--grep') grep = value();
  else if (a === '--out') out = resolve(value());
  else throw new Error(`unknown argument ${a} (use --runs, --root, --grep, --out)`);
}
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
if (roots.length === 0) roots.push(resolve(here, '..'));

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
/** CPU time (ms) of this process's waited-for descendants: fields cutime+cstime of /proc/self/stat. */
function childrenCpuMs() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After "pid (comm) ", field 3 (state) is index 0, so cutime (16) and cstime (17) are 13 and 14.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks;
}

function commitOf(root) {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** One run of root's unit suite; resolves with its figures. */
function runOnce(root, label) {
  const scratch = mkdtempSync(join(tmpdir(), 'unit-suite-timing-'));
  const timingFile = join(scratch, 'timing.json');
  const hook = join(here, 'unitSuiteHook.cjs');
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${hook}`.trim(),
    UNIT_SUITE_TIMING_OUT: timingFile,
  };
  const loadBefore = loadavg()[0];
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'runUnit.mjs'), ...(grep ? [grep] : [])], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const cpuMs = childrenCpuMs() - cpuBefore;
      const counts = /unit: (\d+) passed, (\d+) failed/.exec(output);
      let timing = { total: {}, files: {} };
      try {
        timing = JSON.parse(readFileSync(timingFile, 'utf8'));
      } catch {
        // No timing file: the run failed before mocha finished; the exit code and counts say so.
      }
      rmSync(scratch, { recursive: true, force: true });
      if (!counts) console.error(output.split('\n').slice(-30).join('\n'));
      resolvePromise({
        label,
        exitCode: code,
        passed: counts ? Number(counts[1]) : undefined,
        failed: counts ? Number(counts[2]) : undefined,
        wallMs: Math.round(wallMs),
        cpuMs: Math.round(cpuMs),
        mochaCpuMs: Math.round(timing.total.cpuMs ?? 0),
        // Titles of failed tests (on a loaded machine, timeouts): a run with failures is not comparable.
        failedTests: timing.total.failed ?? [],
        loadBefore,
        loadAfter: loadavg()[0],
        files: timing.files,
      });
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x) => Math.round(x * 10) / 10;

const labels = roots.map((_, i) => String.fromCharCode(65 + i));
const results = [];
for (let r = 0; r < runs; r++) {
  for (let i = 0; i < roots.length; i++) {
    const res = await runOnce(roots[i], labels[i]);
    results.push(res);
    for (const f of res.failedTests) console.log(`  failed: ${f.title}: ${f.message}`);
    console.log(
      `${res.label} run ${r + 1}: ${res.passed} passed, ${res.failed} failed (exit ${res.exitCode}); wall ${(res.wallMs / 1000).toFixed(1)} s, cpu ${(res.cpuMs / 1000).toFixed(1)} s (mocha run incl. children ${(res.mochaCpuMs / 1000).toFixed(1)} s); load ${res.loadBefore.toFixed(2)} → ${res.loadAfter.toFixed(2)}`,
    );
  }
}

const summary = roots.map((root, i) => {
  const mine = results.filter((x) => x.label === labels[i]);
  const tests = median(mine.map((x) => x.passed ?? 0)) + median(mine.map((x) => x.failed ?? 0));
  const fileNames = [...new Set(mine.flatMap((x) => Object.keys(x.files ?? {})))];
  const perFile = fileNames.map((f) => {
    const of = mine.map((x) => x.files?.[f]).filter(Boolean);
    return {
      file: f,
      tests: median(of.map((e) => e.tests)),
      cpuMs: round(median(of.map((e) => e.loadCpuMs + e.runCpuMs))),
      wallMs: round(median(of.map((e) => e.loadMs + e.runMs))),
      loadCpuMs: round(median(of.map((e) => e.loadCpuMs))),
      runCpuMs: round(median(of.map((e) => e.runCpuMs))),
    };
  });
  perFile.sort((a, b) => b.cpuMs - a.cpuMs);
  const cpuMs = median(mine.map((x) => x.cpuMs));
  return {
    label: labels[i],
    // The folder name only: results are committed and machine paths mean nothing elsewhere.
    checkout: basename(root),
    commit: commitOf(root),
    runs: mine.length,
    tests,
    medianWallMs: median(mine.map((x) => x.wallMs)),
    medianCpuMs: cpuMs,
    medianMochaRunCpuMs: median(mine.map((x) => x.mochaCpuMs)),
    cpuMsPerTest: tests ? round(cpuMs / tests) : undefined,
    loadAverages: mine.map((x) => [round(x.loadBefore), round(x.loadAfter)]),
    topFilesByCpu: perFile.slice(0, 15),
    files: perFile,
  };
});
for (const s of summary) {
  console.log(`\n${s.label} ${s.commit} (${s.checkout}): ${s.tests} tests, median wall ${(s.medianWallMs / 1000).toFixed(1)} s, median cpu ${(s.medianCpuMs / 1000).toFixed(1)} s (${s.cpuMsPerTest} ms/test)`);
  for (const f of s.topFilesByCpu) console.log(`  ${String(f.cpuMs).padStart(8)} ms cpu ${String(f.wallMs).padStart(8)} ms wall ${String(f.tests).padStart(4)} tests  ${f.file}`);
}
if (summary.length > 1) {
  const [a, ...rest] = summary;
  for (const b of rest) console.log(`\n${b.label}/${a.label}: cpu ${(b.medianCpuMs / a.medianCpuMs).toFixed(3)}, wall ${(b.medianWallMs / a.medianWallMs).toFixed(3)}, cpu per test ${(b.cpuMsPerTest / a.cpuMsPerTest).toFixed(3)}`);
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ generatedAt: new Date().toISOString(), grep: grep || undefined, runs: results.map((r) => ({ ...r, files: undefined })), summary }, null, 2) + '\n');
console.log(`\nwrote ${out}`);
