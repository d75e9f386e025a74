/** A WebSocket message event: `data` is the text the server sent. */
export interface MessageEventLike {
    readonly data: unknown;
}

/** A WebSocket close event. */
export interface CloseEventLike {
    readonly code: number;
    readonly reason: string;
}

/** The part of the browser's `WebSocket` that a live list uses; a test passes a fake one. */
export interface WebSocketLike {
    addEventListener(type: "open", listener: () => void): void;
    addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
    addEventListener(type: "close", listener: (event: CloseEventLike) => void): void;
    send(data: string): void;
    close(code?: number, reason?: string): void;
}

/** A WebSocket class: the browser's `WebSocket`, or one with the same constructor and events. */
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/**
 * The host's `WebSocket` class.
 *
 * @throws {TypeError} where there is none (Node before version 22): pass one in the options.
 */
export function hostWebSocket(): WebSocketConstructor {
    const host = globalThis as { WebSocket?: WebSocketConstructor };
    if (host.WebSocket === undefined) {
        throw new TypeError("this JavaScript host has no WebSocket: pass one as the WebSocket option");
    }
    return host.WebSocket;
}
