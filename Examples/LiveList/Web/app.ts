// The live board's page: one live list (FetchKit's TypeScript client) of the signed-in member's team's cards,
// drawn by lane, reordered by drag. The list changes only by the server's batches: a drop asks the server to move
// the card, and the batch that shows the move redraws the board.
import { subscribe, type LiveSnapshot, type MoveDestination, type RowKey } from "fetchkit-client";

interface Card {
    readonly id: number;
    readonly title: string;
    readonly lane: string;
    readonly done: boolean;
}

const lanes = ["Backlog", "Doing", "Done"];
const board = element("board");
const statusLabel = element("status");
const message = element("message");

/** What the page received and showed: for the console, and for the example's browser tests. */
const trace = {
    loadedAt: Date.now(),
    statuses: [] as string[],
    received: {} as Record<string, number>,
    bytes: 0,
    errors: [] as string[],
};

/** The browser's WebSocket, counting the server's messages by type into the trace. */
class CountingWebSocket extends WebSocket {
    constructor(url: string) {
        super(url);
        this.addEventListener("message", (event: MessageEvent) => {
            const text = String(event.data);
            const type = String((JSON.parse(text) as { type?: unknown }).type);
            trace.received[type] = (trace.received[type] ?? 0) + 1;
            trace.bytes += text.length;
        });
    }
}

const scheme = location.protocol === "https:" ? "wss:" : "ws:";
const filter = new URLSearchParams(location.search).get("filter") ?? undefined;
const list = subscribe<Card>(`${scheme}//${location.host}/cards`, {
    filter,
    WebSocket: CountingWebSocket,
    onError: (error) => trace.errors.push(`${error.code}: ${error.message}`),
});

let drag: { key: RowKey; card: HTMLElement; x: number; y: number } | undefined;
list.subscribe(() => {
    if (drag === undefined) render(list.getSnapshot());
});
render(list.getSnapshot());

function render(snapshot: LiveSnapshot<Card>): void {
    if (trace.statuses[trace.statuses.length - 1] !== snapshot.status) trace.statuses.push(snapshot.status);
    statusLabel.textContent = snapshot.status === "catchingUp" ? "catching up" : snapshot.status;
    statusLabel.className = `status ${snapshot.status}`;
    message.hidden = snapshot.status !== "refused";
    message.textContent = snapshot.error?.message ?? "";
    const names = [...lanes, ...snapshot.sections.map((s) => s.name).filter((name) => !lanes.includes(name))];
    board.replaceChildren(
        ...names.map((name) => {
            const cards = snapshot.sections.find((section) => section.name === name)?.objects ?? [];
            const lane = document.createElement("section");
            lane.className = "lane";
            lane.dataset["lane"] = name;
            const heading = document.createElement("h2");
            heading.textContent = `${name} (${cards.length})`;
            const items = document.createElement("ol");
            items.append(...cards.map(cardElement));
            lane.append(heading, items);
            return lane;
        }),
    );
}

function cardElement(card: Card): HTMLElement {
    const item = document.createElement("li");
    item.className = card.done ? "card done" : "card";
    item.dataset["key"] = String(card.id);
    item.textContent = card.title;
    item.addEventListener("pointerdown", (event) => {
        drag = { key: card.id, card: item, x: event.clientX, y: event.clientY };
        item.setPointerCapture(event.pointerId);
        item.classList.add("dragging");
    });
    item.addEventListener("pointermove", (event) => {
        if (drag?.card !== item) return;
        item.style.transform = `translate(${event.clientX - drag.x}px, ${event.clientY - drag.y}px)`;
    });
    item.addEventListener("pointerup", (event) => {
        if (drag?.card !== item) return;
        item.style.visibility = "hidden"; // so that the point finds what lies under the card
        const moved = Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > 4;
        const under = document.elementFromPoint(event.clientX, event.clientY);
        const destination = moved ? dropDestination(under, event.clientY, item) : undefined;
        const key = drag.key;
        drag = undefined;
        render(list.getSnapshot());
        if (destination !== undefined) {
            list.moveRow(key, destination).catch((error: unknown) => trace.errors.push(`move: ${String(error)}`));
        }
    });
    return item;
}

/**
 * Where `dragged`, dropped on `target` at height `y`, goes: above the card there (below it past its middle), or
 * to the end of the lane.
 */
function dropDestination(target: Element | null, y: number, dragged: HTMLElement): MoveDestination | undefined {
    const card = target?.closest<HTMLElement>(".card");
    const lane = target?.closest<HTMLElement>(".lane")?.dataset["lane"];
    if (card === null || card === undefined) return lane === undefined ? undefined : { section: lane };
    const box = card.getBoundingClientRect();
    let next: Element | null = y < box.top + box.height / 2 ? card : card.nextElementSibling;
    if (next === dragged) next = dragged.nextElementSibling;
    const key = next instanceof HTMLElement ? next.dataset["key"] : undefined;
    if (key !== undefined) return { before: Number(key) };
    return lane === undefined ? undefined : { section: lane };
}

function element(id: string): HTMLElement {
    const found = document.getElementById(id);
    if (found === null) throw new Error(`the page has no #${id}`);
    return found;
}

Object.assign(window, {
    liveBoard: {
        trace,
        /** The board as drawn: each lane's name and its cards' keys and titles. */
        view: () =>
            list.getSnapshot().sections.map((section) => ({
                name: section.name,
                cards: section.objects.map((card) => ({ id: card.id, title: card.title })),
            })),
        status: () => list.getSnapshot().status,
    },
});
