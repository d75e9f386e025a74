// What the client sends: `open` first, then `move` at any time.
import { PROTOCOL_VERSION } from "./serverMessage.js";

/** A row's primary key, as the server's objects carry it. */
export type RowKey = number | string;

/** A key to sort by, after the server's own sort (its sections first). */
export interface SortKey {
    readonly key: string;
    /** Ascending unless `false`. */
    readonly ascending?: boolean | undefined;
}

/** Where a moved row goes: just above the row `before`, or to the end of the section named `section`. */
export type MoveDestination = { readonly before: RowKey } | { readonly section: string };

/** Opens the list: the first message of every connection. */
export interface OpenMessage {
    readonly v: 1;
    readonly type: "open";
    /** A predicate in FetchKit's format syntax, naming only keys the server allows for filtering. */
    readonly filter?: string;
    readonly sort?: readonly { readonly key: string; readonly ascending: boolean }[];
    /** The token of the last message the client applied. */
    readonly resume?: string;
}

/** Moves the row `key`; the server answers with the batches that show it, then `moved` with this `id`. */
export type MoveMessage = {
    readonly v: 1;
    readonly type: "move";
    readonly id: number;
    readonly key: RowKey;
} & MoveDestination;

/** Any message the client sends. */
export type ClientMessage = OpenMessage | MoveMessage;

/** The `open` message for a filter, a sort and the last token the client applied (each optional). */
export function openMessage(
    filter: string | undefined,
    sort: readonly SortKey[] | undefined,
    resume: string | undefined,
): OpenMessage {
    return {
        v: PROTOCOL_VERSION,
        type: "open",
        ...(filter === undefined ? {} : { filter }),
        ...(sort === undefined
            ? {}
            : { sort: sort.map((item) => ({ key: item.key, ascending: item.ascending ?? true })) }),
        ...(resume === undefined ? {} : { resume }),
    };
}

/** The `move` message for the row `key`. */
export function moveMessage(id: number, key: RowKey, destination: MoveDestination): MoveMessage {
    const where = "before" in destination ? { before: destination.before } : { section: destination.section };
    return { v: PROTOCOL_VERSION, type: "move", id, key, ...where };
}
