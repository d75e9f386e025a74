/// What a session writes to: one client's WebSocket, as a web framework gives it. FetchKitHummingbird and
/// FetchKitVapor provide one; another framework needs only these two methods.
public protocol SessionTransport: Sendable {
    /// Sends one text message, returning once the framework has taken it: a client that does not read makes
    /// it wait, and the session sends nothing more meanwhile.
    func send(_ text: String) async throws
    /// Closes the socket with `code`, saying `reason`.
    func close(_ code: SessionCloseCode, reason: String) async
}

/// A WebSocket close code a session ends with.
public struct SessionCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the list ended (its store closed).
    public static let normal = Self(rawValue: 1000)
    /// 1001: the server shuts down; the client reconnects and resumes.
    public static let goingAway = Self(rawValue: 1001)
    /// 1008: the list was refused to this client; it should not reconnect as it is.
    public static let policyViolation = Self(rawValue: 1008)
    /// 1011: the server failed.
    public static let internalError = Self(rawValue: 1011)

    public var description: String { "\(rawValue)" }
}
