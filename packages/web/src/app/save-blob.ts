/**
 * Hands bytes fetched with the session's credentials to the browser as a download named `name`: a plain
 * link cannot carry the credentials, and they never go in the address.
 */
export function saveBlob(blob: Blob, name: string): void {
  const address = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = address;
  link.download = name;
  link.click();
  // The browser has taken the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(address), 1000);
}
