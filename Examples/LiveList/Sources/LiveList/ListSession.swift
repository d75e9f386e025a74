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
