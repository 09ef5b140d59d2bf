// Types for packAssets.mjs (imported by the unit tests).
export const PACKED_DIR: string;
export const PACKED_MANIFEST: string;
export function planesEncode(data: Buffer, k?: number): Buffer;
export function clearPacked(root: string): void;
export function packAssets(root: string, target: string): Promise<string[]>;
