/** API keys at rest: encrypted by the OS through safeStorage where it really encrypts. */
import path from 'node:path';
import { safeStorage } from 'electron';
import { EncryptedFileSecretStore, FileSecretStore, type SecretStore } from '../core/secrets';

export function createSecretStore(profileDir: string): SecretStore {
  // Linux without a keyring falls back to 'basic_text', a fixed key: that is not encryption,
  // so say so (the core reports encrypted=false and the UI tells the user).
  const reallyEncrypted =
    safeStorage.isEncryptionAvailable() &&
    (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text');
  if (!reallyEncrypted) return new FileSecretStore(path.join(profileDir, 'secrets.json'));
  // A separate file: browser mode reads secrets.json as plain text.
  return new EncryptedFileSecretStore(path.join(profileDir, 'secrets.safe.json'), {
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (encrypted) => safeStorage.decryptString(encrypted),
  });
}
