// A WebSocket that a test plays the server of: it opens, sends and closes when the test says so.
import type { CloseEventLike, MessageEventLike, WebSocketConstructor, WebSocketLike } from "../../src/index.js";

type Listener = (event: never) => void;

export class FakeSocket implements WebSocketLike {
    /** The client's messages, parsed. */
    readonly sent: unknown[] = [];
    /** The code the client closed with, if it did. */
    closedByClient: number | undefined;
    readonly #listeners = new Map<string, Listener[]>();

    constructor(readonly url: string) {}

    addEventListener(type: "open", listener: () => void): void;
    addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
    addEventListener(type: "close", listener: (event: CloseEventLike) => void): void;
    addEventListener(type: string, listener: Listener): void {
        this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
    }

    send(data: string): void {
        this.sent.push(JSON.parse(data));
    }

    close(code = 1005): void {
        this.closedByClient = code;
        // A browser reports its own close too (later; here at once, the harder case for the client).
        this.#dispatch("close", { code, reason: "" });
    }

    // What the server does.

    open(): void {
        this.#dispatch("open", undefined);
    }

    /** Sends a message: an object as JSON, a string as it is. */
    receive(message: unknown): void {
        this.#dispatch("message", { data: typeof message === "string" ? message : JSON.stringify(message) });
    }

    serverClose(code: number): void {
        this.#dispatch("close", { code, reason: "" });
    }

    #dispatch(type: string, event: MessageEventLike | CloseEventLike | undefined): void {
        for (const listener of this.#listeners.get(type) ?? []) (listener as (event: unknown) => void)(event);
    }
}

/** Hands out fake sockets and remembers each. */
export class FakeServer {
    readonly sockets: FakeSocket[] = [];
    readonly WebSocket: WebSocketConstructor;

    constructor() {
        const sockets = this.sockets;
        this.WebSocket = class extends FakeSocket {
            constructor(url: string) {
                super(url);
                sockets.push(this);
            }
        };
    }

    /** The socket opened last. */
    get last(): FakeSocket {
        const socket = this.sockets[this.sockets.length - 1];
        if (socket === undefined) throw new Error("no socket was opened");
        return socket;
    }
}
