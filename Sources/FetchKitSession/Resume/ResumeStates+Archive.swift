import FetchKit

/// The kept states out to an archive and back in, in the next process.
extension ResumeStates {
    /// The sessions kept at `now` as an archive writes them: in the order of their IDs, each with its age and
    /// the identity of its request.
    ///
    /// - Complexity: O(rows kept): each list's rows are copied out (call it on a copy, outside the lock).
    func archived(at now: ContinuousClock.Instant) -> [ArchivedSession] {
        sessions.sorted { $0.key < $1.key }.compactMap { id, session in
            let age = now - session.touched
            guard age <= keepFor else { return nil }
            let identity: RequestIdentity
            switch session.request {
            case .live(let request): identity = RequestIdentity(request)
            case .restored(let restored): identity = restored
            }
            let sent = session.sent.map { sent in
                switch sent.list {
                case .snapshot(let snapshot):
                    ArchivedSession.Sent(sequence: sent.sequence, list: ArchivedList(snapshot))
                case .archived(let list): ArchivedSession.Sent(sequence: sent.sequence, list: list)
                }
            }
            return ArchivedSession(id: id, request: identity, age: age, sent: sent)
        }
    }

    /// Takes in the sessions of an archive written `elapsed` ago that still fit the bounds: younger than
    /// ``keepFor`` counting `elapsed`, their last ``statesPerSession`` lists, and — oldest dropped first — at most
    /// ``maximumRows`` rows with the sessions already kept. Returns how many it took in.
    mutating func restore(
        _ archived: [ArchivedSession], elapsed: Duration, at now: ContinuousClock.Instant
    ) -> Int {
        var restored = 0
        for session in archived {
            let age = session.age + max(elapsed, .zero)
            guard age <= keepFor else { continue }
            let sent = session.sent.suffix(statesPerSession).map {
                Sent(sequence: $0.sequence, list: .archived($0.list))
            }
            let kept = Session(request: .restored(session.request), sent: sent, touched: now - age)
            if adopt(kept, as: session.id) { restored += 1 }
        }
        let before = sessions.count
        evict(at: now, keeping: nil)
        return restored - (before - sessions.count)
    }
}
