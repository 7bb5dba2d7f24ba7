/** Wires the pure policies of electron-policy.ts to every WebContents the app creates. */
import type { Shell, WebContents } from 'electron';
import { externalUrlToOpen, isNavigationAllowed } from '../core/desktop/electron-policy';

function openExternally(shell: Shell, url: string): void {
  const safe = externalUrlToOpen(url);
  if (safe !== null) void shell.openExternal(safe);
}

export function guardWebContents(contents: WebContents, shell: Shell): void {
  // No new windows: http(s) and mailto links go to the system browser or mail client.
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(shell, url);
    return { action: 'deny' };
  });
  // The page never leaves app://confab; a clicked link opens outside instead.
  contents.on('will-navigate', (event) => {
    if (isNavigationAllowed(event.url)) return;
    event.preventDefault();
    openExternally(shell, event.url);
  });
  contents.on('will-redirect', (event) => {
    if (!isNavigationAllowed(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
