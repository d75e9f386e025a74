/**
 * A value that changes by replacement, and the listeners told of each change: the external-store contract
 * (`subscribe` and `getSnapshot`) that React's `useSyncExternalStore` and plain code both use.
 */
export class SnapshotStore<S> {
    #snapshot: S;
    readonly #listeners = new Set<() => void>();

    constructor(initial: S) {
        this.#snapshot = initial;
    }

    get snapshot(): S {
        return this.#snapshot;
    }

    /** Replaces the snapshot and calls every listener. */
    set(snapshot: S): void {
        this.#snapshot = snapshot;
        for (const listener of [...this.#listeners]) listener();
    }

    /** Calls `listener` after each change until the returned function is called. */
    subscribe(listener: () => void): () => void {
        // A listener subscribed twice is kept twice, and each unsubscribe removes one.
        const entry = () => listener();
        this.#listeners.add(entry);
        return () => {
            this.#listeners.delete(entry);
        };
    }
}
