/**
 * The images main shows itself: the tray icon and Windows' taskbar overlay. They are committed
 * PNGs (build/, rendered from SVG by scripts/icons.ts) that the Electron build copies into
 * dist/electron/icons/, beside main.cjs. Electron picks `tray@2x.png` on high-density displays.
 */
import path from 'node:path';
import { type NativeImage, nativeImage } from 'electron';

const iconFile = (name: string) => path.join(__dirname, 'icons', name);

export function trayIcon(): NativeImage {
  return nativeImage.createFromPath(iconFile('tray.png'));
}

/** The red dot on the taskbar button while there are unread messages. */
export function badgeOverlayIcon(): NativeImage {
  return nativeImage.createFromPath(iconFile('badge-overlay.png'));
}
