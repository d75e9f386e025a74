#if Hummingbird
    import FetchKit
    import Foundation
    import HummingbirdWSClient
    import Logging
    import Synchronization

    /// A client of the board that reads one message a second (`fast` lifts the limit), applying each list and batch
    /// to a ``WireList`` as a page would: a slow phone on a train.
    final class SlowClient: Sendable {
        /// What a card looks like on the wire (the fields the client checks).
        struct SeenCard: Decodable, Sendable, Equatable {
            let id: Int64
            let title: String
        }

        private struct Envelope: Decodable {
            let type: String
            let changeset: WireChangeset<SeenCard>?
        }

        private struct State {
            var list = WireList<SeenCard>()
            var messages = 0
            var bytes = 0
            var types: [String: Int] = [:]
            var failure: String?
            var fast = false
        }

        private let state = Mutex(State())
        private let connection: Mutex<Task<Void, Never>?> = Mutex(nil)

        /// Connects to `url` (`ws://…/cards`) with the sign-in cookie `cookie` and opens the list.
        func connect(to url: String, cookie: String, interval: Duration = .seconds(1)) {
            let task = Task { [self] in
                do {
                    let configuration = WebSocketClientConfiguration(
                        maxFrameSize: 1 << 24, additionalHeaders: [.cookie: cookie], autoPing: .disabled)
                    _ = try await WebSocketClient.connect(
                        url: url, configuration: configuration, logger: Logger(label: "slow-client")
                    ) { inbound, outbound, _ in
                        try await outbound.write(.text(#"{"v":1,"type":"open"}"#))
                        for try await message in inbound.messages(maxSize: 1 << 24) {
                            guard case .text(let text) = message else { continue }
                            try self.receive(text)
                            if !self.state.withLock({ $0.fast }) { try await Task.sleep(for: interval) }
                        }
                    }
                } catch is CancellationError {
                } catch {
                    self.state.withLock { $0.failure = $0.failure ?? "\(error)" }
                }
            }
            connection.withLock { $0 = task }
        }

        private func receive(_ text: String) throws {
            let envelope = try JSONDecoder().decode(Envelope.self, from: Data(text.utf8))
            try state.withLock { state in
                state.messages += 1
                state.bytes += text.utf8.count
                state.types[envelope.type, default: 0] += 1
                switch envelope.type {
                case "results", "resumed":
                    if envelope.type == "results" { state.list = WireList() }
                    try state.list.apply(try envelope.changeset.unwrapped())
                case "batch": try state.list.apply(try envelope.changeset.unwrapped())
                default: break
                }
            }
        }

        /// Reads as fast as the messages come from now on.
        func readFast() { state.withLock { $0.fast = true } }

        /// The list as the client holds it: each section's name and cards.
        var sections: [(name: String, cards: [SeenCard])] {
            state.withLock { $0.list.sections.map { ($0.name, $0.objects) } }
        }

        var messages: Int { state.withLock { $0.messages } }
        var bytes: Int { state.withLock { $0.bytes } }
        var types: [String: Int] { state.withLock { $0.types } }
        /// Why the connection failed, if it did (a batch that did not apply, say).
        var failure: String? { state.withLock { $0.failure } }

        func close() async {
            let task = connection.withLock { $0 }
            task?.cancel()
            await task?.value
        }
    }

    extension Optional {
        fileprivate func unwrapped() throws -> Wrapped {
            guard let self else { throw BoardServer.Failure(description: "a list message without its changeset") }
            return self
        }
    }
#endif
