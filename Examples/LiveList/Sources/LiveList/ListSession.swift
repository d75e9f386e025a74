import FetchKit
import Foundation
import Logging

/// One browser connection: a results controller of the page's request, the commands the page sends, and
/// the messages that keep the page's list equal to the controller's results.
///
/// The page's list is one reader of the controller's update sequence: every element is a batch from exactly
/// what the page was sent before (FetchKit hands each reader its batches from what it shows), so the
/// forwarder sends each one as it comes. A move the page asks for goes through the same sequence
/// (`moveRow(withKey:to:)`): its batch is the next element, whatever other writers commit meanwhile, and the
/// move's task ends only once the forwarder has taken every element that shows its outcome — so
/// `{"type": "moved"}` always follows them.
final class ListSession: Sendable {
    let store: any PersistentStore
    let controller: ResultsController<Card>
    let logger: Logger

    /// What the forwarder sends, in order.
    enum Event: Sendable {
        /// An element of the controller's update sequence.
        case update(ResultsBatch<Card>)
        /// A message for the page: a move's acknowledgement, an error report.
        case message(ServerMessage)
    }

    init(store: any PersistentStore, request: FetchRequest<Card>, logger: Logger) {
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
        let updates = controller.updates(bufferingLimit: 256)
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The one reader of the sequence: it hands each element to the forwarder before it reads on.
                do {
                    for try await update in updates { sink.yield(.update(update)) }
                } catch {
                    sink.yield(.message(.error("the list stopped following the database: \(error)")))
                }
            }
            group.addTask {
                try await Self.forward(events, send: send)
            }
            for try await text in commands {
                await perform(text, updates: updates, events: sink)
            }
            sink.finish()
            group.cancelAll()
        }
    }

    /// Runs one command from the page; failures become a message to the page, never a dropped connection.
    private func perform(
        _ text: String, updates: ResultsStream<Card>, events: AsyncStream<Event>.Continuation
    ) async {
        let command: ClientCommand
        do {
            command = try ClientCommand(json: text)
        } catch {
            events.yield(.message(.error("\(error)")))
            return
        }
        if case .move(let key, let destination) = command {
            do {
                try await updates.moveRow(withKey: .integer(key), to: destination)
                events.yield(.message(.moved(error: nil)))
            } catch {
                logger.info("a move failed", metadata: ["key": "\(key)", "error": "\(error)"])
                events.yield(.message(.moved(error: "\(error)")))
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
