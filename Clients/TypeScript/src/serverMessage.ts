// What the server sends over a live session's WebSocket: one JSON object per message.
import type { WireChangeset } from "./wireChangeset.js";

/** The session protocol's version, `v` in every message. */
export const PROTOCOL_VERSION = 1;

/**
 * An error as the server describes it; its message is safe to show.
 *
 * The server's codes: `invalid` (the client's message), `conflict` (a write conflicted), `unavailable` (the
 * database cannot be reached or the list stopped), `internal`, and in `refused` also `forbidden`. This client
 * adds `mismatch` (a changeset did not apply to the list it holds) and `protocol` (a message it cannot read).
 */
export interface SessionError {
    readonly code: string;
    readonly message: string;
}

/** How the server's list follows the database. */
export type ServerListStatus = "live" | "catchingUp" | "resyncing";

/** The server's status values, for validation. */
export const SERVER_LIST_STATUSES: readonly ServerListStatus[] = ["live", "catchingUp", "resyncing"];

/** The whole list, as a changeset that inserts every section into an empty list. */
export interface ResultsMessage<T> {
    readonly v: 1;
    readonly type: "results";
    readonly token: string;
    readonly changeset: WireChangeset<T>;
}

/** One change, from exactly the list the client holds to the next. */
export interface BatchMessage<T> {
    readonly v: 1;
    readonly type: "batch";
    readonly token: string;
    readonly changeset: WireChangeset<T>;
}

/** The answer to `open` with a usable resume token: one changeset from that token's list to now. */
export interface ResumedMessage<T> {
    readonly v: 1;
    readonly type: "resumed";
    readonly token: string;
    readonly changeset: WireChangeset<T>;
}

/** The resume token cannot be used (`expired` or `unknown`); `results` follows. */
export interface ResetMessage {
    readonly v: 1;
    readonly type: "reset";
    readonly reason: string;
}

/** The acknowledgement of the client's `move` with this `id`; with `error`, the move was not made. */
export interface MovedMessage {
    readonly v: 1;
    readonly type: "moved";
    readonly id: number;
    readonly error?: SessionError | undefined;
}

/** How the server's list now follows the database. */
export interface StatusMessage {
    readonly v: 1;
    readonly type: "status";
    readonly status: ServerListStatus;
}

/** Something failed; the session goes on unless the server closes it. */
export interface ErrorMessage {
    readonly v: 1;
    readonly type: "error";
    readonly error: SessionError;
}

/** The list cannot be opened for this client; the server closes the socket with 1008 after it. */
export interface RefusedMessage {
    readonly v: 1;
    readonly type: "refused";
    readonly error: SessionError;
}

/** Any message the server sends. */
export type ServerMessage<T> =
    | ResultsMessage<T>
    | BatchMessage<T>
    | ResumedMessage<T>
    | ResetMessage
    | MovedMessage
    | StatusMessage
    | ErrorMessage
    | RefusedMessage;
