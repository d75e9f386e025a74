import CLibPQ
import FetchKitBackendKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension PostgresListener {
    /// The listening thread's I/O. It waits (``DescriptorWait``) on the connection's socket and the wake pipe until
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
        /// The session that sends the listener's probes (``ListenerStateMachine/probe(at:)``), while open.
        private var prober: PostgresConnection?

        init(_ listener: PostgresListener, started: CheckedContinuation<Void, any Error>) {
            self.listener = listener
            self.started = started
            machine = Machine(
                options: listener.options, schemaName: listener.schemaName, paddedKeyTables: listener.paddedKeyTables,
                references: listener.references, probeToken: String(UInt64.random(in: 0...UInt64.max), radix: 36))
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
                let action = actions.removeFirst()
                // A store write's change, published as its end marker completes it: it carries the write's trace.
                var trace = TraceLinks()
                if case .publish = action, case .completeTransaction(let id)? = actions.first {
                    trace = listener.completions.trace(of: id)
                }
                if let next = trace.bind({ perform(action) }) { actions += machine.handle(next, at: .now) }
            }
        }

        /// Waits for input, a wake or the machine's deadline, and tells the machine which came.
        private func waitForEvent() {
            switch listener.thread.waitForInput(on: connection, until: machine.deadline) {
            case .readable:
                if let connection { read(connection) }
                // Notifications that never pause still let the machine's deadlines come (its probes).
                if let deadline = machine.deadline, ContinuousClock.now >= deadline { tick() }
            case .timedOut:
                tick()
            case .woken(let stopRequested):
                // ``stop()``, or ``checkConnection()``: a write's change is overdue.
                send(stopRequested ? .closeRequested : .checkRequested)
            case .interrupted:
                break
            case .failed(let reason):
                send(.connectionLost(reason))
            }
        }

        /// Tells the machine its deadline came.
        private func tick() {
            let awaited = machine.pendingTransactionID.map(listener.completions.isExpected) ?? false
            send(.tick(markerAwaited: awaited))
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
                if let delivery = state.delivery { listener.feed.publishDelivery(delivery) }
            case .disconnect(let reason):
                // Info: the feed reconnects by itself, and the router says how many controllers wait for it.
                listener.logger.info(
                    "change listener lost its connection; reconnecting", metadata: ["reason": "\(reason)"])
                let lost = listener.listeningPID.withLock { pid in
                    defer { pid = nil }
                    return pid
                }
                listener.abandonedPID.withLock { $0 = lost }
                connection?.close()
                connection = nil
            case .reconnected(let attempts):
                listener.reconnects.increment()
                listener.logger.info("change listener reconnected", metadata: ["attempts": "\(attempts)"])
            case .close:
                connection?.close()
                connection = nil
                prober?.close()
                prober = nil
                isClosed = true
            case .sendProbe(let payload):
                return sendProbe(payload)
            case .reportBacklog(let since):
                listener.feed.publishDelivery(since.map { .lagging(since: $0) } ?? .streaming)
            }
            return nil
        }

        /// Notifies `payload` on the channel from ``prober`` (opened when it is not), without waiting for the
        /// server's answer: a busy server must not hold up the listener's thread. The previous probe's answer is
        /// read first; while it has not come, this probe is not sent (the previous one counts as out). A failure
        /// closes ``prober`` (the next probe opens it again).
        private func sendProbe(_ payload: String) -> Machine.Event? {
            do {
                if prober == nil {
                    prober = try PostgresConnection.open(listener.url, extra: listener.options.keepaliveParameters)
                }
                guard let handle = prober?.handle else { return .probeFailed }
                guard PQconsumeInput(handle) != 0 else {
                    throw FetchKitError.connectionLost(PostgresConnection.message(PQerrorMessage(handle)))
                }
                while PQisBusy(handle) == 0, let result = PQgetResult(handle) { PQclear(result) }
                guard PQisBusy(handle) == 0 else { return .probeFailed }
                // The payload is the listener's own (letters, digits and colons); the channel is quoted.
                let sql = "NOTIFY \(PostgresChangeCapture.quotedChannel(listener.channel)), '\(payload)'"
                guard PQsendQuery(handle, sql) == 1 else {
                    throw FetchKitError.connectionLost(PostgresConnection.message(PQerrorMessage(handle)))
                }
                return .probeSent
            } catch {
                listener.logger.debug("could not send the listener's probe", metadata: ["error": "\(error)"])
                prober?.close()
                prober = nil
                return .probeFailed
            }
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
        terminateAbandoned(on: connection)
        return connection
    }

    /// Terminates the server process of the connection the listener gave up, if it is still there: a process
    /// whose client vanished (a network partition, a stopped process) may live on, and while it has unread
    /// notifications the server's NOTIFY queue cannot drain — until every write to a captured table fails.
    func terminateAbandoned(on connection: PostgresConnection) {
        guard let pid = abandonedPID.withLock({ $0 }) else { return }
        do {
            let result = try connection.execute(
                "SELECT pg_terminate_backend(pid) AS done FROM pg_catalog.pg_stat_activity "
                    + "WHERE pid = $1 AND usename = current_user", [.integer(Int64(pid))])
            abandonedPID.withLock { $0 = nil }
            if result.rowCount > 0, case .bool(true) = try result.value(row: 0, column: 0) {
                terminatedAbandoned.add(1, ordering: .relaxed)
                logger.info("terminated the listener's abandoned server process", metadata: ["pid": "\(pid)"])
            }
        } catch {
            logger.info(
                "could not terminate the listener's abandoned server process",
                metadata: ["pid": "\(pid)", "error": "\(error)"])
        }
    }
}
