import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { crc32, crc32Fallback } from '../../../src/core/store/crc32';
import { decodeHeader, encodeHeader, encodeRecord, scanRecords, JOURNAL_FORMAT } from '../../../src/core/store/journalCodec';
import { decodeSnapshotHeader, encodeSnapshotHeader } from '../../../src/core/store/snapshotFile';

describe('journal and snapshot encoding', () => {
  it('round-trips statements with text, numbers, null, blobs, infinities and named params', () => {
    const blob = new Uint8Array([0, 1, 2, 255]);
    const rec = encodeRecord(7, { k: 'tx', l: 'remember', s: [
      { sql: 'INSERT INTO t VALUES (?, ?, ?, ?, ?)', params: ['é 深色', 1.5, null, blob, Infinity] },
      { sql: 'UPDATE t SET a = :a', params: { a: -Infinity } },
      { sql: 'DELETE FROM t' },
    ] });
    const { records, stop } = scanRecords(rec, 100);
    assert.equal(stop, 'end');
    assert.equal(records.length, 1);
    const r = records[0];
    assert.ok(r && r.payload.k === 'tx');
    assert.equal(r.seq, 7);
    assert.equal(r.end, 100 + rec.length);
    assert.deepEqual(r.payload.s[0]?.params, ['é 深色', 1.5, null, blob, Infinity]);
    assert.deepEqual(r.payload.s[1]?.params, { a: -Infinity });
    assert.equal(r.payload.s[2]?.params, undefined);
  });

  it('stops at an incomplete record and at a record failing its checksum', () => {
    const a = encodeRecord(1, { k: 'tx', l: 'a', s: [{ sql: 'DELETE FROM x' }] });
    const b = encodeRecord(2, { k: 'rotate', g: 2 });
    const both = Buffer.concat([a, b]);
    assert.deepEqual(scanRecords(both.subarray(0, both.length - 3), 0).stop, 'incomplete');
    assert.equal(scanRecords(both.subarray(0, both.length - 3), 0).stopOffset, a.length);
    const flipped = Buffer.from(both);
    flipped[a.length + 20] = (flipped[a.length + 20] as number) ^ 1;
    const scan = scanRecords(flipped, 0);
    assert.equal(scan.stop, 'corrupt');
    assert.equal(scan.records.length, 1);
    assert.equal(scan.stopOffset, a.length);
  });

  it('validates journal and snapshot headers by checksum', () => {
    const h = encodeHeader({ format: JOURNAL_FORMAT, generation: 3, firstSeq: 12345 });
    assert.deepEqual(decodeHeader(h), { format: JOURNAL_FORMAT, generation: 3, firstSeq: 12345 });
    h[13] = 9;
    assert.equal(decodeHeader(h), undefined);
    const s = encodeSnapshotHeader({ schemaVersion: 4, seq: 99, generation: 2, offset: 4096, imageLength: 10, imageCrc: 5 });
    assert.equal(decodeSnapshotHeader(s)?.seq, 99);
    s[20] = 1;
    assert.equal(decodeSnapshotHeader(s), undefined);
  });

  it('computes the same CRC-32 natively and in the fallback', () => {
    const data = randomBytes(4096);
    assert.equal(crc32Fallback(data), crc32(data));
    assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
  });
});
