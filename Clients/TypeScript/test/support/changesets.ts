// Wire changesets for tests, written with only the parts a test is about.
import type {
    RowMove,
    RowPath,
    RowUpdate,
    Section,
    SectionInsert,
    SectionMove,
    WireChangeset,
} from "../../src/index.js";

export interface Todo {
    readonly id: number;
    readonly title: string;
}

/** A todo whose title is its id, unless given. */
export function todo(id: number, title = `todo ${id}`): Todo {
    return { id, title };
}

export interface Changes<T> {
    readonly countsBefore: readonly number[];
    readonly countsAfter: readonly number[];
    readonly sectionsDeleted?: readonly number[];
    readonly sectionsInserted?: readonly SectionInsert<T>[];
    readonly sectionsMoved?: readonly SectionMove[];
    readonly rowsDeleted?: readonly RowPath[];
    readonly rowsInserted?: readonly { readonly at: RowPath; readonly object: T }[];
    readonly rowsMoved?: readonly RowMove<T>[];
    readonly rowsUpdated?: readonly RowUpdate<T>[];
}

/** A version 1 changeset: what `changes` names, nothing else. */
export function changeset<T = Todo>(changes: Changes<T>): WireChangeset<T> {
    return {
        version: 1,
        transaction: null,
        countsBefore: changes.countsBefore,
        countsAfter: changes.countsAfter,
        sections: {
            deleted: changes.sectionsDeleted ?? [],
            inserted: changes.sectionsInserted ?? [],
            moved: changes.sectionsMoved ?? [],
        },
        rows: {
            deleted: changes.rowsDeleted ?? [],
            inserted: changes.rowsInserted ?? [],
            moved: changes.rowsMoved ?? [],
            updated: changes.rowsUpdated ?? [],
        },
    };
}

/** The changeset that fills an empty list with these sections, as `results` carries it. */
export function filling<T>(sections: readonly (readonly [name: string, objects: readonly T[]])[]): WireChangeset<T> {
    return changeset({
        countsBefore: [],
        countsAfter: sections.map(([, objects]) => objects.length),
        sectionsInserted: sections.map(([name, objects], index) => ({ index, name, objects })),
    });
}

/** The changeset that fills an empty list with sections of todos, given as `[name, ids]`. */
export function fillingTodos(...sections: [string, number[]][]): WireChangeset<Todo> {
    return filling(sections.map(([name, ids]) => [name, ids.map((id) => todo(id))]));
}

/** A list of todos as `[name, ids]` pairs, to compare at a glance. */
export function shape(sections: readonly Section<Todo>[]): [string, number[]][] {
    return sections.map((section) => [section.name, section.objects.map((object) => object.id)]);
}
