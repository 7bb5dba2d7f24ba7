/** A short text on hover and keyboard focus (react-aria: delays, Escape, one open at a time). */
import type { ReactElement } from 'react';
import { Tooltip as AriaTooltip, TooltipTrigger } from 'react-aria-components';

export function Tooltip({ text, children }: { text: string; children: ReactElement }) {
  return (
    <TooltipTrigger delay={500} closeDelay={0}>
      {children}
      <AriaTooltip className="tooltip" offset={6}>
        {text}
      </AriaTooltip>
    </TooltipTrigger>
  );
}
