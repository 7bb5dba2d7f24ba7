/** The tray icon: shows the unread count in its tooltip (attention.ts), opens the window, quits. */
import { Menu, Tray } from 'electron';
import { trayIcon } from './icons';

export function createTray(actions: { show(): void; quit(): void }): Tray | null {
  try {
    const tray = new Tray(trayIcon());
    tray.setToolTip('Confab');
    // Some Linux desktops only ever show the menu, never report a click.
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Show Confab', click: actions.show },
        { type: 'separator' },
        { label: 'Quit Confab', click: actions.quit },
      ]),
    );
    tray.on('click', actions.show);
    return tray;
  } catch (error) {
    // A desktop without a status area: the app works without a tray.
    console.error('confab: no tray icon', error);
    return null;
  }
}
