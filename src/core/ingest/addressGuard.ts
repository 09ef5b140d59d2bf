import { isIP } from 'node:net';

/**
 * SSRF guard (signet-spec §2.21 and url-validation): loopback, private, link-local, CGNAT and
 * unspecified addresses, plus local-only host names, are refused unless a setting allows them.
 */

function ipv4Private(ip: string): boolean {
  const p = ip.split('.').map(Number);
  if (p.length !== 4 || p.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return true;
  const [a, b] = p as [number, number, number, number];
  return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)
    || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
}

function ipv6Private(ip: string): boolean {
  const x = ip.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x) ?? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
  if (mapped) return ipv4Private(mapped[1] as string);
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(x);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1] as string, 16);
    const lo = parseInt(hexMapped[2] as string, 16);
    return ipv4Private(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (x === '::1' || x === '::' || /^0*:0*:0*:0*:0*:0*:0*:0*[01]$/.test(x)) return true;
  const first = parseInt(x.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
}

/** True for any address a document fetch must not reach by default. Unparsable input counts as private. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address.replace(/^\[|\]$/g, ''));
  if (kind === 4) return ipv4Private(address);
  if (kind === 6) return ipv6Private(address);
  return true;
}

/** Host names that only ever mean this machine or its local network. */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h === '0.0.0.0' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal');
}
