import FetchKit

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
                do {
                    for try await update in controller.updates() {
                        sink.yield(.update(generation: generation, update))
                    }
                } catch {
                    sink.yield(.message(.error("the list stopped following the database: \(error)")))
                }
            }
        }
    }
}
