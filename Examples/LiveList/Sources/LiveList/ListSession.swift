import FetchKit
import Foundation
import Logging

/// One browser connection: a results controller of the page's request, the commands the page sends, and
/// the messages that keep the page's list equal to the controller's results.
///
/// Every message to the page is written by one task, the forwarder, from one ordered stream of events: the
/// controller's updates, and the end of each move the page asked for. The forwarder remembers the results
/// it last sent, so whatever the page receives is a batch from exactly what it shows:
///
/// - an update that follows the one sent before goes out as it is (its changeset, O(changes));
/// - after a move, the page's drop is already on screen but not in the list it keeps: the forwarder
///   subscribes afresh and sends the one batch from what it last sent to the controller's results
///   (`ResultsUpdate(from:to:)`), then `{"type": "moved"}` — so the page never misses or repeats a change,
///   whatever other writers did around the move.
final class ListSession: Sendable {
    let store: any PersistentStore
    let controller: ResultsController<Row>
    let logger: Logger

    /// What the forwarder reacts to, in order.
    enum Event: Sendable {
        /// An element of the controller's update stream number `generation`.
        case update(generation: Int, ResultsUpdate<Row>)
        /// A move is about to run: until it ends, updates may not follow what was sent.
        case moveStarted
        /// A move ended (`error` when it failed): catch the page up, then acknowledge.
        case moveEnded(error: String?)
        /// A message for the page (an error report).
        case message(ServerMessage)
    }

    init(store: any PersistentStore, request: FetchRequest, logger: Logger) {
        self.store = store
        self.controller = ResultsController(store: store, request: request, logger: logger)
        self.logger = logger
    }

    /// Serves the page until it disconnects: fetches, then forwards batches and runs the page's commands.
    ///
    /// `send` writes one text message to the page; `commands` are the page's messages.
    func run<Commands: AsyncSequence & Sendable>(
        commands: Commands, send: @escaping @Sendable (String) async throws -> Void
    ) async throws where Commands.Element == String {
        try await controller.performFetch()
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [controller] in
                var forwarder = Forwarder(controller: controller, sink: sink)
                try await forwarder.run(events, send: send)
            }
            for try await text in commands {
                await perform(text, events: sink)
            }
            sink.finish()
            group.cancelAll()
        }
    }

    /// Runs one command from the page; failures become a message to the page, never a dropped connection.
    private func perform(_ text: String, events: AsyncStream<Event>.Continuation) async {
        let command: ClientCommand
        do {
            command = try ClientCommand(json: text)
        } catch {
            events.yield(.message(.error("\(error)")))
            return
        }
        if case .move(let key, let destination) = command {
            events.yield(.moveStarted)
            do {
                try await controller.moveObject(withKey: .integer(key), to: destination)
                events.yield(.moveEnded(error: nil))
            } catch {
                logger.info("a move failed", metadata: ["key": "\(key)", "error": "\(error)"])
                events.yield(.moveEnded(error: "\(error)"))
            }
            return
        }
        do {
            try await command.write(to: store)
        } catch {
            logger.info("a command failed", metadata: ["command": "\(text)", "error": "\(error)"])
            events.yield(.message(.error("\(error)")))
        }
    }
}

extension ListSession {
    /// The forwarder's state: what the page was last sent, and which update stream is current.
    struct Forwarder {
        let controller: ResultsController<Row>
        let sink: AsyncStream<Event>.Continuation
        /// The results the page holds once it has applied every message sent.
        var shown = ResultsSnapshot<Row>()
        /// The current update stream; elements of older ones are ignored.
        var generation = 0
        var pump: Task<Void, Never>?
        /// Moves started and not yet ended: while one runs, updates may not follow what was sent.
        var runningMoves = 0
        /// Whether the current stream's first element (the results when it began) was sent.
        var caughtUp = false
        /// Moves that ended, to acknowledge once the page is caught up.
        var endedMoves: [String?] = []
        var hasSentResults = false

        init(controller: ResultsController<Row>, sink: AsyncStream<Event>.Continuation) {
            self.controller = controller
            self.sink = sink
        }

        mutating func run(_ events: AsyncStream<Event>, send: @Sendable (String) async throws -> Void) async throws {
            subscribe()
            defer { pump?.cancel() }
            for await event in events {
                switch event {
                case .update(let generation, let update):
                    guard generation == self.generation else { continue }
                    let isFirst = update.changeset == nil
                    let inStep = !isFirst && caughtUp && runningMoves == 0
                    let batch = inStep ? update : try ResultsUpdate(from: shown, to: update.snapshot)
                    if let changeset = batch.changeset, !changeset.isEmpty || !hasSentResults {
                        try await send(ServerMessage.changeset(WireChangeset(batch), isResults: !hasSentResults).json())
                        hasSentResults = true
                    }
                    shown = update.snapshot
                    if isFirst {
                        caughtUp = true
                        for error in endedMoves { try await send(ServerMessage.moved(error: error).json()) }
                        endedMoves = []
                    }
                case .moveStarted:
                    runningMoves += 1
                case .moveEnded(let error):
                    runningMoves -= 1
                    endedMoves.append(error)
                    subscribe()
                case .message(let message):
                    try await send(message.json())
                }
            }
        }

        /// Starts a new update stream: its first element is the controller's results at this moment, and
        /// every later element follows it.
        mutating func subscribe() {
            pump?.cancel()
            generation += 1
            caughtUp = false
            pump = Task { [controller, sink, generation] in
                for await update in controller.updates() {
                    sink.yield(.update(generation: generation, update))
                }
            }
        }
    }
}
