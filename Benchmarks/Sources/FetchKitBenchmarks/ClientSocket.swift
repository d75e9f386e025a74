import FetchKit
import FetchKitSession
import Foundation
import Synchronization

/// One connection of a web client to a board session, in memory: it decodes every message the session sends,
/// applies `results`, `batch` and `resumed` to its list and keeps the token of the last one it applied, as the
/// browser client does; it counts what it receives. A slow reader takes `readDelay` over each message (the
/// session's send waits for it, as for a socket whose client does not read).
final class ClientSocket: SessionTransport {
    struct State {
        var list = WireList<TicketBoard.Ticket>()
        var token: String?
        var bytes = 0
        var messages = 0
        /// Messages of each type.
        var types: [String: Int] = [:]
        /// The row changes of the last list message: inserts, deletes, moves, updates.
        var lastChanges = (inserts: 0, deletes: 0, moves: 0, updates: 0)
        /// When the first list message (`results` or `resumed`) was applied.
        var listAt: ContinuousClock.Instant?
        /// A message the client could not read or apply: it is out of step.
        var failure: String?
        var closed: SessionCloseCode?
    }

    private struct Envelope: Decodable {
        var type: String
        var token: String?
        var changeset: WireChangeset<TicketBoard.Ticket>?
    }

    private let state: Mutex<State>
    let readDelay: Duration?
    /// The client's messages to the session.
    let inbound: AsyncStream<String>
    private let input: AsyncStream<String>.Continuation

    /// A new connection; `resuming` a previous one, the client keeps its list and token.
    init(resuming previous: ClientSocket? = nil, readDelay: Duration? = nil) {
        var state = State()
        if let previous {
            let held = previous.state.withLock { $0 }
            state.list = held.list
            state.token = held.token
        }
        self.state = Mutex(state)
        self.readDelay = readDelay
        (inbound, input) = AsyncStream.makeStream(of: String.self)
    }

    /// Opens the list, presenting the token the client holds.
    func open() {
        let resume = state.withLock { $0.token }.map { #", "resume": "\#($0)""# } ?? ""
        input.yield(#"{"v": 1, "type": "open"\#(resume)}"#)
    }

    /// The client goes away.
    func disconnect() { input.finish() }

    func send(_ text: String) async throws {
        if let readDelay { try await Task.sleep(for: readDelay) }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(text.utf8))
        } catch {
            state.withLock { $0.failure = "undecodable message: \(error)" }
            return
        }
        state.withLock { state in
            state.bytes += text.utf8.count
            state.messages += 1
            state.types[envelope.type, default: 0] += 1
            guard let changeset = envelope.changeset, state.failure == nil else { return }
            do {
                if envelope.type == "results" { state.list = WireList() }
                try state.list.apply(changeset)
                state.token = envelope.token
                state.lastChanges = (
                    changeset.rowInserts.count + changeset.sectionInserts.reduce(0) { $0 + $1.objects.count },
                    changeset.rowDeletes.count, changeset.rowMoves.count, changeset.rowUpdates.count
                )
                if state.listAt == nil, envelope.type != "batch" { state.listAt = .now }
            } catch {
                state.failure = "\(envelope.type): \(error)"
            }
        }
    }

    func close(_ code: SessionCloseCode, reason: String) async {
        state.withLock { $0.closed = code }
        input.finish()
    }

    /// What it holds and has counted now.
    var now: State { state.withLock { $0 } }

    /// Waits until the client's list is `expected` (`true`), or for `timeout` (`false`).
    func wait(for expected: [TicketBoard.Section], timeout: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while TicketBoard.sections(of: now.list) != expected {
            guard ContinuousClock.now < deadline, now.failure == nil else { return false }
            try await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    /// Serves this connection with `session` in a task of its own, and opens the list.
    func connect(to session: LiveResultsSession<Row, TicketBoard.View>) -> Task<Void, Never> {
        let task = Task { await session.run(scope: TicketBoard.scope, inbound: inbound, transport: self) }
        open()
        return task
    }
}
