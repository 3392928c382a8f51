import { Component, type ErrorInfo, type ReactNode } from 'react';
import { SomethingWentWrong } from '../components/something-went-wrong';

interface State {
  failed: boolean;
}

/** Catches render failures outside the router's own error boundaries. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <SomethingWentWrong /> : this.props.children;
  }
}
