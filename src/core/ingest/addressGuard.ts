import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * SSRF guard (docs/ingest.md, the address guard): every address a document fetch must not
 * reach by default — loopback, private, link-local, CGNAT, unspecified, multicast, reserved,
 * documentation and benchmark ranges, IPv6 forms that embed such an IPv4 address (mapped,
 * translated, compatible, NAT64, 6to4, Teredo), site-local, and every address of this machine's
 * own interfaces (a public address bound locally still reaches local services). The table is in
 * docs/ingest.md; the table-driven test is test/unit/ingest/addressGuard.test.ts.
 */

type V4 = readonly [number, number, number, number];

function parseV4(ip: string): V4 | undefined {
  const p = ip.split('.');
  if (p.length !== 4 || p.some((s) => !/^\d{1,3}$/.test(s) || Number(s) > 255)) return undefined;
  return p.map(Number) as unknown as V4;
}

/** IPv4 ranges that are never a public web server (RFC 6890 special-purpose registry). */
function v4Private([a, b, c]: V4): boolean {
  return a === 0 || a === 10 || a === 127 || a >= 224                 // this network, private, loopback, multicast + reserved + broadcast
    || (a === 100 && b >= 64 && b <= 127)                             // CGNAT 100.64/10
    || (a === 169 && b === 254)                                       // link-local
    || (a === 172 && b >= 16 && b <= 31)                              // private
    || (a === 192 && b === 168)                                       // private
    || (a === 192 && b === 0 && (c === 0 || c === 2))                 // IETF protocol assignments, TEST-NET-1
    || (a === 198 && (b === 18 || b === 19))                          // benchmarking 198.18/15
    || (a === 198 && b === 51 && c === 100)                           // TEST-NET-2
    || (a === 203 && b === 0 && c === 113)                            // TEST-NET-3
    || (a === 192 && b === 88 && c === 99);                           // deprecated 6to4 relay anycast
}

/** Eight 16-bit groups of an IPv6 address (a trailing dotted quad and `::` expanded), or undefined. */
export function parseV6(ip: string): number[] | undefined {
  let x = ip.toLowerCase().replace(/^\[|\]$/g, '');
  const zone = x.indexOf('%');
  if (zone >= 0) x = x.slice(0, zone);
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(x);
  if (dotted) {
    const v4 = parseV4(dotted[2] as string);
    if (!v4) return undefined;
    tail.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
    x = dotted[1] as string;
    if (x.endsWith(':') && !x.endsWith('::')) x = x.slice(0, -1);
  }
  const halves = x.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return undefined;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = part(halves[0] as string);
  const rest = halves.length === 2 ? part(halves[1] as string) : [];
  if (!head || !rest) return undefined;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 2 ? given > 7 : given !== 8) return undefined;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail];
}

const v4Of = (hi: number, lo: number): V4 => [hi >> 8, hi & 255, lo >> 8, lo & 255];

function v6Private(g: readonly number[]): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number];
  const zero = (n: number): boolean => g.slice(0, n).every((v) => v === 0);
  // ::/96 holds the unspecified address, loopback and the deprecated IPv4-compatible form
  // (::a.b.c.d); none of it is a public destination.
  if (zero(6)) return true;
  if (zero(5) && g5 === 0xffff) return v4Private(v4Of(g6, g7));                   // IPv4-mapped ::ffff:a.b.c.d
  if (zero(4) && g4 === 0xffff && g5 === 0) return v4Private(v4Of(g6, g7));      // IPv4-translated ::ffff:0:a.b.c.d
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Private(v4Of(g6, g7)); // NAT64 64:ff9b::/96
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true;                      // local-use NAT64 64:ff9b:1::/48
  if (g0 === 0x2002) return v4Private(v4Of(g1, g2));                              // 6to4 2002:V4::/48
  if (g0 === 0x2001 && g1 === 0) return v4Private(v4Of(g6 ^ 0xffff, g7 ^ 0xffff)); // Teredo: client IPv4, inverted
  if (g0 === 0x2001 && g1 === 0x0db8) return true;                                // documentation 2001:db8::/32
  if (g0 === 0x0100 && g1 === 0 && g2 === 0 && g3 === 0) return true;                                     // discard-only 100::/64
  if (g0 === 0x2001 && g1 < 0x0200) return true;                                  // other IETF protocol assignments 2001::/23
  return (g0 & 0xfe00) === 0xfc00   // unique-local fc00::/7
    || (g0 & 0xffc0) === 0xfe80     // link-local fe80::/10
    || (g0 & 0xffc0) === 0xfec0     // site-local fec0::/10 (deprecated, still routed locally)
    || (g0 & 0xff00) === 0xff00;    // multicast
}

/** A canonical key for comparing addresses written in different notations. */
function addressKey(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = parseV4(bare);
  if (v4) return `4:${v4.join('.')}`;
  const v6 = parseV6(bare);
  if (!v6) return undefined;
  // An IPv4-mapped address is the same host as its IPv4 form.
  if (v6.slice(0, 5).every((v) => v === 0) && v6[5] === 0xffff) return `4:${v4Of(v6[6] as number, v6[7] as number).join('.')}`;
  return `6:${v6.join(':')}`;
}

/** The addresses of this machine's interfaces, read on every call (interfaces come and go). */
export function machineAddresses(): string[] {
  let table: ReturnType<typeof networkInterfaces>;
  try { table = networkInterfaces(); } catch { return []; }
  return Object.values(table).flatMap((list) => (list ?? []).map((info) => info.address));
}

/** True for any address a document fetch must not reach by default. Unparsable input counts as private. */
export function isPrivateAddress(address: string, ownAddresses: () => readonly string[] = machineAddresses): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const kind = isIP(bare);
  const v4 = kind === 4 ? parseV4(bare) : undefined;
  const v6 = kind === 6 ? parseV6(bare) : undefined;
  if (v4) { if (v4Private(v4)) return true; }
  else if (v6) { if (v6Private(v6)) return true; }
  else return true;
  const key = addressKey(bare);
  return key === undefined || ownAddresses().some((own) => addressKey(own) === key);
}

/** Host names that only ever mean this machine or its local network. */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h === '0.0.0.0' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal');
}
