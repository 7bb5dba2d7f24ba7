/** A button that opens a list of actions (arrow keys, typeahead, Escape returns focus). */
import type { ReactNode } from 'react';
import { Menu as AriaMenu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { IconButton } from './Button';

export interface MenuAction {
  id: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  isDisabled?: boolean;
  onAction: () => void;
  /** A line above this item. */
  separatorBefore?: boolean;
}

export function MenuButton({
  label,
  icon,
  actions,
}: {
  label: string;
  icon: ReactNode;
  actions: MenuAction[];
}) {
  return (
    <MenuTrigger>
      <IconButton label={label} icon={icon} />
      <Popover className="popover menu-popover" placement="bottom end">
        <AriaMenu
          className="menu"
          aria-label={label}
          disabledKeys={actions.filter((a) => a.isDisabled).map((a) => a.id)}
          onAction={(key) => actions.find((a) => a.id === key)?.onAction()}
        >
          {actions.flatMap((action) => [
            ...(action.separatorBefore
              ? [<Separator key={`${action.id}-sep`} className="menu-separator" />]
              : []),
            <MenuItem
              key={action.id}
              id={action.id}
              textValue={action.label}
              className={action.danger ? 'menu-item menu-item-danger' : 'menu-item'}
            >
              {action.icon}
              <span>{action.label}</span>
            </MenuItem>,
          ])}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}
