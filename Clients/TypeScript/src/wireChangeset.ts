// FetchKit's wire changeset (version 1): one batch of changes to a sectioned list, as the server sends it.

/** The wire changeset version this client reads. */
export const WIRE_CHANGESET_VERSION = 1;

/** Where a row is: `[section, row]`, both zero-based. */
export type RowPath = readonly [section: number, row: number];

/** A section inserted at `index`, with all its objects (a batch names no row inside a section it inserts). */
export interface SectionInsert<T> {
    /** The section's new index. */
    readonly index: number;
    /** The section's name. */
    readonly name: string;
    /** Its rows' objects, in order. */
    readonly objects: readonly T[];
}

/** A section moved from old index `from` to new index `to`, with its rows. */
export interface SectionMove {
    readonly from: number;
    readonly to: number;
}

/** A row inserted at `at` (a path in the new list). */
export interface RowInsert<T> {
    readonly at: RowPath;
    readonly object: T;
}

/** A row moved from `from` (old list) to `to` (new list); `object` is there when its content changed too. */
export interface RowMove<T> {
    readonly from: RowPath;
    readonly to: RowPath;
    readonly object?: T | undefined;
}

/** A row whose content changed: found at `from` in the old list, at `to` in the new one. */
export interface RowUpdate<T> {
    readonly from: RowPath;
    readonly to: RowPath;
    readonly object: T;
}

/**
 * One batch, from the list the client holds (`countsBefore` rows per section) to the next (`countsAfter`).
 *
 * The first batch of a list inserts every section into an empty list. Apply it with `applyChangeset`.
 */
export interface WireChangeset<T> {
    /** The format's version: {@link WIRE_CHANGESET_VERSION}. */
    readonly version: number;
    /** The store transaction that caused the batch, or `null` (above 2^53 it loses precision: show it only). */
    readonly transaction: number | null;
    /** Rows per section before the batch. */
    readonly countsBefore: readonly number[];
    /** Rows per section after the batch. */
    readonly countsAfter: readonly number[];
    readonly sections: {
        /** Deleted sections (old indexes), ascending. */
        readonly deleted: readonly number[];
        /** Inserted sections (new indexes), ascending. */
        readonly inserted: readonly SectionInsert<T>[];
        readonly moved: readonly SectionMove[];
    };
    readonly rows: {
        /** Deleted rows (old paths), ascending. */
        readonly deleted: readonly RowPath[];
        /** Inserted rows (new paths), ascending. */
        readonly inserted: readonly RowInsert<T>[];
        readonly moved: readonly RowMove<T>[];
        readonly updated: readonly RowUpdate<T>[];
    };
}
