/**
 * The baseline of the http benchmark: a bare node:http server answering every request with a
 * small JSON hello in the service's envelope. It runs as its own process, as the service does,
 * so that the same load generator measures both the same way and /proc gives its CPU time
 * alone. Prints `listening on http://127.0.0.1:<port>` once it listens (the service's line).
 *
 * Run: node --import tsx bench/bare-server.ts [port]
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);

const server = createServer((_request, response) => {
  // Serialized per request, as a real handler would: the baseline should cost what the least
  // a JSON endpoint can cost, not less.
  const body = JSON.stringify({ result: 'success', msg: '', hello: 'world' });
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
});

// The load generator keeps its connections for the whole run.
server.keepAliveTimeout = 60_000;

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  process.stdout.write(`listening on http://127.0.0.1:${address.port}\n`);
});

process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
