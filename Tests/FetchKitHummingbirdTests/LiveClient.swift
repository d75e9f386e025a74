#if Hummingbird
    import Foundation
    import HummingbirdWSClient
    import Logging
    import Synchronization
    import Testing

    /// A WebSocket client of a live results route: it records every message and the close frame.
    final class LiveClient: Sendable {
        private let received = Mutex<[String]>([])
        private let outbound = Mutex<WebSocketOutboundWriter?>(nil)
        private let connection: Task<WebSocketCloseFrame?, any Error>

        private init(connection: Task<WebSocketCloseFrame?, any Error>) {
            self.connection = connection
        }

        /// Connects to `path` on `port`, as `user` (the `user` query parameter) when given.
        static func connect(port: Int, path: String, user: String?) async throws -> LiveClient {
            let (ready, readySink) = AsyncStream.makeStream(of: Void.self)
            let box = Mutex<LiveClient?>(nil)
            let connection = Task { () throws -> WebSocketCloseFrame? in
                defer { readySink.finish() }
                return try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)\(path)" + (user.map { "?user=\($0)" } ?? ""),
                    configuration: .init(maxFrameSize: 1 << 24),
                    logger: Logger(label: "live-client")
                ) { inbound, outbound, _ in
                    let client = box.withLock { $0 }
                    client?.outbound.withLock { $0 = outbound }
                    readySink.yield()
                    for try await message in inbound.messages(maxSize: 1 << 24) {
                        if case .text(let text) = message { client?.received.withLock { $0.append(text) } }
                    }
                }
            }
            let client = LiveClient(connection: connection)
            box.withLock { $0 = client }
            for await _ in ready { break }
            return client
        }

        /// Sends `text` to the server.
        func send(_ text: String) async throws {
            guard let outbound = outbound.withLock({ $0 }) else { throw CancellationError() }
            try await outbound.write(.text(text))
        }

        /// The messages received so far, decoded as JSON objects.
        var messages: [[String: Any]] {
            received.withLock { $0 }.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// The types of the messages received so far.
        var types: [String] { messages.compactMap { $0["type"] as? String } }

        /// Waits for the server to close, returning its close frame.
        func closed() async throws -> WebSocketCloseFrame? {
            try await connection.value
        }

        /// Closes from the client's side.
        func close() async {
            let writer = outbound.withLock { $0 }
            try? await writer?.close(.normalClosure, reason: nil)
            _ = try? await connection.value
        }

        /// Waits until `condition` holds of the messages' types, failing after 60 s (the whole suite runs in parallel).
        func wait(
            for what: String, _ condition: @escaping ([String]) -> Bool,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let deadline = ContinuousClock.now + .seconds(60)
            while !condition(types) {
                guard ContinuousClock.now < deadline else {
                    Issue.record("timed out waiting for \(what); received \(types)", sourceLocation: sourceLocation)
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }
#endif
