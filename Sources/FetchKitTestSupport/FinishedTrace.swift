#if Tracing
    import InMemoryTracing
    import Tracing

    /// The finished spans of one trace an in-memory tracer recorded: found by its root span's name, walked from
    /// parent to child.
    package struct FinishedTrace {
        /// Every finished span of the trace.
        package let spans: [FinishedInMemorySpan]

        /// The trace whose root span is named `root` (the last one, if several), or `nil`.
        package init?(_ tracer: InMemoryTracer, root: String) {
            let finished = tracer.finishedSpans
            guard let top = finished.last(where: { $0.operationName == root && $0.parentSpanID == nil }) else {
                return nil
            }
            spans = finished.filter { $0.traceID == top.traceID }
        }

        /// The root span.
        package var root: FinishedInMemorySpan? { spans.first { $0.parentSpanID == nil } }

        /// The spans named `name` whose parent is `parent`.
        package func children(of parent: FinishedInMemorySpan, named name: String) -> [FinishedInMemorySpan] {
            spans.filter { $0.parentSpanID == parent.spanID && $0.operationName == name }
        }

        /// The spans named `name` anywhere in the trace.
        package func spans(named name: String) -> [FinishedInMemorySpan] {
            spans.filter { $0.operationName == name }
        }

        /// The first path from the root down through spans named `names`, each a child of the one before, or `nil`.
        package func path(_ names: [String]) -> [FinishedInMemorySpan]? {
            guard let root else { return nil }
            func walk(from span: FinishedInMemorySpan, _ rest: ArraySlice<String>) -> [FinishedInMemorySpan]? {
                guard let next = rest.first else { return [] }
                for child in children(of: span, named: next) {
                    if let tail = walk(from: child, rest.dropFirst()) { return [child] + tail }
                }
                return nil
            }
            return walk(from: root, names[...]).map { [root] + $0 }
        }
    }

    extension FinishedInMemorySpan {
        /// Attribute `key` as a string, when it is one.
        package func string(_ key: String) -> String? {
            if case .string(let value)? = attributes.get(key) { return value }
            return nil
        }

        /// Attribute `key` as an integer, when it is one.
        package func int(_ key: String) -> Int? {
            if case .int64(let value)? = attributes.get(key) { return Int(value) }
            return nil
        }
    }
#endif
