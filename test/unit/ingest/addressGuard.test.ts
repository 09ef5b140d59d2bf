import { strict as assert } from 'node:assert';
import { networkInterfaces } from 'node:os';
import { isLocalHostname, isPrivateAddress, parseV6 } from '../../../src/core/ingest/addressGuard';

/** [address, private?, why]: the guard table of docs/ingest.md. No address here is ever contacted. */
const TABLE: ReadonlyArray<readonly [string, boolean, string]> = [
  ['127.0.0.1', true, 'loopback'],
  ['127.8.9.10', true, 'loopback /8'],
  ['10.1.2.3', true, 'private 10/8'],
  ['172.16.0.1', true, 'private 172.16/12'],
  ['172.31.255.255', true, 'private 172.16/12 end'],
  ['192.168.1.1', true, 'private 192.168/16'],
  ['169.254.169.254', true, 'link-local (cloud metadata)'],
  ['0.0.0.0', true, 'this network'],
  ['100.64.0.1', true, 'CGNAT'],
  ['192.0.0.8', true, 'IETF protocol assignments'],
  ['192.0.2.1', true, 'documentation TEST-NET-1'],
  ['198.51.100.7', true, 'documentation TEST-NET-2'],
  ['203.0.113.9', true, 'documentation TEST-NET-3'],
  ['198.18.0.1', true, 'benchmarking 198.18/15'],
  ['198.19.255.254', true, 'benchmarking 198.18/15 end'],
  ['224.0.0.1', true, 'multicast'],
  ['240.0.0.1', true, 'reserved'],
  ['255.255.255.255', true, 'broadcast'],
  ['8.8.8.8', false, 'public'],
  ['172.32.0.1', false, 'just past 172.16/12'],
  ['198.20.0.1', false, 'just past 198.18/15'],
  ['192.0.3.1', false, 'just past TEST-NET-1'],
  ['93.184.216.34', false, 'public'],
  ['::1', true, 'IPv6 loopback'],
  ['::', true, 'IPv6 unspecified'],
  ['[::1]', true, 'bracketed loopback'],
  ['::127.0.0.1', true, 'IPv4-compatible loopback'],
  ['[::127.0.0.1]', true, 'IPv4-compatible loopback, bracketed'],
  ['::8.8.8.8', true, 'IPv4-compatible (deprecated, never public)'],
  ['::7f00:1', true, 'IPv4-compatible in hex'],
  ['::ffff:127.0.0.1', true, 'IPv4-mapped dotted'],
  ['::ffff:7f00:1', true, 'IPv4-mapped hex'],
  ['0:0:0:0:0:ffff:7f00:0001', true, 'IPv4-mapped fully written'],
  ['0000:0000:0000:0000:0000:ffff:127.0.0.1', true, 'IPv4-mapped fully written, dotted'],
  ['::ffff:10.0.0.1', true, 'IPv4-mapped private'],
  ['[::ffff:0:127.0.0.1]', true, 'IPv4-translated dotted'],
  ['::ffff:0:7f00:1', true, 'IPv4-translated hex'],
  ['::ffff:8.8.8.8', false, 'IPv4-mapped public'],
  ['64:ff9b::127.0.0.1', true, 'NAT64 of loopback'],
  ['64:ff9b::7f00:1', true, 'NAT64 of loopback, hex'],
  ['64:ff9b::a00:1', true, 'NAT64 of 10.0.0.1'],
  ['64:ff9b::808:808', false, 'NAT64 of a public address'],
  ['64:ff9b:1::1', true, 'local-use NAT64'],
  ['2002:7f00:1::', true, '6to4 of loopback'],
  ['2002:c0a8:101::1', true, '6to4 of 192.168.1.1'],
  ['2002:808:808::1', false, '6to4 of a public address'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', true, 'Teredo of 127.0.0.1'],
  ['fec0::1', true, 'site-local'],
  ['fefe::1', true, 'site-local end'],
  ['fc00::1', true, 'unique-local'],
  ['fd12:3456::1', true, 'unique-local'],
  ['fe80::1', true, 'link-local'],
  ['fe80::1%eth0', true, 'link-local with zone'],
  ['ff02::1', true, 'multicast'],
  ['2001:db8::1', true, 'documentation'],
  ['2001:db8:ffff::1', true, 'documentation'],
  ['100::1', true, 'discard-only'],
  ['2606:4700:4700::1111', false, 'public'],
  ['2a00:1450:4001:80b::200e', false, 'public'],
  ['not-an-ip', true, 'unparsable'],
  ['1.2.3', true, 'unparsable'],
  ['::ffff:1.2.3.256', true, 'unparsable'],
];

describe('address guard', () => {
  for (const [address, expected, why] of TABLE) {
    it(`${address} is ${expected ? 'private' : 'public'} (${why})`, () => {
      assert.equal(isPrivateAddress(address, () => []), expected);
    });
  }

  it("every address of this machine's own interfaces is private", () => {
    const own = Object.values(networkInterfaces()).flatMap((l) => (l ?? []).map((i) => i.address));
    assert.ok(own.length > 0);
    for (const a of own) assert.equal(isPrivateAddress(a), true, a);
  });

  it('an own interface address is private in every notation, including IPv4-mapped', () => {
    const own = (): string[] => ['93.184.216.34', '2606:4700:4700::1111'];
    assert.equal(isPrivateAddress('93.184.216.34', own), true);
    assert.equal(isPrivateAddress('::ffff:93.184.216.34', own), true);
    assert.equal(isPrivateAddress('::ffff:5db8:d822', own), true);
    assert.equal(isPrivateAddress('2606:4700:4700:0:0:0:0:1111', own), true);
    assert.equal(isPrivateAddress('93.184.216.35', own), false);
  });

  it('parses IPv6 notations to the same groups', () => {
    assert.deepEqual(parseV6('::ffff:127.0.0.1'), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    assert.deepEqual(parseV6('[::ffff:0:127.0.0.1]'), [0, 0, 0, 0, 0xffff, 0, 0x7f00, 1]);
    assert.deepEqual(parseV6('1:2:3:4:5:6:7:8'), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(parseV6('1::2::3'), undefined);
    assert.equal(parseV6('1:2:3:4:5:6:7:8:9'), undefined);
  });

  it('recognises local-only host names', () => {
    for (const h of ['localhost', 'LOCALHOST.', 'app.localhost', 'printer.local', 'db.internal', '0.0.0.0']) assert.equal(isLocalHostname(h), true, h);
    assert.equal(isLocalHostname('example.com'), false);
  });
});
