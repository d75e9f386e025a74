import CLibPQ
@_spi(Backend) import FetchKit
import FetchKitDrivers
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension PostgresListener {
    /// The listening thread's I/O. It waits with `poll()` on the connection's socket and the wake pipe until
    /// the ``ListenerStateMachine``'s deadline, reads with libpq, tells the machine what happened and performs
    /// what the machine decides: connecting, pinging, publishing, completing writes, reporting the state.
    final class Loop {
        private typealias Machine = ListenerStateMachine
        private let listener: PostgresListener
        private var machine: Machine
        /// The connection, while the machine has one.
        private var connection: PostgresConnection?
        /// Resumed once the first connection is up (or failed).
        private var started: CheckedContinuation<Void, any Error>?
        /// The last connection error: what a failed start throws.
        private var connectError: (any Error)?
        private var isClosed = false

        init(_ listener: PostgresListener, started: CheckedContinuation<Void, any Error>) {
            self.listener = listener
            self.started = started
            machine = Machine(
                options: listener.options, schemaName: listener.schemaName, paddedKeyTables: listener.paddedKeyTables)
        }

        /// Connects, then listens until stopped (or until the first connection fails).
        func run() {
            send(.start)
            while !isClosed { waitForEvent() }
        }

        /// Tells the machine `event` and performs its actions, and those of the events they lead to, in order.
        private func send(_ event: Machine.Event) {
            var actions = machine.handle(event, at: .now)
            while !actions.isEmpty {
                if let next = perform(actions.removeFirst()) { actions += machine.handle(next, at: .now) }
            }
        }

        /// Waits for input, a wake or the machine's deadline, and tells the machine which came.
        private func waitForEvent() {
            switch listener.thread.waitForInput(on: connection, until: machine.deadline) {
            case .readable:
                if let connection { read(connection) }
            case .timedOut:
                let awaited = machine.pendingTransactionID.map(listener.completions.isExpected) ?? false
                send(.tick(markerAwaited: awaited))
            case .woken(let stopRequested):
                // ``stop()``, or ``checkConnection()``: a write's change is overdue.
                send(stopRequested ? .closeRequested : .checkRequested)
            case .interrupted:
                break
            case .failed(let reason):
                send(.connectionLost(reason))
            }
        }

        /// Reads `connection`'s input: the ping's answer, if one is out, and the notifications.
        private func read(_ connection: PostgresConnection) {
            let handle = connection.handle
            guard PQconsumeInput(handle) != 0 else {
                return send(.readFailed(PostgresConnection.message(PQerrorMessage(handle))))
            }
            let answer = machine.awaitsPing ? Self.pingAnswer(handle) : nil
            send(.inputReceived(Self.notifications(handle)))
            if let answer { send(answer) }
            if self.connection === connection, !connection.isConnected {
                send(.connectionLost(PostgresConnection.message(PQerrorMessage(handle))))
            }
        }

        /// Performs `action`; returns the event it leads to, if any.
        private func perform(_ action: Machine.Action) -> Machine.Event? {
            switch action {
            case .connect:
                do {
                    connection = try listener.connect()
                    return .connected
                } catch {
                    connectError = error
                    return .connectionFailed("\(error)")
                }
            case .started:
                started?.resume()
                started = nil
            case .startFailed:
                let error = connectError ?? FetchKitError.connectionLost("the change listener could not connect")
                started?.resume(throwing: error)
                started = nil
                isClosed = true
            case .sendPing:
                guard let connection else { return nil }
                return Self.sendPing(connection.handle)
            case .publish(let tables):
                listener.feed.publish(tables)
            case .publishResync:
                listener.feed.publishResync()
            case .reportUnreadable(let payload):
                listener.logger.info(
                    "unreadable change notification; resyncing", metadata: ["payload": "\(payload.prefix(200))"])
            case .completeTransaction(let id):
                listener.completions.complete(id)
            case .completeAllWrites:
                listener.completions.completeAll()
            case .reportState(let state):
                listener.thread.setState(state)
            case .disconnect(let reason):
                listener.logger.warning("change listener lost its connection", metadata: ["reason": "\(reason)"])
                listener.listeningPID.withLock { $0 = nil }
                connection?.close()
                connection = nil
            case .reconnected(let attempts):
                listener.reconnects.increment()
                listener.logger.info("change listener reconnected", metadata: ["attempts": "\(attempts)"])
            case .close:
                connection?.close()
                connection = nil
                isClosed = true
            }
            return nil
        }

        /// The payloads of every notification libpq has read.
        private static func notifications(_ handle: OpaquePointer) -> [String] {
            var payloads: [String] = []
            while let notification = PQnotifies(handle) {
                payloads.append(String(cString: notification.pointee.extra))
                PQfreemem(notification)
            }
            return payloads
        }
    }

    /// A connection with TCP keepalives that has issued `LISTEN`.
    func connect() throws -> PostgresConnection {
        let connection = try PostgresConnection.open(url, extra: options.keepaliveParameters)
        // Its idle socket receives notifications: that is no sign of a closing session.
        connection.checksIdleInput = false
        do {
            try connection.run("LISTEN \(PostgresChangeCapture.quotedChannel(channel))")
            try Self.verifySessionIsPinned(connection, url: url, extra: options.keepaliveParameters)
        } catch {
            connection.close()
            throw error
        }
        listeningPID.withLock { $0 = connection.backendPID }
        return connection
    }
}
