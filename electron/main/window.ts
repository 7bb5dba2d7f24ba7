/**
 * The main window: created with the locked-down options of electron-policy.ts, at the place
 * restoreBounds (desktop-prefs.ts) allows, and its place saved in PROFILE/window-state.json.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BrowserWindow, screen } from 'electron';
import { restoreBounds, windowStateToSave } from '../core/desktop/desktop-prefs';
import { APP_ENTRY_URL, mainWindowOptions, WINDOW_DEFAULTS } from '../core/desktop/electron-policy';

export const WINDOW_STATE_FILE = 'window-state.json';
/** Moving or resizing fires many events: save once things settle. */
const SAVE_DELAY_MS = 1_000;

function readSaved(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null; // first run, or a damaged file: the defaults
  }
}

/** Work areas with the primary display first (restoreBounds sizes a lost window to it). */
function workAreas() {
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((d) => d.id !== primary.id);
  return [primary, ...others].map((d) => d.workArea);
}

export function createMainWindow(preloadPath: string, profileDir: string): BrowserWindow {
  const stateFile = path.join(profileDir, WINDOW_STATE_FILE);
  const placement = restoreBounds(readSaved(stateFile), workAreas(), WINDOW_DEFAULTS);
  const win = new BrowserWindow(mainWindowOptions(preloadPath, placement));
  if (placement.maximized) win.maximize();

  const current = () => JSON.stringify(windowStateToSave(win.getNormalBounds(), win.isMaximized()));
  let timer: NodeJS.Timeout | null = null;
  const saveSoon = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!win.isDestroyed()) void writeFile(stateFile, current()).catch(() => undefined);
    }, SAVE_DELAY_MS);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('maximize', saveSoon);
  win.on('unmaximize', saveSoon);
  // Synchronously on close: the app may be quitting and will not wait for a promise.
  win.on('close', () => {
    if (timer) clearTimeout(timer);
    try {
      writeFileSync(stateFile, current());
    } catch (error) {
      console.error('confab: could not save the window state', error);
    }
  });

  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY_URL);
  return win;
}
