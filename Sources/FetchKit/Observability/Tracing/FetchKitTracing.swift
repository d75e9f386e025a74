#if Tracing
    import Tracing
#endif

/// The spans FetchKit reports through swift-distributed-tracing when its `Tracing` trait is on: a write
/// (`fetchkit.write`), its routing to the store's controllers (`fetchkit.route`), each controller applying it
/// (`fetchkit.apply`) and delivering the batch (`fetchkit.deliver`). Without the trait every call here runs its
/// body and nothing else.
///
/// A write's span is a child of the task's `ServiceContext` (a root span without one). The spans of what a change
/// causes join its writer's trace and only that: a change that carries no trace (written by another process, or
/// by a task that was not traced) starts no span, so 10,000 controllers never make 10,000 root traces of their
/// own. The tracer bound to the task (`withTracer`) or bootstrapped decides whether a span records.
package enum FetchKitTracing {
    /// Runs `body` in a span named `name`, a child of `parent`'s first context and linked to its others (without
    /// `parent`, a child of the task's context); the span records what `body` throws and ends when it returns.
    /// With a `parent` that carries no context, `body` runs without a span.
    package static func span<T>(
        _ name: String, kind: TraceSpanKind = .internal, parent: TraceLinks? = nil,
        attributes: @autoclosure () -> [(String, TraceAttribute)] = [], isolation: isolated (any Actor)? = #isolation,
        _ body: (TraceSpan) async throws -> T
    ) async rethrows -> T {
        #if Tracing
            guard isTracing, parent?.isEmpty != true else { return try await body(TraceSpan(nil)) }
            let span = start(name, kind: kind, parent: parent, attributes: attributes())
            defer { span.end() }
            return try await ServiceContext.withValue(span.context) {
                do {
                    return try await body(TraceSpan(span))
                } catch {
                    span.recordError(error)
                    span.setStatus(SpanStatus(code: .error))
                    throw error
                }
            }
        #else
            return try await body(TraceSpan())
        #endif
    }

    /// Runs `body` in a span named `name` on this thread (see the asynchronous form).
    package static func span<T>(
        _ name: String, kind: TraceSpanKind = .internal, parent: TraceLinks? = nil,
        attributes: @autoclosure () -> [(String, TraceAttribute)] = [], _ body: (TraceSpan) throws -> T
    ) rethrows -> T {
        #if Tracing
            guard isTracing, parent?.isEmpty != true else { return try body(TraceSpan(nil)) }
            let span = start(name, kind: kind, parent: parent, attributes: attributes())
            defer { span.end() }
            return try ServiceContext.withValue(span.context) {
                do {
                    return try body(TraceSpan(span))
                } catch {
                    span.recordError(error)
                    span.setStatus(SpanStatus(code: .error))
                    throw error
                }
            }
        #else
            return try body(TraceSpan())
        #endif
    }

    #if Tracing
        /// Whether a tracer other than the no-op one is bootstrapped: without one, no span is started, and no
        /// attribute is even built.
        private static var isTracing: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

        private static func start(
            _ name: String, kind: TraceSpanKind, parent: TraceLinks?, attributes: [(String, TraceAttribute)]
        ) -> any Span {
            let context = parent?.contexts.first ?? ServiceContext.current ?? .topLevel
            let spanKind: SpanKind =
                switch kind {
                case .client: .client
                case .consumer: .consumer
                case .internal: .internal
                }
            let span = startSpan(name, context: context, ofKind: spanKind)
            let traced = TraceSpan(span)
            for (key, value) in attributes { traced.set(key, value) }
            for other in parent?.contexts.dropFirst() ?? [] { span.addLink(SpanLink(context: other, attributes: [:])) }
            return span
        }
    #endif
}

/// The kinds of span FetchKit starts, as OpenTelemetry names them.
package enum TraceSpanKind: Sendable {
    /// A call to the database (a write).
    case client
    /// The handling of a change the database's feed delivered.
    case consumer
    /// Work inside the process.
    case `internal`
}

/// A span attribute's value.
package enum TraceAttribute: Sendable {
    case string(String)
    case int(Int)
}

/// The span a traced body runs in: it sets attributes known only once the work is done.
package struct TraceSpan {
    #if Tracing
        let span: (any Span)?

        init(_ span: (any Span)?) { self.span = span }
    #else
        init() {}
    #endif

    /// A span that is not recorded: for work that runs traced or not.
    package static var none: TraceSpan {
        #if Tracing
            TraceSpan(nil)
        #else
            TraceSpan()
        #endif
    }

    /// Sets attribute `key`.
    package func set(_ key: String, _ value: TraceAttribute) {
        #if Tracing
            guard let span else { return }
            switch value {
            case .string(let string): span.attributes[key] = string
            case .int(let int): span.attributes[key] = int
            }
        #endif
    }
}

extension FetchKitTracing {
    /// Runs a store's write in a `fetchkit.write` client span with the store's `attributes` (OpenTelemetry's
    /// `db.system.name`, `db.namespace`, …); `body` gets the span's context, to bind on the thread that commits
    /// (``TraceLinks/bind(_:)``) so that the change published there carries it.
    package static func write<T>(
        attributes: @autoclosure () -> [(String, TraceAttribute)], isolation: isolated (any Actor)? = #isolation,
        _ body: (TraceLinks) async throws -> T
    ) async rethrows -> T {
        try await span("fetchkit.write", kind: .client, attributes: attributes()) { _ in try await body(.current) }
    }
}
