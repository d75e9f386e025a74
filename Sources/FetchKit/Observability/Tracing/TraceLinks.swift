#if Tracing
    import Tracing
#endif

/// The trace contexts a change carries from the writes it covers (a folded change covers several), so that the
/// spans of what it causes join the writers' traces: the first is their parent, the others their links. Empty
/// without the `Tracing` trait, and for a change no traced task wrote.
package struct TraceLinks: Sendable {
    /// At most this many contexts: a backlog folded from thousands of writes links the first few.
    static let limit = 8

    #if Tracing
        package private(set) var contexts: [ServiceContext] = []
    #endif

    package init() {}

    /// The context of the task (or thread) running now, if it has one that says something (a span's; not the
    /// empty context of an unsampled or no-op span).
    package static var current: TraceLinks {
        var links = TraceLinks()
        #if Tracing
            if let context = ServiceContext.current, !context.isEmpty { links.contexts = [context] }
        #endif
        return links
    }

    /// Whether it carries no context.
    package var isEmpty: Bool {
        #if Tracing
            contexts.isEmpty
        #else
            true
        #endif
    }

    /// Adds `later`'s contexts after its own, up to ``limit``.
    package mutating func absorb(_ later: TraceLinks) {
        #if Tracing
            guard contexts.count < Self.limit else { return }
            contexts += later.contexts.prefix(Self.limit - contexts.count)
        #endif
    }

    /// Runs `body` with the first context bound as the thread's `ServiceContext`: what a backend's writer thread
    /// does around a write's commit, so that the change it publishes carries the writer's trace.
    package func bind<T>(_ body: () throws -> T) rethrows -> T {
        #if Tracing
            guard let context = contexts.first else { return try body() }
            return try ServiceContext.withValue(context) { try body() }
        #else
            return try body()
        #endif
    }
}
