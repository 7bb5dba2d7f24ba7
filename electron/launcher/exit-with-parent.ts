/**
 * Preloaded into the embedded server (`--import`): the launcher holds the other end of the
 * server's stdin, so when the launcher dies without stopping the server (kill -9, a crash),
 * stdin ends and the server shuts down as it does on SIGTERM. The server stays unaware.
 */
const stdin = process.stdin;
stdin.on('end', () => process.kill(process.pid, 'SIGTERM'));
stdin.on('error', () => process.kill(process.pid, 'SIGTERM'));
stdin.resume();
// Waiting for the end of stdin must not by itself keep the server alive.
(stdin as unknown as { unref?: () => void }).unref?.();
