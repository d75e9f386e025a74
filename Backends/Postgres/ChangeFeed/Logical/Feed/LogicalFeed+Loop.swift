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

extension LogicalFeed {
    /// The feed thread's I/O. It waits (``DescriptorWait``) on the replication connection's socket and the wake pipe
    /// until the ``LogicalFeedStateMachine``'s deadline, reads the stream with libpq, tells the machine what
    /// arrived and performs what the machine decides: connecting, publishing, acknowledging, reporting.
    final class Loop {
        private typealias Machine = LogicalFeedStateMachine
        /// The most messages read before the machine sees them: a long transaction is handed on in pieces, so
        /// acknowledgements and pings are not held up behind it.
        private static let batchLimit = 2_048
        private let source: LogicalFeed
        private var machine: Machine
        private var connection: PostgresConnection?
        /// An ordinary connection for the publication's checks, opened at the first one.
        private var checker: PostgresConnection?
        private var started: CheckedContinuation<Void, any Error>?
        private var connectError: (any Error)?
        private var resumed = false
        private var isClosed = false

        init(_ source: LogicalFeed, started: CheckedContinuation<Void, any Error>) {
            self.source = source
            self.started = started
            machine = Machine(
                options: source.options,
                assembler: LogTransactionAssembler(
                    schemaName: source.settings.schemaName, keyColumns: source.settings.keyColumns,
                    paddedKeyTables: source.settings.paddedKeyTables, references: source.settings.references))
        }

        /// Connects, then streams until stopped (or until the first connection fails).
        func run() {
            send(.start)
            while !isClosed { waitForEvent() }
        }

        /// Tells the machine `event` and performs its actions, and those of the events they lead to, in order.
        private func send(_ event: Machine.Event) {
            var actions = machine.handle(event, at: .now)
            recordPublished(actions)
            while !actions.isEmpty {
                if let next = perform(actions.removeFirst()) { actions += machine.handle(next, at: .now) }
            }
        }

        /// Waits for input, a wake or the machine's deadline, and tells the machine which came.
        private func waitForEvent() {
            switch source.thread.waitForInput(on: connection, until: machine.deadline) {
            case .readable:
                if let connection { read(connection) }
                // A stream that never pauses still reaches its deadlines: its checks and acknowledgements.
                if let deadline = machine.deadline, ContinuousClock.now >= deadline { send(.tick) }
            case .timedOut:
                send(.tick)
            case .woken(let stopRequested):
                send(stopRequested ? .closeRequested : .checkRequested)
            case .interrupted:
                break
            case .failed(let reason):
                send(.connectionLost(reason))
            }
        }

        /// Reads what the socket holds, in batches of at most ``batchLimit`` messages.
        private func read(_ connection: PostgresConnection) {
            guard PQconsumeInput(connection.handle) != 0 else {
                return send(.connectionLost(PostgresConnection.message(PQerrorMessage(connection.handle))))
            }
            var messages: [[UInt8]] = []
            while self.connection === connection {
                switch connection.readCopyData() {
                case .data(let bytes):
                    messages.append(bytes)
                    if messages.count == Self.batchLimit {
                        send(.received(messages))
                        messages.removeAll(keepingCapacity: true)
                    }
                case .wouldBlock:
                    if !messages.isEmpty { send(.received(messages)) }
                    return
                case .ended(let reason):
                    if !messages.isEmpty { send(.received(messages)) }
                    return send(.connectionLost(reason))
                }
            }
        }

        /// Performs `action`; returns the event it leads to, if any.
        private func perform(_ action: Machine.Action) -> Machine.Event? {
            switch action {
            case .connect:
                do {
                    let (connection, resumed) = try source.connect()
                    self.connection = connection
                    return .connected(resumed: resumed)
                } catch {
                    connectError = error
                    return .connectionFailed("\(error)")
                }
            case .started:
                started?.resume()
                started = nil
            case .startFailed:
                let error = connectError ?? FetchKitError.connectionLost("the logical change feed could not connect")
                started?.resume(throwing: error)
                started = nil
                isClosed = true
            case .publish(let transaction):
                // Its age when the server sent it, on the server's clock: how far behind the database the feed is.
                // A store write's change carries the write's trace.
                source.completions.trace(of: Int64(transaction.transactionID)).bind {
                    source.feed.publish(
                        source.settings.images.changes(of: transaction), logPosition: transaction.end.value,
                        committedAt: .now - .microseconds(transaction.age))
                }
                source.completions.complete(Int64(transaction.transactionID))
            case .publishResync:
                source.feed.publishResync()
            case .interruptDelivery(let reason):
                source.feed.publishDelivery(.interrupted(.connectionLost(reason)))
            case .reportUnreadable(let reason):
                source.logger.info("unreadable transaction in the log; resyncing", metadata: ["reason": "\(reason)"])
            case .completeAllWrites:
                source.completions.completeAll()
            case .completeWrites(let position):
                source.completions.complete(through: position)
            case .checkPublication:
                return checkPublication()
            case .readServerPosition:
                return readServerPosition()
            case .reportBacklog(let since):
                source.feed.publishDelivery(since.map { .lagging(since: $0) } ?? .streaming)
            case .sendStatus(let applied, let received, let replyRequested):
                guard let connection else { return nil }
                let update = StandbyStatusUpdate(
                    written: received, flushed: applied, applied: applied,
                    sentAt: Date.now.microsecondsSince1970 - StandbyStatusUpdate.epochOffset,
                    replyRequested: replyRequested)
                if !connection.sendCopyData(update.encoded) {
                    return .connectionLost(PostgresConnection.message(PQerrorMessage(connection.handle)))
                }
            case .reportState(let state):
                source.thread.setState(state)
                if let delivery = state.delivery { source.feed.publishDelivery(delivery) }
            case .disconnect(let reason):
                // Info: the feed reconnects by itself, and the router says how many controllers wait for it.
                source.logger.info(
                    "logical change feed lost its connection; reconnecting", metadata: ["reason": "\(reason)"])
                let lost = source.streamingPID.withLock { pid in
                    defer { pid = nil }
                    return pid
                }
                source.abandonedPID.withLock { $0 = lost }
                source.currentSlot.withLock { $0 = nil }
                connection?.close()
                connection = nil
            case .reconnected(let attempts):
                source.reconnects.increment()
                source.logger.info("logical change feed reconnected", metadata: ["attempts": "\(attempts)"])
            case .close:
                connection?.close()
                connection = nil
                checker?.close()
                checker = nil
                isClosed = true
            }
            return nil
        }

        /// Records the transactions `actions` publish as not yet confirmed visible, before they are published: the
        /// store's reads that follow wait until the server shows them (``VisibilityGate``), and the stream is not
        /// held for a query.
        private func recordPublished(_ actions: [Machine.Action]) {
            var transactionIDs: [UInt32] = []
            var end: LogPosition?
            for case .publish(let transaction) in actions {
                transactionIDs.append(transaction.transactionID)
                end = max(end ?? .zero, transaction.end)
            }
            source.visibility.published(transactionIDs, through: end)
        }

        /// Checks the publication on ``checker`` and records what the slot retains; a failed check is logged and
        /// tried again at the next one.
        private func checkPublication() -> Machine.Event? {
            do {
                let checker = try openChecker()
                let repaired = try source.preparePublication(on: checker)
                if let slot = source.slotName, let status = try PostgresStore.slots(on: checker, named: slot).first {
                    source.retainedLog.record(status.retainedBytes)
                }
                return .publicationChecked(repaired: repaired)
            } catch {
                dropChecker("could not check the publication", error)
                return nil
            }
        }

        /// Reads the end of the server's log (what it has inserted, flushed or not: a commit under
        /// `synchronous_commit = off` is visible before it is flushed and sent) on ``checker``; a failed read is logged
        /// and tried again
        /// at the next check.
        private func readServerPosition() -> Machine.Event? {
            do {
                let result = try openChecker().execute("SELECT pg_current_wal_insert_lsn()::text AS position")
                guard case .text(let text) = try result.value(row: 0, column: 0), let position = LogPosition(text)
                else { return nil }
                recordLag(serverAt: position.lastRecordEnd)
                return .serverPosition(position.lastRecordEnd)
            } catch {
                dropChecker("could not read the server's log position", error)
                return nil
            }
        }

        /// Records how far the feed is behind the server's log at `position`: the bytes it has not received, and
        /// since when (as of the last reading).
        private func recordLag(serverAt position: LogPosition) {
            let received = machine.received.value
            source.lagBytes.record(position.value > received ? position.value - received : 0)
            let since = machine.backlogSince.map { ContinuousClock.now - $0 } ?? .zero
            source.lagSeconds.record(Double(since.components.seconds) + Double(since.components.attoseconds) / 1e18)
        }

        /// ``checker``, opened if it is not.
        private func openChecker() throws -> PostgresConnection {
            if let checker { return checker }
            let opened = try PostgresConnection.open(source.settings.url, extra: source.options.keepaliveParameters)
            checker = opened
            return opened
        }

        /// Logs `error` (what `failure` failed with) and closes ``checker``: the next use opens it again.
        private func dropChecker(_ failure: String, _ error: any Error) {
            source.logger.info("\(failure)", metadata: ["error": "\(error)"])
            checker?.close()
            checker = nil
        }
    }
}
