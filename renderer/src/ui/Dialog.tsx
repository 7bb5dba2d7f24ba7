/**
 * Modal dialogs. react-aria traps focus inside, restores it to the element that opened the
 * dialog, closes on Escape, and labels the dialog by its heading. `ConfirmDialog` asks one
 * question before something that cannot be undone, naming what will happen.
 */
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button, cx, IconButton } from './Button';

export interface DialogProps {
  title: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
  /** Buttons at the bottom right (the main action last). */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** alertdialog: a question that needs an answer (no close on outside click). */
  role?: 'dialog' | 'alertdialog';
  className?: string;
}

export function Dialog({
  title,
  isOpen,
  onClose,
  children,
  footer,
  size = 'md',
  role = 'dialog',
  className,
}: DialogProps) {
  return (
    <ModalOverlay
      className="modal-overlay"
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      isDismissable={role === 'dialog'}
    >
      <Modal className={cx('modal', `modal-${size}`, className)}>
        <AriaDialog className="dialog" role={role}>
          <header className="dialog-head">
            <Heading slot="title" className="dialog-title">
              {title}
            </Heading>
            <IconButton label="Close" icon={<X size={18} aria-hidden="true" />} onPress={onClose} />
          </header>
          <div className="dialog-body">{children}</div>
          {footer && <footer className="dialog-foot">{footer}</footer>}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

export interface ConfirmDialogProps {
  title: string;
  isOpen: boolean;
  /** What will happen, in a sentence or two. */
  message: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
  pending?: boolean;
  error?: string | null;
}

export function ConfirmDialog({
  title,
  isOpen,
  message,
  confirmLabel,
  onConfirm,
  onCancel,
  danger,
  pending,
  error,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      isOpen={isOpen}
      onClose={onCancel}
      size="sm"
      role="alertdialog"
      footer={
        <>
          <Button onPress={onCancel}>Cancel</Button>
          <Button variant={danger ? 'danger' : 'primary'} onPress={onConfirm} isDisabled={pending} autoFocus>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="confirm-message">{message}</div>
      {error && (
        <p role="alert" className="inline-error">
          {error}
        </p>
      )}
    </Dialog>
  );
}
