import FetchKit

/// An error as a session tells its client: a code the client can act on and a message safe to show — never
/// SQL, a server path or a database's own words.
public struct SessionError: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable, Encodable {
        /// The client's message or request is not valid (its own words may be quoted back).
        case invalid
        /// The client asked for something the server does not allow.
        case forbidden
        /// A write conflicted with another; trying again may work.
        case conflict
        /// The database cannot be reached, or the list stopped following it.
        case unavailable
        /// Anything else; the server's log says more.
        case `internal`
    }

    /// What kind of failure it is.
    public var code: Code
    /// A message safe to show the client.
    public var message: String

    /// An error with a code and a message safe to show.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// What the client may hear of `error`: the message of an error about its own input (a bad key, a row that
    /// is not there), a fixed sentence for everything that comes from the database or the server.
    public init(sanitizing error: any Error) {
        if let error = error as? SessionError {
            self = error
            return
        }
        guard let error = error as? FetchKitError else {
            self.init(.internal, "the server could not do this")
            return
        }
        switch error.code {
        case .invalidPredicate, .unknownKey, .typeMismatch, .invalidValue, .sectionOrder, .unsupported:
            // About the client's own filter, sort or move: FetchKit's message names what and where in it.
            self.init(.invalid, error.message)
        case .constraintViolation:
            self.init(.conflict, "the change conflicts with the data (a unique or required value)")
        case .serializationFailure, .busy:
            self.init(.conflict, "the change conflicted with another; try again")
        case .connectionLost, .tooManyConnections, .closed, .diskFull, .readOnly, .storeFileMissing:
            self.init(.unavailable, "the list cannot reach its database")
        default:
            self.init(.internal, "the server could not do this")
        }
    }
}
