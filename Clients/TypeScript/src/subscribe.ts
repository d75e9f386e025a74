// A live list over one WebSocket at a time: opens it, applies what the server sends, and reconnects with
// the last token it applied after any close but a refusal.
import { applyChangeset, ChangesetMismatch } from "./applyChangeset.js";
import { Backoff } from "./backoff.js";
import { moveMessage, openMessage, type MoveDestination, type RowKey } from "./clientMessage.js";
import type { JsonObject } from "./json.js";
import type { LiveResults, LiveSnapshot, LiveStatus, SubscribeOptions } from "./liveResults.js";
import { parseServerMessage } from "./parseServerMessage.js";
import { MoveError, PendingMoves } from "./pendingMoves.js";
import { ProtocolViolation } from "./protocolViolation.js";
import type { Section } from "./section.js";
import type { ServerListStatus, ServerMessage, SessionError } from "./serverMessage.js";
import { SnapshotStore } from "./snapshotStore.js";
import { hostTimers, type Timers } from "./timers.js";
import { hostWebSocket, type WebSocketConstructor, type WebSocketLike } from "./webSocketLike.js";
import type { WireChangeset } from "./wireChangeset.js";

/** The close code the server sends after `refused`: reconnecting would not help. */
const REFUSED_CLOSE_CODE = 1008;
/** The close code this client closes with. */
const NORMAL_CLOSE_CODE = 1000;

/**
 * Opens the live list served at `url` (a `ws:` or `wss:` URL) and keeps it equal to the server's results.
 *
 * ```ts
 * const todos = subscribe<Todo>(`wss://${location.host}/todos`, { filter: "done == NO", sort: [{ key: "position" }] });
 * todos.subscribe(() => render(todos.getSnapshot()));
 * await todos.moveRow(7, { before: 12 });
 * todos.close();
 * ```
 *
 * @throws {TypeError} when there is no WebSocket class (pass one in `options.WebSocket`), and whatever the
 *   WebSocket constructor throws for `url`.
 * @throws {RangeError} for backoff options outside `0 < baseDelay <= maxDelay`.
 */
export function subscribe<T = JsonObject>(url: string, options: SubscribeOptions<T> = {}): LiveResults<T> {
    return new LiveConnection(url, options);
}

class LiveConnection<T> implements LiveResults<T> {
    readonly #url: string;
    readonly #options: SubscribeOptions<T>;
    readonly #WebSocket: WebSocketConstructor;
    readonly #timers: Timers;
    readonly #backoff: Backoff;
    readonly #store = new SnapshotStore<LiveSnapshot<T>>(
        Object.freeze({ status: "connecting", sections: [], error: undefined }),
    );
    readonly #moves = new PendingMoves();

    // The connection in use (none while waiting to reconnect), and how far it got.
    #socket: WebSocketLike | undefined;
    #openSent = false;
    #listArrived = false;
    #serverStatus: ServerListStatus = "live";
    // What outlives a connection.
    #token: string | undefined;
    #everLive = false;
    #retry: { handle: unknown } | undefined;
    #finished = false;

    constructor(url: string, options: SubscribeOptions<T>) {
        this.#url = url;
        this.#options = options;
        this.#WebSocket = options.WebSocket ?? hostWebSocket();
        this.#timers = options.timers ?? hostTimers();
        this.#backoff = new Backoff(options.backoff, options.random);
        this.#connect();
    }

    get status(): LiveStatus {
        return this.#store.snapshot.status;
    }

    readonly getSnapshot = (): LiveSnapshot<T> => this.#store.snapshot;

    readonly subscribe = (listener: () => void): (() => void) => this.#store.subscribe(listener);

    readonly moveRow = (key: RowKey, destination: MoveDestination): Promise<void> => {
        if (this.#finished) {
            const code = this.status === "refused" ? "refused" : "closed";
            return Promise.reject(new MoveError(code, `the live list is ${code}`));
        }
        const socket = this.#socket;
        if (socket === undefined || !this.#openSent) {
            return Promise.reject(new MoveError("disconnected", "the live list is not connected: no move was sent"));
        }
        const { id, acknowledged } = this.#moves.add();
        socket.send(JSON.stringify(moveMessage(id, key, destination)));
        return acknowledged;
    };

    readonly close = (): void => {
        if (this.status === "closed") return;
        this.#finished = true;
        if (this.#retry !== undefined) this.#timers.clearTimeout(this.#retry.handle);
        this.#retry = undefined;
        this.#dropSocket();
        this.#moves.rejectAll(new MoveError("closed", "the live list was closed before the server answered"));
        this.#update({ status: "closed" });
    };

    #connect(): void {
        this.#retry = undefined;
        const socket = new this.#WebSocket(this.#url);
        this.#socket = socket;
        this.#openSent = false;
        this.#listArrived = false;
        this.#serverStatus = "live";
        // A socket this list has let go of may still speak: only the current one is heard.
        socket.addEventListener("open", () => {
            if (socket === this.#socket) this.#sendOpen(socket);
        });
        socket.addEventListener("message", (event) => {
            if (socket === this.#socket) this.#receive(event.data);
        });
        socket.addEventListener("close", (event) => {
            if (socket === this.#socket) this.#socketClosed(event.code);
        });
    }

    #sendOpen(socket: WebSocketLike): void {
        socket.send(JSON.stringify(openMessage(this.#options.filter, this.#options.sort, this.#token)));
        this.#openSent = true;
    }

    #receive(data: unknown): void {
        // After `refused`, nothing the server says changes this list.
        if (this.#finished) return;
        let message: ServerMessage<T>;
        try {
            message = parseServerMessage(data, this.#options.decode);
        } catch (error) {
            if (!(error instanceof ProtocolViolation)) throw error;
            // What it said may have changed the list: start over from the whole list.
            this.#resync({ code: "protocol", message: error.message });
            return;
        }
        switch (message.type) {
            case "results":
            case "resumed": {
                // `results` fills an empty list; `resumed` changes the list kept since the last connection.
                const base = message.type === "results" ? [] : this.#store.snapshot.sections;
                const sections = this.#apply(base, message);
                if (sections === undefined) return;
                this.#listArrived = true;
                this.#everLive = true;
                this.#backoff.reset();
                this.#update({ sections, status: this.#serverStatus, error: undefined });
                return;
            }
            case "batch": {
                if (!this.#listArrived) {
                    this.#resync({ code: "protocol", message: "a batch came before the list" });
                    return;
                }
                const sections = this.#apply(this.#store.snapshot.sections, message);
                if (sections !== undefined) this.#update({ sections });
                return;
            }
            case "reset":
                // The token is of no use: the list goes, and `results` follows.
                this.#token = undefined;
                this.#listArrived = false;
                this.#update({ sections: [], status: this.#waitingStatus() });
                return;
            case "moved":
                this.#moves.settle(message.id, message.error);
                return;
            case "status":
                this.#serverStatus = message.status;
                if (this.#listArrived) this.#update({ status: message.status });
                return;
            case "error":
                this.#update({ error: message.error });
                this.#options.onError?.(message.error);
                return;
            case "refused":
                // The server closes with 1008 next; whatever the close says, this list is done.
                this.#finished = true;
                this.#moves.rejectAll(new MoveError("refused", message.error.message));
                this.#update({ status: "refused", error: message.error });
                this.#options.onError?.(message.error);
                return;
        }
    }

    /** `base` after the message's changeset, its token kept; undefined when it did not apply (a resync began). */
    #apply(
        base: readonly Section<T>[],
        message: { readonly token: string; readonly changeset: WireChangeset<T> },
    ): readonly Section<T>[] | undefined {
        try {
            const sections = applyChangeset(base, message.changeset);
            this.#token = message.token;
            return sections;
        } catch (error) {
            if (!(error instanceof ChangesetMismatch)) throw error;
            this.#resync({ code: "mismatch", message: error.message });
            return undefined;
        }
    }

    /** The list is out of step with the server: forget the token and reconnect for the whole list. */
    #resync(error: SessionError): void {
        this.#token = undefined;
        this.#dropSocket();
        this.#waitToReconnect(error);
        this.#options.onError?.(error);
    }

    #socketClosed(code: number): void {
        this.#socket = undefined;
        if (code === REFUSED_CLOSE_CODE) this.#finished = true;
        if (this.#finished) {
            this.#moves.rejectAll(new MoveError("refused", "the server refused the list"));
            if (this.status !== "refused") this.#update({ status: "refused" });
            return;
        }
        this.#waitToReconnect(undefined);
    }

    /** Between connections: moves still waiting cannot be answered, and the next attempt waits its turn. */
    #waitToReconnect(error: SessionError | undefined): void {
        this.#moves.rejectAll(new MoveError("disconnected", "the connection closed before the server answered"));
        this.#update({ status: this.#waitingStatus(), ...(error === undefined ? {} : { error }) });
        this.#retry = { handle: this.#timers.setTimeout(() => this.#connect(), this.#backoff.next()) };
    }

    /** The status while no list has arrived on this connection. */
    #waitingStatus(): LiveStatus {
        return this.#everLive ? "resyncing" : "connecting";
    }

    #dropSocket(): void {
        const socket = this.#socket;
        this.#socket = undefined;
        socket?.close(NORMAL_CLOSE_CODE);
    }

    #update(change: Partial<LiveSnapshot<T>>): void {
        this.#store.set(Object.freeze({ ...this.#store.snapshot, ...change }));
    }
}
