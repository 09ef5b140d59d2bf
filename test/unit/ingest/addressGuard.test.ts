import { strict as assert } from 'node:assert';
import { isLocalHostname, isPrivateAddress } from '../../../src/core/ingest/addressGuard';

describe('address guard', () => {
  it('refuses loopback, private, link-local, CGNAT and unspecified IPv4', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1'])
      assert.equal(isPrivateAddress(a), true, a);
  });

  it('allows public IPv4', () => {
    for (const a of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '1.1.1.1']) assert.equal(isPrivateAddress(a), false, a);
  });

  it('refuses IPv6 loopback, unique-local, link-local and mapped private IPv4', () => {
    for (const a of ['::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1'])
      assert.equal(isPrivateAddress(a), true, a);
    assert.equal(isPrivateAddress('2606:4700:4700::1111'), false);
    assert.equal(isPrivateAddress('::ffff:8.8.8.8'), false);
  });

  it('treats unparsable input as private', () => {
    assert.equal(isPrivateAddress('not-an-ip'), true);
  });

  it('recognises local-only host names', () => {
    for (const h of ['localhost', 'LOCALHOST.', 'app.localhost', 'printer.local', 'db.internal', '0.0.0.0']) assert.equal(isLocalHostname(h), true, h);
    assert.equal(isLocalHostname('example.com'), false);
  });
});
