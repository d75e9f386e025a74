#if Vapor
    import FetchKitSession
    import Vapor

    /// A Vapor WebSocket as the two ends of one session: the client's text messages in, in the order they came,
    /// and a transport whose sends return once the frame is written.
    struct VaporSocket: SessionTransport {
        /// How many of the client's messages may wait for the session to read them. The protocol has a client send
        /// little (an `open`, then moves one at a time); one that floods the socket is closed with 1008.
        static let unreadMessageLimit = 64

        let socket: WebSocket
        /// The client's text messages; it ends when the socket closes.
        let messages: AsyncStream<String>
        let logger: Logger

        /// Starts reading `socket`'s text messages. Call it on the socket's event loop, as Vapor calls the upgrade
        /// closure, so that no message arrives before there is a reader.
        init(_ socket: WebSocket, logger: Logger) {
            let (messages, continuation) = AsyncStream.makeStream(
                of: String.self, bufferingPolicy: .bufferingOldest(Self.unreadMessageLimit))
            socket.onText { socket, text in
                guard case .dropped = continuation.yield(text) else { return }
                logger.warning(
                    "a live session's client sent more messages than it reads; closing",
                    metadata: ["limit": "\(Self.unreadMessageLimit)"])
                socket.close(code: .policyViolation, promise: nil)
            }
            socket.onClose.whenComplete { _ in continuation.finish() }
            self.socket = socket
            self.messages = messages
            self.logger = logger
        }

        func send(_ text: String) async throws {
            try await socket.send(text)
        }

        /// Closes with `code`. WebSocketKit sends the code alone: the reason goes to the server's log.
        func close(_ code: SessionCloseCode, reason: String) async {
            logger.debug("a live session closes its socket", metadata: ["code": "\(code)", "reason": "\(reason)"])
            try? await socket.close(code: .init(codeNumber: Int(code.rawValue)))
        }
    }
#endif
