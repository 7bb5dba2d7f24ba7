/** The four privacy states as radio buttons; one that cannot be chosen is disabled with its reason. */
import { Globe, Hash, Lock, LockKeyhole } from 'lucide-react';
import { useId } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { PRIVACY_LABELS, PRIVACY_ORDER, type Privacy } from './streamsModel';

const ICONS = { 'web-public': Globe, public: Hash, 'private-shared': Lock, 'private-protected': LockKeyhole };

export function PrivacyChoice({
  value,
  onChange,
  reasonOf,
  label = 'Who can access the stream',
}: {
  value: Privacy;
  onChange: (value: Privacy) => void;
  reasonOf: (privacy: Privacy) => string | null;
  label?: string;
}) {
  const base = useId();
  return (
    <RadioGroup className="privacy-choice" value={value} onChange={(v) => onChange(v as Privacy)}>
      <Label className="field-label">{label}</Label>
      {PRIVACY_ORDER.map((p) => {
        const reason = reasonOf(p);
        const Icon = ICONS[p];
        const id = `${base}-${p}`;
        return (
          <Radio
            key={p}
            value={p}
            isDisabled={reason !== null}
            className="privacy-option"
            aria-describedby={id}
          >
            <span className="radio-dot" aria-hidden="true" />
            <Icon size={15} aria-hidden="true" className="privacy-icon" />
            <span className="privacy-text">
              <span className="privacy-label">{PRIVACY_LABELS[p].label}</span>
              <span id={id} className="privacy-description">
                {reason ?? PRIVACY_LABELS[p].description}
              </span>
            </span>
          </Radio>
        );
      })}
    </RadioGroup>
  );
}
