import type { Section } from "./section.js";

/**
 * A section while a changeset is applied to it. Its rows are copied the first time one changes, so a section
 * that no change touches comes out as the very object that went in (a view can skip it).
 */
export class SectionDraft<T> {
    readonly #original: Section<T> | undefined;
    #objects: readonly T[];
    #copy: T[] | undefined;

    private constructor(
        readonly name: string,
        original: Section<T> | undefined,
        objects: readonly T[],
    ) {
        this.#original = original;
        this.#objects = objects;
    }

    /** A draft of an existing section. */
    static of<T>(section: Section<T>): SectionDraft<T> {
        return new SectionDraft(section.name, section, section.objects);
    }

    /** A draft of a section the changeset inserts. */
    static inserted<T>(name: string, objects: readonly T[]): SectionDraft<T> {
        return new SectionDraft<T>(name, undefined, objects);
    }

    get count(): number {
        return this.#objects.length;
    }

    /** The object at `row` (the caller checked that it is inside the section). */
    object(row: number): T {
        return this.#objects[row] as T;
    }

    remove(row: number): void {
        this.#rows().splice(row, 1);
    }

    insert(row: number, object: T): void {
        this.#rows().splice(row, 0, object);
    }

    replace(row: number, object: T): void {
        this.#rows()[row] = object;
    }

    /** The section after the changes: the original one when nothing changed, else a new frozen one. */
    finish(): Section<T> {
        if (this.#original !== undefined && this.#copy === undefined) return this.#original;
        // An inserted section's rows are still the changeset's array: copy them.
        const objects = this.#copy ?? this.#objects.slice();
        return Object.freeze({ name: this.name, objects: Object.freeze(objects) });
    }

    #rows(): T[] {
        if (this.#copy === undefined) {
            this.#copy = this.#objects.slice();
            this.#objects = this.#copy;
        }
        return this.#copy;
    }
}
