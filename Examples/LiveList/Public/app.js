// The live board's page: keeps a list equal to the server's results controller by applying each wire
// changeset it receives (fetchkit-changeset.js), renders it with animations, and turns drags into moves.
//
// The list is only ever changed by the server's messages. A drag moves the card on screen at once and asks
// the server to move it; rendering waits until the server answers "moved" — by then the list holds the move
// (or, if it failed, the card goes back to where the list has it).
import { applyChangeset } from "/fetchkit-changeset.js";

const board = document.getElementById("board");
const status = document.getElementById("status");
const message = document.getElementById("message");

// The page's state, readable from the console (and by the example's browser test).
const state = { list: [], results: 0, batches: 0, moves: 0, errors: [], serverErrors: [], moveErrors: [], sentMoves: [], connected: false, refused: false };
window.liveBoard = state;

let socket = null;
let drag = null;           // the drag in progress
let awaitingMove = false;  // a move was sent and not yet answered
let renderPending = false; // changes arrived while rendering was held
const changedKeys = new Set();

// --- The connection ---------------------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/live${location.search}`);
  socket.onopen = () => setStatus("connected", false);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    state.connected = false;
    awaitingMove = false;
    if (event.code === 1008) {
      // The server refused the request itself (a bad filter): reconnecting would not help.
      state.refused = true;
      setStatus("stopped: the server refused this page's request", false);
      return;
    }
    setStatus("disconnected — reconnecting…", false);
    setTimeout(connect, 1000);
  };
}

function receive(msg) {
  switch (msg.type) {
    case "results": // the first message of a connection: everything, inserted into an empty list
      state.list = applyChangeset([], msg.changeset);
      state.results += 1;
      state.connected = true;
      setStatus("live", true);
      scheduleRender();
      break;
    case "batch":
      try {
        state.list = applyChangeset(state.list, msg.changeset);
      } catch (error) {
        // Out of step with the server (it cannot happen unless a message was lost): start over.
        state.errors.push(String(error));
        socket.close();
        return;
      }
      state.batches += 1;
      for (const change of [...msg.changeset.rows.updated, ...msg.changeset.rows.moved]) {
        if (change.object) changedKeys.add(String(change.object.id));
      }
      setStatus(msg.changeset.transaction ? `live — last change: transaction ${msg.changeset.transaction}` : "live", true);
      scheduleRender();
      break;
    case "moved":
      awaitingMove = false;
      state.moves += 1;
      if (msg.error) {
        state.moveErrors.push(msg.error);
        showMessage(`The move did not happen: ${msg.error}`);
      }
      scheduleRender();
      break;
    case "error":
      state.serverErrors.push(msg.error);
      showMessage(msg.error);
      break;
  }
}

function send(command) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
}

// --- Rendering: reuse each card's element by key, then animate from where it was (FLIP) ---------------------

function scheduleRender() {
  if (drag || awaitingMove) {
    renderPending = true;
    return;
  }
  renderPending = false;
  render();
}

function render() {
  const before = new Map();
  for (const card of board.querySelectorAll(".card")) before.set(card.dataset.key, card.getBoundingClientRect());
  const cards = new Map([...board.querySelectorAll(".card")].map((card) => [card.dataset.key, card]));
  const lanes = new Map([...board.querySelectorAll(".lane")].map((lane) => [lane.dataset.name, lane]));

  // Put each lane and card at its index, touching only the nodes that are not there already (a node that
  // stays keeps its focus, hover and any click in progress).
  state.list.forEach((section, laneIndex) => {
    const lane = lanes.get(section.name) ?? makeLane(section.name);
    lanes.delete(section.name);
    place(board, lane, laneIndex);
    lane.querySelector(".count").textContent = String(section.objects.length);
    const list = lane.querySelector("ol");
    section.objects.forEach((object, index) => {
      const key = String(object.id);
      const card = cards.get(key) ?? makeCard(key);
      cards.delete(key);
      fill(card, object);
      place(list, card, index);
    });
  });
  for (const card of cards.values()) card.remove();
  for (const lane of lanes.values()) lane.remove();

  for (const card of board.querySelectorAll(".card")) {
    const key = card.dataset.key;
    const old = before.get(key);
    if (!old) {
      card.animate([{ opacity: 0, transform: "scale(0.85)" }, { opacity: 1, transform: "none" }], { duration: 250, easing: "ease-out" });
      continue;
    }
    const now = card.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (dx || dy) {
      card.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 300, easing: "ease-in-out" });
    }
    if (changedKeys.has(key)) card.animate([{ backgroundColor: "#fff3b0" }, { backgroundColor: "white" }], { duration: 700 });
  }
  changedKeys.clear();
}

function place(parent, node, index) {
  if (parent.children[index] !== node) parent.insertBefore(node, parent.children[index] ?? null);
}

function makeLane(name) {
  const lane = document.createElement("section");
  lane.className = "lane";
  lane.dataset.name = name;
  const heading = document.createElement("h2");
  const title = document.createElement("span");
  title.textContent = name || "(no lane)";
  const count = document.createElement("span");
  count.className = "count";
  heading.append(title, count);
  lane.append(heading, document.createElement("ol"));
  return lane;
}

function makeCard(key) {
  const card = document.createElement("li");
  card.className = "card";
  card.dataset.key = key;
  const done = document.createElement("input");
  done.type = "checkbox";
  done.title = "done";
  done.addEventListener("change", () => send({ type: "toggle", key: Number(key) }));
  const title = document.createElement("span");
  title.className = "title";
  const number = document.createElement("span");
  number.className = "key";
  number.textContent = `#${key}`;
  const remove = document.createElement("button");
  remove.type = "button";
  remove.title = "delete";
  remove.textContent = "✕";
  remove.addEventListener("click", () => send({ type: "delete", key: Number(key) }));
  card.append(done, title, number, remove);
  return card;
}

function fill(card, object) {
  card.querySelector(".title").textContent = object.title; // text, never HTML
  card.querySelector("input").checked = Boolean(object.done);
  card.classList.toggle("done", Boolean(object.done));
}

// --- Dragging: the card follows the pointer and takes its place among the others; the drop becomes a move ---

board.addEventListener("pointerdown", (event) => {
  const card = event.target.closest(".card");
  if (!card || event.button !== 0 || event.target.closest("button, input") || awaitingMove) return;
  event.preventDefault();
  const rect = card.getBoundingClientRect();
  drag = {
    card, active: false, startX: event.clientX, startY: event.clientY,
    grabX: event.clientX - rect.left, grabY: event.clientY - rect.top,
    lane: card.closest(".lane"), next: card.nextElementSibling,
  };
});

window.addEventListener("pointermove", (event) => {
  if (!drag) return;
  if (!drag.active) {
    if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) < 5) return;
    drag.active = true;
    drag.card.classList.add("dragging");
  }
  placeDraggedCard(event.clientX, event.clientY);
});

window.addEventListener("pointerup", () => {
  if (!drag) return;
  const { card, active } = drag;
  const moved = active && (card.closest(".lane") !== drag.lane || card.nextElementSibling !== drag.next);
  card.classList.remove("dragging");
  card.style.transform = "";
  drag = null;
  if (moved) {
    const next = card.nextElementSibling;
    const destination = next ? { before: Number(next.dataset.key) } : { section: card.closest(".lane").dataset.name };
    const command = { type: "move", key: Number(card.dataset.key), ...destination };
    awaitingMove = true;
    state.sentMoves.push(command);
    send(command);
  }
  scheduleRender();
});

// Puts the dragged card before the first card of the lane under the pointer whose middle is below it, and
// keeps it under the pointer.
function placeDraggedCard(x, y) {
  const { card } = drag;
  const lanes = [...board.querySelectorAll(".lane")];
  const lane = lanes.find((candidate) => {
    const rect = candidate.getBoundingClientRect();
    return x >= rect.left && x <= rect.right;
  });
  if (lane) {
    const list = lane.querySelector("ol");
    const others = [...list.querySelectorAll(".card")].filter((other) => other !== card);
    // Where the cards are laid out, whatever their animations show: offsets ignore transforms.
    const listTop = list.getBoundingClientRect().top - list.offsetTop;
    const next = others.find((other) => y < listTop + other.offsetTop + other.offsetHeight / 2) ?? null;
    if (card.parentElement !== list || card.nextElementSibling !== next) {
      const before = new Map(others.map((other) => [other, other.getBoundingClientRect()]));
      list.insertBefore(card, next);
      for (const [other, old] of before) {
        const now = other.getBoundingClientRect();
        if (old.top !== now.top) other.animate([{ transform: `translateY(${old.top - now.top}px)` }, { transform: "none" }], { duration: 150 });
      }
    }
  }
  card.style.transform = "";
  const natural = card.getBoundingClientRect();
  card.style.transform = `translate(${x - drag.grabX - natural.left}px, ${y - drag.grabY - natural.top}px)`;
}

// --- Forms -------------------------------------------------------------------------------------------------

document.getElementById("add").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target;
  send({ type: "add", title: form.title.value, lane: form.lane.value });
  form.title.value = "";
});

const filter = document.getElementById("filter");
filter.where.value = new URLSearchParams(location.search).get("where") ?? "";
filter.addEventListener("submit", (event) => {
  event.preventDefault();
  const where = filter.where.value.trim();
  location.search = where ? `?where=${encodeURIComponent(where)}` : "";
});

function setStatus(text, live) {
  status.textContent = text;
  status.classList.toggle("live", live);
}

function showMessage(text) {
  message.textContent = text;
  message.hidden = false;
  clearTimeout(showMessage.timer);
  showMessage.timer = setTimeout(() => { message.hidden = true; }, 6000);
}

connect();
