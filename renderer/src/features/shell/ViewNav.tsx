/** The signed-in views: a small tab-like navigation (buttons; the current one is marked). */
export type AppView = 'settings' | 'drafts';

const VIEWS: { view: AppView; label: string }[] = [
  { view: 'settings', label: 'Settings' },
  { view: 'drafts', label: 'Drafts' },
];

export function ViewNav({ view, onChange }: { view: AppView; onChange: (view: AppView) => void }) {
  return (
    <nav className="view-nav" aria-label="Views">
      {VIEWS.map((v) => (
        <button
          key={v.view}
          type="button"
          aria-current={v.view === view ? 'page' : undefined}
          onClick={() => onChange(v.view)}
        >
          {v.label}
        </button>
      ))}
    </nav>
  );
}
