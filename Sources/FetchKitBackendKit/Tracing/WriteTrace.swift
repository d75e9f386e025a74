import FetchKit

/// A store write's trace, with FetchKit's `Tracing` trait: the `fetchkit.write` span a backend runs a write in,
/// carried to the thread that commits it, so that the change the backend publishes there joins the writer's trace
/// (and the route, apply and deliver spans of its controllers follow). Without the trait, or without a tracer,
/// it runs the write and nothing else.
///
/// ```swift
/// public func write<T: Sendable>(_ body: @escaping @Sendable (any WriteTransaction) throws -> T) async throws -> T {
///     try await WriteTrace.write(attributes: [("db.system.name", .string("mydb"))]) { trace in
///         try await writer.run { connection in
///             try trace.bind { try commit(body, on: connection) }   // publishes the change on this thread
///         }
///     }
/// }
/// ```
public struct WriteTrace: Sendable {
    /// A span attribute's value.
    public enum Value: Sendable {
        /// Text: `db.system.name`, `db.namespace`, `server.address`.
        case string(String)
        /// An integer: `server.port`.
        case int(Int)
    }

    let links: TraceLinks

    /// The trace of the task, or the thread, running now (none when it runs in no trace).
    public static var current: WriteTrace { WriteTrace(links: .current) }

    /// Runs `body`, a store's write, in a `fetchkit.write` client span — a child of the task's trace — with the
    /// store's `attributes` (OpenTelemetry's `db.system.name`, `db.namespace`, `server.address`, …). The span
    /// records what `body` throws.
    public static func write<T>(
        attributes: @autoclosure () -> [(String, Value)], isolation: isolated (any Actor)? = #isolation,
        _ body: (WriteTrace) async throws -> T
    ) async rethrows -> T {
        try await FetchKitTracing.write(
            attributes: attributes().map { key, value in
                switch value {
                case .string(let string): (key, .string(string))
                case .int(let int): (key, .int(int))
                }
            }
        ) { links in try await body(WriteTrace(links: links)) }
    }

    /// Runs `body` with this trace bound to the thread: a change published meanwhile carries it.
    public func bind<T>(_ body: () throws -> T) rethrows -> T {
        try links.bind(body)
    }
}
