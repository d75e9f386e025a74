// React bindings that do not import React: the caller passes it in, so this package depends on nothing.
import type { LiveResults, LiveSnapshot } from "./liveResults.js";

/** The one React hook these bindings need; `React` itself (the module object) is one. */
export interface ExternalStoreHooks {
    useSyncExternalStore<S>(
        subscribe: (onStoreChange: () => void) => () => void,
        getSnapshot: () => S,
        getServerSnapshot?: () => S,
    ): S;
}

/**
 * The snapshot of `list`, in a React component: the component renders again whenever the list changes.
 *
 * ```tsx
 * import * as React from "react";
 * const { status, sections } = useLiveResults(todos, React);
 * ```
 */
export function useLiveResults<T>(list: LiveResults<T>, react: ExternalStoreHooks): LiveSnapshot<T> {
    // The server-rendering snapshot is the same: a page rendered on a server shows the list as it stands.
    return react.useSyncExternalStore(list.subscribe, list.getSnapshot, list.getSnapshot);
}

/**
 * A `useLiveResults` hook bound to `react`, to create once in an app.
 *
 * ```tsx
 * import * as React from "react";
 * export const useLiveResults = createLiveResultsHook(React);
 * // in a component:
 * const { status, sections } = useLiveResults(todos);
 * ```
 */
export function createLiveResultsHook(react: ExternalStoreHooks): <T>(list: LiveResults<T>) => LiveSnapshot<T> {
    return (list) => useLiveResults(list, react);
}
