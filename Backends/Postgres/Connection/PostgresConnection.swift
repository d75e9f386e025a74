import CLibPQ
import FetchKit
import FetchKitBackendKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One libpq connection, confined to the thread that opened it (a ``ConnectionThread``): every call on
/// it blocks, so none ever runs on the cooperative pool.
final class PostgresConnection {
    let handle: OpaquePointer
    /// The URL it was opened with, password redacted: for errors and logs.
    let redactedURL: String
    /// Prepared statements by SQL text and parameter types, with their server-side names.
    var preparedStatements: [PreparedKey: String] = [:]
    /// Whether the connection checks, before a statement outside a transaction, that the server has not
    /// closed it while it sat idle (see ``ensureUsable(endingTransaction:)``). Off for the listener, whose
    /// idle socket legitimately receives notifications.
    var checksIdleInput = true
    /// Set when the connection broke inside a transaction: the server rolled it back, so the transaction's
    /// later statements must fail too rather than run on a new session. Cleared by the statement that ends or
    /// begins a transaction.
    var brokeInTransaction = false
    /// How many times the connection was opened again after the server closed it.
    var reconnections = 0

    struct PreparedKey: Hashable {
        let sql: String
        let types: [Oid]
    }

    private init(handle: OpaquePointer, redactedURL: String) {
        self.handle = handle
        self.redactedURL = redactedURL
    }

    /// The value of libpq connection option `keyword` in use (`PQconninfo`), `nil` when unset.
    func option(_ keyword: String) -> String? {
        guard let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let name = option.pointee.keyword {
            if String(cString: name) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
    }

    /// Opens a connection to `url`, adding `extra` keyword/value parameters (the URL's own win over them).
    ///
    /// The parameters reach libpq as keyword/value arrays (`PQconnectdbParams`), never through a connection
    /// string. The client encoding is UTF-8.
    /// - Throws: ``FetchKitError/Code/tooManyConnections`` or ``FetchKitError/Code/connectionLost`` with
    ///   libpq's message and the redacted URL.
    static func open(_ url: PostgresURL, extra: [(keyword: String, value: String)] = []) throws -> PostgresConnection {
        // Later keywords win: the URL's own parameters over `extra` (FetchKit's defaults, such as keepalives).
        let pairs = [("fallback_application_name", "fetchkit")] + extra + url.parameters + [("client_encoding", "UTF8")]
        let keywords = pairs.map { strdup($0.0) }
        let values = pairs.map { strdup($0.1) }
        defer {
            for keyword in keywords { free(keyword) }
            for value in values { free(value) }
        }
        let keywordPointers = keywords.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        guard let handle = PQconnectdbParams(keywordPointers, valuePointers, 0) else {
            throw FetchKitError.connectionLost("libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = url.hidingSecrets(in: Self.message(PQerrorMessage(handle)))
            PQfinish(handle)
            if message.contains("too many clients") || message.contains("too many connections") {
                throw FetchKitError.tooManyConnections("\(url.redacted): \(message)")
            }
            throw FetchKitError.connectionLost("could not connect to \(url.redacted): \(message)")
        }
        // libpq prints the server's notices (NOTICE, WARNING) to stderr by default; a library must not.
        // They are informational (`DROP … IF EXISTS` skipping, and the like): drop them.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        return PostgresConnection(handle: handle, redactedURL: url.redacted)
    }

    /// The server's process ID for this connection (what `pg_terminate_backend` takes).
    var backendPID: Int32 { PQbackendPID(handle) }

    /// `true` while the connection is usable.
    var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Closes the connection (`PQfinish`); it is not used afterwards.
    func close() {
        PQfinish(handle)
    }

    /// libpq's message text, without its trailing newline.
    static func message(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "no message" }
        var message = String(cString: text)
        while message.last?.isNewline == true { message.removeLast() }
        return message
    }
}

extension PostgresConnection: DriverConnection {}
