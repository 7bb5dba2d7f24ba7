// Layer guard (see DESIGN.md): tsconfigs map modules a runtime must not import here, e.g.
// 'electron' outside electron/main and electron/preload. This file is in no project's file
// list, so such an import fails with TS6307 ("not listed within the file list of project"),
// and it exports nothing, so any named import fails too.
export type ForbiddenImport = never;
