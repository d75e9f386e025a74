import type { SessionError } from "./serverMessage.js";

/**
 * Why a move was not made: the server's error (`code` `invalid`, `conflict`, ...), or `disconnected` (the
 * connection closed before the server answered: the list shows, once it is back, whether the move happened),
 * `refused` (the server refused the list) or `closed` (the live list was closed).
 */
export class MoveError extends Error {
    override readonly name = "MoveError";

    constructor(
        readonly code: string,
        message: string,
    ) {
        super(message);
    }
}

/** The moves sent and not yet acknowledged, each with the promise its `moved` message settles. */
export class PendingMoves {
    #nextID = 1;
    readonly #waiting = new Map<number, { resolve: () => void; reject: (error: MoveError) => void }>();

    /** A new move's id, and the promise that its acknowledgement settles. */
    add(): { id: number; acknowledged: Promise<void> } {
        const id = this.#nextID;
        this.#nextID += 1;
        const acknowledged = new Promise<void>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
        return { id, acknowledged };
    }

    /** Settles the move `id`: resolved, or rejected with the server's `error`. An unknown id is ignored. */
    settle(id: number, error: SessionError | undefined): void {
        const waiting = this.#waiting.get(id);
        if (waiting === undefined) return;
        this.#waiting.delete(id);
        if (error === undefined) waiting.resolve();
        else waiting.reject(new MoveError(error.code, error.message));
    }

    /** Rejects every move still waiting with `error`. */
    rejectAll(error: MoveError): void {
        const waiting = [...this.#waiting.values()];
        this.#waiting.clear();
        for (const move of waiting) move.reject(error);
    }
}
