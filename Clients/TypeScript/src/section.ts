/** One section of a live list: its name and its objects, in order. Never modified: a change makes a new one. */
export interface Section<T> {
    readonly name: string;
    readonly objects: readonly T[];
}
