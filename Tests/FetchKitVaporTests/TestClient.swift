#if Vapor
    import FetchKit
    import Foundation
    import Synchronization
    import Testing
    import Vapor

    /// A message as a client decodes it, its objects as `Object`.
    struct Envelope<Object: Decodable & Sendable>: Decodable, Sendable {
        struct ErrorBody: Decodable, Sendable {
            var code: String
            var message: String
        }

        var v: Int
        var type: String
        var token: String?
        var changeset: WireChangeset<Object>?
        var error: ErrorBody?
    }

    /// A WebSocket client of the server, over WebSocketKit: it records the text messages it receives and the code
    /// the server closed with.
    final class TestClient: Sendable {
        private struct State {
            var socket: WebSocket?
            var received: [String] = []
            var closed = false
        }

        private let state = Mutex(State())

        static func connect(to url: String, headers: HTTPHeaders) async throws -> TestClient {
            let client = TestClient()
            // The connection can return before the upgrade closure has run.
            let attached = MultiThreadedEventLoopGroup.singleton.any().makePromise(of: Void.self)
            do {
                try await WebSocket.connect(to: url, headers: headers, on: MultiThreadedEventLoopGroup.singleton) {
                    (socket: WebSocket) in
                    client.attach(socket)
                    attached.succeed()
                }
            } catch {
                attached.fail(error)
                throw error
            }
            try await attached.futureResult.get()
            return client
        }

        /// On the socket's event loop, before any message arrives.
        private func attach(_ socket: WebSocket) {
            state.withLock { $0.socket = socket }
            socket.onText { [self] _, text in state.withLock { $0.received.append(text) } }
            socket.onClose.whenComplete { [self] _ in state.withLock { $0.closed = true } }
        }

        private var socket: WebSocket { state.withLock { $0.socket! } }

        func send(_ text: String) async throws { try await socket.send(text) }

        /// Opens the list, with the client's filter.
        func open(filter: String? = nil) async throws {
            var object: [String: Any] = ["v": 1, "type": "open"]
            if let filter { object["filter"] = filter }
            try await send(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }

        func close() async throws { try await socket.close(code: .normalClosure) }

        /// What the server sent, decoded with objects of `type`.
        func received<Object>(as type: Object.Type) throws -> [Envelope<Object>] {
            try state.withLock { $0.received }.map {
                try JSONDecoder().decode(Envelope<Object>.self, from: Data($0.utf8))
            }
        }

        var isClosed: Bool { state.withLock { $0.closed } }

        /// The code the server closed with, once closed.
        var closeCode: UInt16? { isClosed ? socket.closeCode.map { UInt16(webSocketErrorCode: $0) } : nil }

        /// The client's list after every list message it received (from the last `results`), by section.
        func list<Object: Decodable & Sendable>(of type: Object.Type) throws -> WireList<Object> {
            var list = WireList<Object>()
            for message in try received(as: type) {
                guard let changeset = message.changeset else { continue }
                if message.type == "results" { list = WireList() }
                try list.apply(changeset)
            }
            return list
        }

        /// Waits until `condition` holds, failing after `seconds`.
        func wait(
            for what: String, seconds: Double = 10, _ condition: () throws -> Bool,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while !((try? condition()) ?? false) {
                guard ContinuousClock.now < deadline else {
                    let received = state.withLock { $0.received }.map { $0.prefix(120) }
                    Issue.record("timed out waiting for \(what); received: \(received)", sourceLocation: sourceLocation)
                    throw CancellationError()
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }

        /// Waits until the server closed the socket; returns its code.
        func waitUntilClosed(sourceLocation: SourceLocation = #_sourceLocation) async throws -> UInt16? {
            try await wait(for: "the close", { isClosed }, sourceLocation: sourceLocation)
            return closeCode
        }
    }

    extension WireList {
        /// The objects' IDs, by section.
        func ids(_ id: (Object) -> Int64) -> [[Int64]] { sections.map { $0.objects.map(id) } }
    }
#endif
