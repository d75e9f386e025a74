import FetchKit

/// What a session sends its client, one JSON object per WebSocket text message (see "The session protocol").
///
/// ```json
/// {"v": 1, "type": "batch", "token": "k1FA…", "changeset": {…}}
/// ```
public enum SessionMessage<Object: Encodable & Sendable>: Sendable, Encodable {
    /// The whole list, inserted into an empty one; `token` resumes from it.
    case results(WireChangeset<Object>, token: String)
    /// One change, from exactly the list the client holds.
    case batch(WireChangeset<Object>, token: String)
    /// The answer to a usable resume token: from the state it named to now.
    case resumed(WireChangeset<Object>, token: String)
    /// The resume token could not be used; `results` follows.
    case reset(ResetReason)
    /// The client's move `id` was made (`error == nil`) or not, after every batch that shows its outcome.
    case moved(id: Int, error: SessionError?)
    /// How the list follows the database.
    case status(SessionStatus)
    /// Something failed; the session goes on unless a close follows.
    case error(SessionError)
    /// The list cannot be opened for this client; the server closes with 1008 after it.
    case refused(SessionError)

    /// The protocol's version, `v` in every message.
    public static var protocolVersion: Int { 1 }

    /// Why a resume token could not be used.
    public enum ResetReason: String, Sendable, Encodable {
        /// The server no longer keeps the state it names.
        case expired
        /// The server never issued it, or issued it for another list or user.
        case unknown
    }

    private enum Key: String, CodingKey {
        case v, type, token, changeset, reason, id, error, status
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Self.protocolVersion, forKey: .v)
        switch self {
        case .results(let changeset, let token), .batch(let changeset, let token),
            .resumed(let changeset, let token):
            try container.encode(type, forKey: .type)
            try container.encode(token, forKey: .token)
            try container.encode(changeset, forKey: .changeset)
        case .reset(let reason):
            try container.encode("reset", forKey: .type)
            try container.encode(reason, forKey: .reason)
        case .moved(let id, let error):
            try container.encode("moved", forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encodeIfPresent(error, forKey: .error)
        case .status(let status):
            try container.encode("status", forKey: .type)
            try container.encode(status, forKey: .status)
        case .error(let error):
            try container.encode("error", forKey: .type)
            try container.encode(error, forKey: .error)
        case .refused(let error):
            try container.encode("refused", forKey: .type)
            try container.encode(error, forKey: .error)
        }
    }

    /// The message's `type`.
    public var type: String {
        switch self {
        case .results: "results"
        case .batch: "batch"
        case .resumed: "resumed"
        case .reset: "reset"
        case .moved: "moved"
        case .status: "status"
        case .error: "error"
        case .refused: "refused"
        }
    }

    /// The message as JSON text.
    public func json() throws -> String { try SessionJSON.text(self) }
}

/// How a session's list follows the database, as its client hears it.
public enum SessionStatus: String, Sendable, Encodable {
    /// Every committed change is shown, within the controller's threshold.
    case live
    /// Behind the database, catching up.
    case catchingUp
    /// Not following it now (its feed reconnects, a read failed); batches resume after a resync.
    case resyncing

    /// What a client hears of `status`; `nil` for the statuses a session does not forward (before the first
    /// fetch, and the stop that ends the session).
    init?(_ status: ResultsStatus) {
        switch status {
        case .live: self = .live
        case .catchingUp: self = .catchingUp
        case .resyncing: self = .resyncing
        default: return nil
        }
    }
}
