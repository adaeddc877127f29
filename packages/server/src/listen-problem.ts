/**
 * Why a server could not listen, in words a person can act on; the system's own text for anything else.
 *
 * @example
 * listenProblem(Object.assign(new Error('listen EADDRINUSE…'), { code: 'EADDRINUSE' }), '127.0.0.1', 4321);
 * // 'port 4321 on 127.0.0.1 is in use by another program: stop it, or give another port with --port N (0 picks a free one)'
 */
export function listenProblem(error: unknown, host: string, port: number): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'EADDRINUSE':
      return `port ${port} on ${host} is in use by another program: stop it, or give another port with --port N (0 picks a free one)`;
    case 'EACCES':
      return `port ${port} on ${host} needs privileges this user does not have: give a port above 1023 with --port N`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this machine: give one it has with --host (127.0.0.1 for this machine only)`;
    default:
      return (error as Error).message ?? String(error);
  }
}
