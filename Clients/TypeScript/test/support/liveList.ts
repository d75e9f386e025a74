// A live list on a fake server with fake timers, and the server's messages a test sends it.
import {
    MoveError,
    subscribe,
    type LiveResults,
    type SessionError,
    type SubscribeOptions,
    type WireChangeset,
} from "../../src/index.js";
import { fillingTodos, type Todo } from "./changesets.js";
import { FakeTimers } from "./fakeTimers.js";
import { FakeServer } from "./fakeWebSocket.js";

export interface LiveListTest {
    readonly list: LiveResults<Todo>;
    readonly server: FakeServer;
    readonly timers: FakeTimers;
    /** What `onError` was called with. */
    readonly errors: SessionError[];
}

/** A live list whose reconnection waits are 50, 100, 200, 400, then 500 ms (the jitter's lowest). */
export function openLiveList(options: SubscribeOptions<Todo> = {}): LiveListTest {
    const server = new FakeServer();
    const timers = new FakeTimers();
    const errors: SessionError[] = [];
    const list = subscribe<Todo>("ws://fetchkit.test/todos", {
        WebSocket: server.WebSocket,
        timers,
        random: () => 0,
        backoff: { baseDelay: 100, maxDelay: 1000 },
        onError: (error) => errors.push(error),
        ...options,
    });
    return { list, server, timers, errors };
}

export function resultsMessage(token: string, ...sections: [string, number[]][]): object {
    return { v: 1, type: "results", token, changeset: fillingTodos(...sections) };
}

export function batchMessage(token: string, changeset: WireChangeset<Todo>): object {
    return { v: 1, type: "batch", token, changeset };
}

export function resumedMessage(token: string, changeset: WireChangeset<Todo>): object {
    return { v: 1, type: "resumed", token, changeset };
}

/** Lets the promise callbacks already due run. */
export async function settle(): Promise<void> {
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
}

/** A check for `assert.rejects`: a MoveError with this code. */
export function moveError(code: string): (error: unknown) => boolean {
    return (error) => error instanceof MoveError && error.code === code;
}
