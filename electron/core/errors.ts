/** Errors of the core that cross the IPC boundary with a code the renderer can branch on. */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
