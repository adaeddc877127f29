/**
 * A fresh idempotency key: a random UUID (version 4). Built from `crypto.getRandomValues`, which every
 * browser has, because `crypto.randomUUID` exists only on secure origins and a client may be served
 * over plain HTTP on a private network.
 *
 * @example
 * newIdempotencyKey(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 */
export function newIdempotencyKey(random: (bytes: Uint8Array<ArrayBuffer>) => void = fillRandom): string {
  const bytes = new Uint8Array(16);
  random(bytes);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function fillRandom(bytes: Uint8Array<ArrayBuffer>): void {
  globalThis.crypto.getRandomValues(bytes);
}
