import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";

/**
 * A page whose code is fetched the first time it is shown, so the console's first load carries
 * only the shell and the sign-in form (the bundler puts each `import()` in a chunk of its own).
 * `load` is asked once; a failed fetch (the console was redeployed and the chunk's name changed,
 * the network dropped) says so and offers to load the console again.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const fetchPage = () => {
    pending ??= load().then(
      (page) => {
        loaded = page;
        return page;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return function LazyPage(props: P) {
    const [state, setState] = useState<{ page?: ComponentType<P>; failed?: boolean }>({ page: loaded });
    useEffect(() => {
      if (state.page) return;
      let current = true;
      fetchPage().then(
        (page) => current && setState({ page }),
        () => current && setState({ failed: true }),
      );
      return () => {
        current = false;
      };
    }, []);
    const Page = state.page;
    if (Page) return <Page {...props} />;
    if (state.failed)
      return (
        <div role="alert" class="error">
          <p>This page could not be fetched.</p>
          {/* A whole new load: after a redeploy the chunk names differ, and the browser may keep the failed import. */}
          <button type="button" onClick={() => location.reload()}>
            Reload the console
          </button>
        </div>
      );
    return <p aria-live="polite">Loading…</p>;
  };
}
