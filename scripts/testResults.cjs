// Each test layer records its counts in test-results/<layer>.json; scripts/test.mjs sums them.
const { mkdirSync, writeFileSync, readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');

const dir = join(__dirname, '..', 'test-results');

function writeResult(layer, counts) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${layer}.json`), JSON.stringify({ layer, ...counts }) + '\n');
}

function readResult(layer) {
  const file = join(dir, `${layer}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

module.exports = { writeResult, readResult, resultsDir: dir };
