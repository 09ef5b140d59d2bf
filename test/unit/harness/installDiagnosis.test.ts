import { strict as assert } from 'node:assert';
import type * as Diagnosis from '../../../scripts/vscode/installDiagnosis.mjs' with { 'resolution-mode': 'import' };

describe('harness: install failure diagnosis', () => {
  let diagnose: typeof Diagnosis.diagnoseInstallFailure;
  before(async () => {
    ({ diagnoseInstallFailure: diagnose } = await import('../../../scripts/vscode/installDiagnosis.mjs'));
  });
  const opts = { expectedNode: '24.21.0', buildPackages: ['libkrb5-dev', 'pkg-config'] };

  it("names the wrong Node when code-server's postinstall refuses it", () => {
    const out = 'npm error code-server currently requires node v24. We have detected that you are on node v20\nnpm error exit 1';
    const cause = diagnose(out, opts) ?? '';
    assert.match(cause, /ran under Node 20 although Node 24\.21\.0/);
    assert.match(cause, /npm_config_user_agent/);
  });

  it('names an unreachable registry', () => {
    assert.match(diagnose('npm error code ENOTFOUND\nnpm error network request to https://r.test failed', opts) ?? '', /registry could not be reached/);
  });

  it('names a missing header and the packages that provide it', () => {
    const cause = diagnose('../src/kerberos.h:5:10: fatal error: gssapi/gssapi.h: No such file or directory', opts) ?? '';
    assert.match(cause, /header gssapi\/gssapi\.h is missing/);
    assert.match(cause, /apt-get install -y libkrb5-dev pkg-config build-essential python3/);
  });

  it('names a full disk', () => {
    assert.match(diagnose('npm error nospc ENOSPC: no space left on device, write', opts) ?? '', /disk is full/);
  });

  it('says nothing for output it does not recognise (the caller shows its hint and the tail)', () => {
    assert.equal(diagnose('npm error something else entirely', opts), undefined);
  });
});
