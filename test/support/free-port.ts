import net from 'node:net';

/**
 * A port nothing listens on now: the kernel picks it (port 0), we release it. A random number
 * collided with the machine's outgoing connections (the ephemeral range starts at 32768) and
 * with other test runs; the kernel never hands out a port in use.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
