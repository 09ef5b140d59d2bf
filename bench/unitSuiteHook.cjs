// Preloaded (NODE_OPTIONS=--require) by bench/unitSuite.mjs into every process of a unit run; it acts
// only in the mocha process (scripts/mochaUnit.cjs) and is inert in the tests' child processes.
// It times each test file: loading (require, which includes compiling what it imports first), and
// running its top-level suites (hooks included, which is where fixtures and models are built), in
// wall time and in CPU time (the mocha process and the children it waited for), and writes them as JSON to UNIT_SUITE_TIMING_OUT.
// It patches Mocha.prototype.run rather than adding a reporter so that the same hook times any
// checkout of the repository (bench/unitSuite.mjs compares the current tree with an older one).
const out = process.env.UNIT_SUITE_TIMING_OUT;
if (out && /mochaUnit\.cjs$/.test(process.argv[1] || '')) {
  const { writeFileSync } = require('node:fs');
  const root = process.env.AGENT_MEMORY_ROOT || process.cwd();
  const Mocha = require(require.resolve('mocha', { paths: [root] }));
  const { execFileSync } = require('node:child_process');
  const { readFileSync } = require('node:fs');
  const clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  /** CPU time (ms) of this process plus its waited-for children (cutime+cstime of /proc/self/stat): tests that run the CLI or store processes spend their CPU there. */
  const cpuMs = () => {
    const u = process.cpuUsage();
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (u.user + u.system) / 1000 + ((Number(fields[13]) + Number(fields[14])) * 1000) / clockTicks;
  };
  const files = new Map();
  const entry = (file) => {
    let e = files.get(file);
    if (!e) files.set(file, (e = { loadMs: 0, loadCpuMs: 0, runMs: 0, runCpuMs: 0, tests: 0, testMs: 0, slowestTest: undefined }));
    return e;
  };
  const originalRun = Mocha.prototype.run;
  Mocha.prototype.run = function run(fn) {
    const startedWall = performance.now();
    const startedCpu = cpuMs();
    const loading = new Map();
    this.suite.on('pre-require', (_ctx, file) => loading.set(file, [performance.now(), cpuMs()]));
    this.suite.on('post-require', (_ctx, file) => {
      const [wall, cpu] = loading.get(file) ?? [performance.now(), cpuMs()];
      const e = entry(file);
      e.loadMs += performance.now() - wall;
      e.loadCpuMs += cpuMs() - cpu;
    });
    const runner = originalRun.call(this, fn);
    const open = new Map();
    runner.on('suite', (suite) => {
      if (suite.parent?.root && suite.file) open.set(suite, [performance.now(), cpuMs()]);
    });
    runner.on('suite end', (suite) => {
      const started = open.get(suite);
      if (!started) return;
      const e = entry(suite.file);
      e.runMs += performance.now() - started[0];
      e.runCpuMs += cpuMs() - started[1];
    });
    runner.on('test end', (test) => {
      const file = test.file ?? test.parent?.file;
      if (!file) return;
      const e = entry(file);
      e.tests += 1;
      e.testMs += test.duration ?? 0;
      if (!e.slowestTest || (test.duration ?? 0) > e.slowestTest.ms) e.slowestTest = { title: test.fullTitle(), ms: test.duration ?? 0 };
    });
    const failures = [];
    runner.on('fail', (test, err) => {
      failures.push({ title: test.fullTitle(), message: String(err?.message ?? err).split('\n')[0].slice(0, 300) });
    });
    runner.once('end', () => {
      const prefix = `${root}/`;
      const byFile = {};
      for (const [file, e] of files) byFile[file.startsWith(prefix) ? file.slice(prefix.length) : file] = e;
      const total = { wallMs: performance.now() - startedWall, cpuMs: cpuMs() - startedCpu, passes: runner.stats?.passes, failures: runner.stats?.failures, failed: failures };
      writeFileSync(out, JSON.stringify({ total, files: byFile }));
    });
    return runner;
  };
}
