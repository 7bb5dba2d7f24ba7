/**
 * Do not disturb in the sidebar: off, a button that offers for 1 hour, until tomorrow (9:00)
 * or until turned off; on, the bell-off icon and until when ("Do not disturb until 14:05"),
 * with a button that turns it off. The main process keeps it for every window and honours it
 * in its notifications (dnd.ts); a change it did not take is said here.
 */
import { Bell, BellOff } from 'lucide-react';
import { Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { Button, IconButton, InlineError } from '../../ui';
import {
  DND_FOREVER,
  forOneHour,
  setDoNotDisturb,
  untilTomorrowMorning,
  useDoNotDisturb,
  useDoNotDisturbError,
} from './dnd';
import { type TimeFormatter, useTimeFormatter } from './time';

export function dndLabel(until: number, format: TimeFormatter, now = new Date()): string {
  if (until >= DND_FOREVER) return 'Do not disturb is on';
  return `Do not disturb until ${format.dateTime(until, now)}`;
}

export function DoNotDisturbControl() {
  const error = useDoNotDisturbError();
  return (
    <>
      <DoNotDisturbRow />
      {error && (
        <div className="dnd">
          <InlineError>{error}</InlineError>
        </div>
      )}
    </>
  );
}

function DoNotDisturbRow() {
  const until = useDoNotDisturb();
  const format = useTimeFormatter();
  if (until !== null) {
    return (
      <div className="dnd dnd-on">
        <BellOff size={16} aria-hidden="true" className="dnd-icon" />
        <span className="dnd-label" role="status" aria-label="Do not disturb">
          {dndLabel(until, format)}
        </span>
        <IconButton
          label="Turn off do not disturb"
          icon={<Bell size={15} aria-hidden="true" />}
          onPress={() => void setDoNotDisturb(null)}
        />
      </div>
    );
  }
  const tomorrow = `Until tomorrow (${format.time(new Date(2000, 0, 1, 9, 0))})`;
  return (
    <div className="dnd">
      <MenuTrigger>
        <Button
          variant="ghost"
          size="sm"
          icon={<BellOff size={15} aria-hidden="true" />}
          className="dnd-button"
        >
          Do not disturb
        </Button>
        <Popover className="popover menu-popover" placement="top start">
          <Menu
            className="menu"
            aria-label="Do not disturb"
            onAction={(key) => {
              const now = new Date();
              if (key === 'hour') void setDoNotDisturb(forOneHour(now));
              else if (key === 'tomorrow') void setDoNotDisturb(untilTomorrowMorning(now));
              else void setDoNotDisturb(DND_FOREVER);
            }}
          >
            <MenuItem id="hour" className="menu-item">
              For 1 hour
            </MenuItem>
            <MenuItem id="tomorrow" className="menu-item" textValue={tomorrow}>
              {tomorrow}
            </MenuItem>
            <MenuItem id="on" className="menu-item">
              Until I turn it off
            </MenuItem>
          </Menu>
        </Popover>
      </MenuTrigger>
    </div>
  );
}
