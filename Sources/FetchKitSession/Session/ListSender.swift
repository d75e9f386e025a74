import FetchKit
import Logging

/// The one reader of a session's update sequence: it sends each element as a message with its resume token,
/// and reads the next only once that send is done — so the sequence coalesces what a slow client has not read.
struct ListSender<Object: Sendable, Projected: Encodable & Sendable>: Sendable {
    let session: LiveResultsSession<Object, Projected>
    /// The request the list answers (scope and client filter included): a resume token is good for it alone.
    let request: AnyFetchRequest
    /// The token the client presented, if any.
    let resumeFrom: ResumeToken?
    let out: SendQueue
    /// Makes the list's objects from rows, as its controller does (for a list restored from an archive).
    let objects: @Sendable ([Row]) throws -> [Object]

    typealias Message = SessionMessage<Projected>

    /// Sends the list, then each batch, until the sequence ends or the task is cancelled.
    func forward(_ updates: ResultsStream<Object>) async {
        var sequence = Sequence(store: session.resume, request: request)
        do {
            for try await update in updates {
                let messages = try self.messages(for: update, sequence: &sequence)
                for message in messages { try await out.send(message) }
            }
        } catch let error as FetchKitError {
            session.logger.debug("a live session's list stopped", metadata: ["error": "\(error)"])
            await session.fail(SessionError(sanitizing: error), closed: error.code == .closed, out: out)
        } catch is CancellationError {
            return
        } catch {
            // The transport failed (the client went away) or a message could not be encoded.
            if error is EncodingError {
                session.logger.error("a live session could not encode a message", metadata: ["error": "\(error)"])
                await session.fail(
                    SessionError(.internal, "the server could not send the list"), closed: false, out: out)
            }
        }
    }

    /// The messages for one element: the first is the list (`results`, or `resumed` from the client's token —
    /// after a `reset` when the token cannot be used), each later one a `batch`.
    private func messages(for update: ResultsBatch<Object>, sequence: inout Sequence) throws -> [String] {
        guard sequence.hasSentList else {
            sequence.hasSentList = true
            var messages: [String] = []
            if let token = resumeFrom {
                switch held(sequence.lookup(token), now: update.snapshot) {
                case .list(let held):
                    let resumed = try ResultsBatch(from: held, to: update.snapshot, transactionID: update.transactionID)
                    let next = sequence.next(update.snapshot)
                    return [try Message.resumed(project(WireChangeset(resumed)), token: next).json()]
                case .reset(let reason): messages.append(try Message.reset(reason).json())
                }
            }
            let next = sequence.next(update.snapshot)
            let list = WireChangeset(inserting: update.snapshot, transactionID: update.transactionID)
            messages.append(try Message.results(project(list), token: next).json())
            return messages
        }
        let next = sequence.next(update.snapshot)
        return [try Message.batch(project(WireChangeset(update)), token: next).json()]
    }

    /// The list a token found, made again when it was restored from an archive; a reset when there is none.
    private func held(
        _ lookup: ResumeStates<Object>.Lookup, now current: ResultsSnapshot<Object>
    ) -> Held {
        switch lookup {
        case .found(.snapshot(let snapshot)): return .list(snapshot)
        case .found(.archived(let list)):
            guard let snapshot = list.snapshot(objects: objects, current: current) else {
                session.logger.debug("a restored list could not be made again (its columns or objects changed)")
                return .reset(.expired)
            }
            return .list(snapshot)
        case .expired: return .reset(.expired)
        case .unknown: return .reset(.unknown)
        }
    }

    /// What a client's token leaves it with: the list it holds, or a reset.
    private enum Held {
        case list(ResultsSnapshot<Object>)
        case reset(Message.ResetReason)
    }

    private func project(_ changeset: WireChangeset<Object>) -> WireChangeset<Projected> {
        changeset.map(session.project)
    }

    /// The session's resume tokens: a new ID for each connection (a resumed client's too: the connection it
    /// left may still be sending) and the next message's number.
    struct Sequence {
        let id = ResumeToken.newSession()
        var number: UInt64 = 0
        var hasSentList = false
        let store: ResumeStore<Object>?
        let request: AnyFetchRequest

        init(store: ResumeStore<Object>?, request: AnyFetchRequest) {
            self.store = store
            self.request = request
        }

        func lookup(_ token: ResumeToken) -> ResumeStates<Object>.Lookup {
            guard let store, !token.session.isEmpty else { return .unknown }
            return store.lookup(token, for: request)
        }

        /// The token of the next message, which leaves the client with `snapshot` (kept for a resume).
        mutating func next(_ snapshot: ResultsSnapshot<Object>) -> String {
            number += 1
            let token = ResumeToken(session: id, sequence: number)
            store?.sent(snapshot, as: token, for: request)
            return token.description
        }
    }
}
