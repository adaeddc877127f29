import { Component, type ComponentType, type ReactNode, useMemo } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { reportRuntimeError } from './report-runtime-error';

export interface OverrideBoundaryProps {
  /** What the override is, for the notice and the console: `Product.rating's display`. */
  what: string;
  /** The built-in content, shown in the override's place if it throws. */
  fallback: ReactNode;
  /** A table cell has room for a mark only; anywhere else the notice is a line of text. */
  compact?: boolean;
  children: ReactNode;
}

interface State {
  error?: unknown;
  failed: boolean;
}

/**
 * Runs an extension's override, and if it throws while rendering, shows the built-in content in its
 * place with a visible notice: one team's bug costs one widget, never the page.
 */
export class OverrideBoundary extends Component<OverrideBoundaryProps, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown) {
    // The team's developers need the stack; the person sees the notice.
    console.error(`[ninefold] the extension's ${this.props.what} threw`, error);
    reportRuntimeError(`the extension's ${this.props.what}`, error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <>
        {this.props.fallback}
        <FailedNotice what={this.props.what} compact={this.props.compact ?? false} />
      </>
    );
  }
}

function FailedNotice({ what, compact }: { what: string; compact: boolean }) {
  const { t } = useI18n();
  const text = t('extension.failed', { what: capitalize(what) });
  if (compact) {
    return (
      <span className="nf-override-failed" title={text}>
        {' '}
        <span aria-hidden="true">⚠</span>
        <span className="nf-visually-hidden">{text}</span>
      </span>
    );
  }
  return (
    <p className="nf-override-failed" role="note">
      <span aria-hidden="true">⚠ </span>
      {text}
    </p>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A component that renders fixed content, for an override's `Original` prop: stable across renders for
 * the same content, so that an override that renders `<Original />` does not remount it on each render.
 */
export function useOriginal(content: ReactNode): ComponentType {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the component reads the latest content through the ref below.
  const holder = useMemo(() => ({ content }), []);
  holder.content = content;
  return useMemo(() => {
    const Original = () => <>{holder.content}</>;
    Original.displayName = 'Original';
    return Original;
  }, [holder]);
}

/** `Original` outside a component (a table cell): a new component each time, cheap for plain content. */
export function originalOf(content: ReactNode): ComponentType {
  const Original = () => <>{content}</>;
  Original.displayName = 'Original';
  return Original;
}
