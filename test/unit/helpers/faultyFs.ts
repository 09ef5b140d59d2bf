import { nodeStoreFs } from '../../../src/core/store/storeFs';
import type { StoreFs } from '../../../src/core/store/storeFs';

/** An errno-style error like node:fs throws. */
export function fsError(code: string): Error {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/**
 * node:fs with switchable faults, for conditions a root test process cannot produce for real
 * (read-only folder, full disk). `failWrites` makes every data write fail with that code.
 */
export class FaultyFs implements StoreFs {
  failWrites: string | undefined;
  failAccess: string | undefined;

  mkdirSync: StoreFs['mkdirSync'] = (p, o) => nodeStoreFs.mkdirSync(p, o);
  accessSync: StoreFs['accessSync'] = (p, m) => {
    if (this.failAccess) throw fsError(this.failAccess);
    nodeStoreFs.accessSync(p, m);
  };
  openSync: StoreFs['openSync'] = (p, f, m) => nodeStoreFs.openSync(p, f, m);
  closeSync: StoreFs['closeSync'] = (fd) => nodeStoreFs.closeSync(fd);
  readSync: StoreFs['readSync'] = (fd, b, o, l, p) => nodeStoreFs.readSync(fd, b, o, l, p);
  writeSync: StoreFs['writeSync'] = (fd, b, o, l, p) => {
    if (this.failWrites) {
      // A full disk typically accepts part of the data before failing.
      if (l > 8) nodeStoreFs.writeSync(fd, b, o, Math.floor(l / 2), p);
      throw fsError(this.failWrites);
    }
    return nodeStoreFs.writeSync(fd, b, o, l, p);
  };
  fstatSync: StoreFs['fstatSync'] = (fd) => nodeStoreFs.fstatSync(fd);
  statSync: StoreFs['statSync'] = (p) => nodeStoreFs.statSync(p);
  fdatasyncSync: StoreFs['fdatasyncSync'] = (fd) => nodeStoreFs.fdatasyncSync(fd);
  fdatasync: StoreFs['fdatasync'] = (fd) => nodeStoreFs.fdatasync(fd);
  fsyncSync: StoreFs['fsyncSync'] = (fd) => nodeStoreFs.fsyncSync(fd);
  ftruncateSync: StoreFs['ftruncateSync'] = (fd, l) => nodeStoreFs.ftruncateSync(fd, l);
  renameSync: StoreFs['renameSync'] = (a, b) => nodeStoreFs.renameSync(a, b);
  unlinkSync: StoreFs['unlinkSync'] = (p) => nodeStoreFs.unlinkSync(p);
  existsSync: StoreFs['existsSync'] = (p) => nodeStoreFs.existsSync(p);
  readdirSync: StoreFs['readdirSync'] = (p) => nodeStoreFs.readdirSync(p);
  readFileSync: StoreFs['readFileSync'] = (p) => nodeStoreFs.readFileSync(p);
  copyFileSync: StoreFs['copyFileSync'] = (a, b) => nodeStoreFs.copyFileSync(a, b);
  writeNewFileSynced: StoreFs['writeNewFileSynced'] = async (p, c) => {
    if (this.failWrites) throw fsError(this.failWrites);
    return nodeStoreFs.writeNewFileSynced(p, c);
  };
}
