#if Hummingbird
    import FetchKit
    import Foundation
    import HummingbirdWSClient
    import Logging
    import Synchronization

    /// A client of the board that reads one message a second (``catchUp()`` lifts the limit), applying each list and
    /// batch to a ``WireList`` as a page would: a slow phone on a train. The server may close it when it lags so far
    /// behind that it cannot answer a ping in time; ``catchUp()`` then reconnects with its resume token, as a page
    /// does.
    final class SlowClient: Sendable {
        /// What a card looks like on the wire (the fields the client checks).
        struct SeenCard: Decodable, Sendable, Equatable {
            let id: Int64
            let title: String
        }

        private struct Envelope: Decodable {
            let type: String
            let token: String?
            let changeset: WireChangeset<SeenCard>?
        }

        private struct State {
            var list = WireList<SeenCard>()
            var messages = 0
            var bytes = 0
            var types: [String: Int] = [:]
            /// A batch that did not apply: the list is wrong from there on.
            var failure: String?
            var fast = false
            /// The last state the client applied, to resume from.
            var token: String?
            /// Why the last connection ended (`nil` while it runs).
            var ended: String?
            var reconnects = 0
        }

        private let state = Mutex(State())
        private let connection: Mutex<Task<Void, Never>?> = Mutex(nil)
        private let address: Mutex<(url: String, cookie: String, interval: Duration)?> = Mutex(nil)

        /// Connects to `url` (`ws://…/cards`) with the sign-in cookie `cookie` and opens the list.
        func connect(to url: String, cookie: String, interval: Duration = .seconds(1)) {
            address.withLock { $0 = (url, cookie, interval) }
            open()
        }

        /// Reads as fast as the messages come from now on; reconnects with the resume token when the server closed
        /// the slow connection.
        func catchUp() async {
            let ended = state.withLock { state in
                state.fast = true
                return state.ended != nil
            }
            guard ended else { return }
            await connection.withLock { $0 }?.value
            state.withLock {
                $0.ended = nil
                $0.reconnects += 1
            }
            open()
        }

        /// Opens the list on a new connection, resuming from the last state applied.
        private func open() {
            guard let (url, cookie, interval) = address.withLock({ $0 }) else { return }
            let task = Task { [self] in
                do {
                    let configuration = WebSocketClientConfiguration(
                        maxFrameSize: 1 << 24, additionalHeaders: [.cookie: cookie], autoPing: .disabled)
                    let token = state.withLock { $0.token }
                    let open = token.map { #"{"v":1,"type":"open","resume":"\#($0)"}"# } ?? #"{"v":1,"type":"open"}"#
                    let close = try await WebSocketClient.connect(
                        url: url, configuration: configuration, logger: Logger(label: "slow-client")
                    ) { inbound, outbound, _ in
                        try await outbound.write(.text(open))
                        for try await message in inbound.messages(maxSize: 1 << 24) {
                            guard case .text(let text) = message else { continue }
                            try self.receive(text)
                            if !self.state.withLock({ $0.fast }) { try await Task.sleep(for: interval) }
                        }
                    }
                    let reason = "closed by the server: \(close.map { "\($0.closeCode) \($0.reason ?? "")" } ?? "")"
                    state.withLock { $0.ended = reason }
                } catch is CancellationError {
                } catch {
                    state.withLock { $0.ended = "\(error)" }
                }
            }
            connection.withLock { $0 = task }
        }

        /// Applies one message of the server's; one that does not decode or apply is the list's failure.
        private func receive(_ text: String) throws {
            do {
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
                    // Only once applied: the token names the state the client holds.
                    if let token = envelope.token { state.token = token }
                }
            } catch {
                state.withLock { $0.failure = $0.failure ?? "\(error)" }
                throw error
            }
        }

        /// The list as the client holds it: each section's name and cards.
        var sections: [(name: String, cards: [SeenCard])] {
            state.withLock { $0.list.sections.map { ($0.name, $0.objects) } }
        }

        var messages: Int { state.withLock { $0.messages } }
        var bytes: Int { state.withLock { $0.bytes } }
        var types: [String: Int] { state.withLock { $0.types } }
        /// Why the list went wrong, if it did (a batch that did not apply, say).
        var failure: String? { state.withLock { $0.failure } }
        /// Why the last connection ended, if it did.
        var ended: String? { state.withLock { $0.ended } }
        var reconnects: Int { state.withLock { $0.reconnects } }

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
