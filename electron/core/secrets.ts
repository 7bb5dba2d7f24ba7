/**
 * Where API keys live. The key never leaves the main process; this interface hides how it is
 * kept: Electron wires `safeStorage` into `EncryptedFileSecretStore`, browser mode (no OS
 * keychain reachable from plain Node) uses `FileSecretStore`, a file only its owner can read.
 */
import { chmod } from 'node:fs/promises';
import { readTextIfExists, SerialQueue, writeFileAtomic } from './files';

export interface SecretStore {
  /** False when secrets are stored without OS encryption (the UI says so). */
  readonly encrypted: boolean;
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** How a value is turned into what is written to disk and back. */
interface Codec {
  encode(value: string): string;
  decode(stored: string): string;
}

const FILE_MODE = 0o600;

/** One JSON object `{key: stored value}` in one file, mode 0600, written atomically. */
class JsonFileSecretStore implements SecretStore {
  private readonly queue = new SerialQueue();
  private modeChecked = false;

  constructor(
    readonly filePath: string,
    readonly encrypted: boolean,
    private readonly codec: Codec,
  ) {}

  get(key: string): Promise<string | null> {
    return this.queue.run(async () => {
      const stored = (await this.read())[key];
      return stored === undefined ? null : this.codec.decode(stored);
    });
  }

  set(key: string, value: string): Promise<void> {
    return this.queue.run(async () => {
      const all = await this.read();
      all[key] = this.codec.encode(value);
      await this.write(all);
    });
  }

  delete(key: string): Promise<void> {
    return this.queue.run(async () => {
      const all = await this.read();
      if (!Object.hasOwn(all, key)) return;
      delete all[key];
      await this.write(all);
    });
  }

  private async read(): Promise<Record<string, string>> {
    const text = await readTextIfExists(this.filePath);
    if (text === null) return {};
    if (!this.modeChecked) {
      // A file copied or restored with a wider mode is narrowed again before we rely on it.
      await chmod(this.filePath, FILE_MODE);
      this.modeChecked = true;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Refuse rather than start afresh: writing an empty object would lose every key.
      throw new Error(`The secrets file ${this.filePath} is damaged (not JSON)`);
    }
    const all: Record<string, string> = {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') all[k] = v;
    }
    return all;
  }

  private async write(all: Record<string, string>): Promise<void> {
    await writeFileAtomic(this.filePath, `${JSON.stringify(all, null, 2)}\n`, FILE_MODE);
    this.modeChecked = true;
  }
}

/** Plain-text secrets in a 0600 file: browser mode and machines without an OS keychain. */
export class FileSecretStore extends JsonFileSecretStore {
  constructor(filePath: string) {
    super(filePath, false, { encode: (v) => v, decode: (s) => s });
  }
}

export interface SecretCipher {
  encrypt(plain: string): Buffer;
  decrypt(encrypted: Buffer): string;
}

/**
 * Secrets encrypted by the given functions (Electron's safeStorage) before they reach the
 * 0600 file. `encrypted` can be set false where the cipher is only obfuscation (safeStorage's
 * `basic_text` backend on Linux without a keyring).
 */
export class EncryptedFileSecretStore extends JsonFileSecretStore {
  constructor(filePath: string, cipher: SecretCipher, options: { encrypted?: boolean } = {}) {
    super(filePath, options.encrypted ?? true, {
      encode: (v) => cipher.encrypt(v).toString('base64'),
      decode: (s) => cipher.decrypt(Buffer.from(s, 'base64')),
    });
  }
}
