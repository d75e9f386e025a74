// The live list a page holds: what it shows, how it is told of changes, and how it is opened.
import type { BackoffOptions } from "./backoff.js";
import type { MoveDestination, RowKey, SortKey } from "./clientMessage.js";
import type { ObjectDecoder } from "./parseChangeset.js";
import type { Section } from "./section.js";
import type { SessionError } from "./serverMessage.js";
import type { Timers } from "./timers.js";
import type { WebSocketConstructor } from "./webSocketLike.js";

/**
 * Where a live list stands.
 *
 * - `connecting`: no list yet (the first connection, or a reconnection before any list arrived).
 * - `live`: the list follows the database.
 * - `catchingUp`: the server is behind the database and catching up; batches keep coming.
 * - `resyncing`: the list shown may be stale: the connection was lost and is being made again, or the
 *   server cannot follow the database for now. Batches resume after it.
 * - `refused`: the server will not open this list for this client (see the snapshot's `error`); final.
 * - `closed`: `close()` was called; final.
 */
export type LiveStatus = "connecting" | "live" | "catchingUp" | "resyncing" | "refused" | "closed";

/** What a live list holds at one moment. A change makes a new snapshot; a snapshot never changes. */
export interface LiveSnapshot<T> {
    readonly status: LiveStatus;
    /** The sections, in order; each untouched by a change stays the same object. */
    readonly sections: readonly Section<T>[];
    /** The last error since a list last arrived (the reason for `refused`, the server's `error`, ...), if any. */
    readonly error: SessionError | undefined;
}

/**
 * A list that the server keeps equal to its results. Its functions are bound: pass `subscribe` and
 * `getSnapshot` on their own (React's `useSyncExternalStore(list.subscribe, list.getSnapshot)`).
 */
export interface LiveResults<T> {
    /** The current status (the snapshot's). */
    readonly status: LiveStatus;
    /** The current snapshot: the same object until something changes. */
    readonly getSnapshot: () => LiveSnapshot<T>;
    /** Calls `listener` after each change of the snapshot, until the returned function is called. */
    readonly subscribe: (listener: () => void) => () => void;
    /**
     * Asks the server to move the row whose primary key is `key`.
     *
     * The list changes only by the server's batches; the promise resolves on the server's acknowledgement,
     * which comes after every batch that shows the move, so by then the snapshot holds it.
     *
     * @returns a promise rejected with a `MoveError`: the server's error when the move was not made,
     *   `disconnected` when the list is not connected or the connection closed before the answer, `refused`
     *   after the server refused the list, `closed` after `close()`.
     */
    readonly moveRow: (key: RowKey, destination: MoveDestination) => Promise<void>;
    /** Closes the connection for good: the status becomes `closed`, moves waiting for an answer are rejected. */
    readonly close: () => void;
}

/** How to open a live list. Every field is optional. */
export interface SubscribeOptions<T> {
    /** A predicate in FetchKit's format syntax on keys the server allows: `done == NO AND title BEGINSWITH 'W'`. */
    readonly filter?: string | undefined;
    /** Keys to sort by, after the server's own sort. */
    readonly sort?: readonly SortKey[] | undefined;
    /** Turns each object the server sends into a `T` (e.g. parses its dates); by default objects stay as sent. */
    readonly decode?: ObjectDecoder<T> | undefined;
    /** The waits between reconnection attempts. */
    readonly backoff?: BackoffOptions | undefined;
    /**
     * Called with every error: the server's `error` and `refused`, a changeset that did not apply (`mismatch`),
     * a message that could not be read (`protocol`).
     */
    readonly onError?: ((error: SessionError) => void) | undefined;
    /** The WebSocket class (default: the host's `WebSocket`). */
    readonly WebSocket?: WebSocketConstructor | undefined;
    /** The timers that schedule reconnections (default: the host's). */
    readonly timers?: Timers | undefined;
    /** The source of the backoff's jitter, in [0, 1) (default: `Math.random`). */
    readonly random?: (() => number) | undefined;
}
